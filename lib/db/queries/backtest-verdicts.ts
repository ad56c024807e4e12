/**
 * The candidate's overall sums of finished backtests, for the verdict column of the backtests
 * list (the list's own rows carry no result). Reads one small part of each stored result.
 */
import "server-only";
import type { TenantScope } from "@/lib/auth/scope";
import type { ArmSums } from "@/lib/backtest/types";
import { getPool } from "@/lib/db/client";
import { SqlParams, scopeConditions, whereClause } from "./sql";

/** Backtest id → the candidate's overall sums, for the done backtests among `ids` in `scope`. */
export async function listCandidateSums(
  scope: TenantScope,
  ids: readonly string[],
): Promise<Map<string, ArmSums>> {
  if (ids.length === 0) return new Map();
  const params = new SqlParams();
  const conditions = [
    `id = ANY(${params.add(ids)}::uuid[])`,
    "state = 'done'",
    "result IS NOT NULL",
    ...scopeConditions(params, scope),
  ];
  const { rows } = await getPool().query<{ id: string; candidate: ArmSums | null }>(
    `SELECT id::text AS id, result->'overall'->'candidate' AS candidate
       FROM backtests ${whereClause(conditions)}`,
    params.values,
  );
  return new Map(rows.flatMap((row) => (row.candidate ? [[row.id, row.candidate]] : [])));
}
