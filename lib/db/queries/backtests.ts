/**
 * Stored backtests (SPEC §10): create one, read one or a list within the viewer's tenants,
 * ask for one to be cancelled. The job's own reads and writes (claiming, checkpoints) are in
 * `lib/backtest/store.ts`.
 *
 * Every read takes the viewer's `TenantScope`: a backtest of a tenant outside it reads as
 * absent, exactly like one that does not exist.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { TenantScope } from "@/lib/auth/scope";
import type {
  Backtest,
  BacktestConfigJson,
  BacktestInput,
  BacktestResult,
  BacktestState,
  BacktestSummary,
} from "@/lib/backtest/types";
import { getPool } from "@/lib/db/client";
import { SqlParams, scopeConditions, whereClause } from "./sql";

export interface CreateBacktestArgs {
  input: BacktestInput;
  /** `configVersion` of the candidate, and of the baseline when there is one. */
  candidateVersion: string;
  baselineVersion: string | null;
  /** The user who started it; null for a script. */
  createdBy: string | null;
}

/** Stores a queued backtest and returns its id; the caller then hands it to the job queue. */
export async function createBacktest(args: CreateBacktestArgs): Promise<string> {
  const { input } = args;
  const id = randomUUID();
  await getPool().query(
    `INSERT INTO backtests
       (id, tenant_id, roles, window_from, window_to, candidate, candidate_version, baseline,
        baseline_version, threshold_percent, created_by)
     VALUES ($1, $2, $3::text[], $4, $5, $6::jsonb, $7, $8::jsonb, $9, $10, $11)`,
    [
      id,
      input.tenantId,
      input.roles,
      input.from,
      input.to,
      JSON.stringify(input.candidate),
      args.candidateVersion,
      input.baseline === null ? null : JSON.stringify(input.baseline),
      args.baselineVersion,
      input.thresholdPercent,
      args.createdBy,
    ],
  );
  return id;
}

interface SummaryRow {
  id: string;
  tenant_id: string;
  roles: string[] | null;
  window_from: Date;
  window_to: Date;
  candidate_version: string;
  baseline_version: string | null;
  threshold_percent: number;
  state: BacktestState;
  replayed: number;
  estimated_total: number;
  error: string | null;
  created_by: string | null;
  creator_email: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

interface BacktestRow extends SummaryRow {
  /** Checked against the config JSON schema when the backtest was created. */
  candidate: BacktestConfigJson;
  baseline: BacktestConfigJson | null;
  result: BacktestResult | null;
}

const SUMMARY_COLUMNS = `b.id, b.tenant_id, b.roles, b.window_from, b.window_to, b.candidate_version,
  b.baseline_version, b.threshold_percent, b.state, b.replayed, b.estimated_total, b.error,
  b.created_by, u.email AS creator_email, b.created_at, b.started_at, b.finished_at`;

function toSummary(row: SummaryRow): BacktestSummary {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    roles: row.roles ?? [],
    from: row.window_from,
    to: row.window_to,
    candidateVersion: row.candidate_version,
    baselineVersion: row.baseline_version,
    thresholdPercent: row.threshold_percent,
    state: row.state,
    progress: { replayed: row.replayed, estimatedTotal: row.estimated_total },
    error: row.error,
    createdBy: row.created_by === null ? null : { id: row.created_by, email: row.creator_email },
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `id` could be a backtest's id (a UUID); anything else is simply not found. */
export function isBacktestId(id: string): boolean {
  return UUID.test(id);
}

/** One backtest with its configs and result, or null when absent or outside `scope`. */
export async function getBacktest(id: string, scope: TenantScope): Promise<Backtest | null> {
  if (!isBacktestId(id)) return null;
  const params = new SqlParams();
  const conditions = [`b.id = ${params.add(id)}::uuid`, ...scopeConditions(params, scope, "b.")];
  const { rows } = await getPool().query<BacktestRow>(
    `SELECT ${SUMMARY_COLUMNS}, b.candidate, b.baseline, b.result
       FROM backtests b LEFT JOIN users u ON u.id = b.created_by
       ${whereClause(conditions)}`,
    params.values,
  );
  const row = rows[0];
  if (!row) return null;
  const { candidateVersion: _c, baselineVersion: _b, ...summary } = toSummary(row);
  return { ...summary, candidate: row.candidate, baseline: row.baseline, result: row.result };
}

export interface ListBacktestsOptions {
  /** Only this tenant's backtests (still within the scope). */
  tenantId?: string | null | undefined;
  /** Most rows returned, newest first. Default 50. */
  limit?: number;
  /** Rows skipped first (a later page). Default 0. */
  offset?: number;
}

function listConditions(
  params: SqlParams,
  scope: TenantScope,
  tenantId: string | null | undefined,
): string[] {
  const conditions = scopeConditions(params, scope, "b.");
  if (tenantId) conditions.push(`b.tenant_id = ${params.add(tenantId)}`);
  return conditions;
}

/** The backtests of the scope's tenants, newest first, without configs or results. */
export async function listBacktests(
  scope: TenantScope,
  options: ListBacktestsOptions = {},
): Promise<BacktestSummary[]> {
  const params = new SqlParams();
  const conditions = listConditions(params, scope, options.tenantId);
  const limit = Math.max(1, Math.min(options.limit ?? 50, 500));
  const offset = Math.max(0, Math.floor(options.offset ?? 0));
  const { rows } = await getPool().query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS}
       FROM backtests b LEFT JOIN users u ON u.id = b.created_by
       ${whereClause(conditions)}
      ORDER BY b.created_at DESC, b.id DESC
      LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`,
    params.values,
  );
  return rows.map(toSummary);
}

/** How many backtests `listBacktests` pages through for the same scope and tenant. */
export async function countBacktests(
  scope: TenantScope,
  tenantId: string | null | undefined,
): Promise<number> {
  const params = new SqlParams();
  const conditions = listConditions(params, scope, tenantId);
  const { rows } = await getPool().query<{ n: number }>(
    `SELECT count(*)::int AS n FROM backtests b ${whereClause(conditions)}`,
    params.values,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Asks for a backtest to stop. A queued one is cancelled at once; a running one becomes
 * `cancelling` and the job stops before its next chunk (keeping the chunks it committed). A
 * finished one is left as it is. Returns the state afterwards, or null when the backtest is
 * absent or outside `scope`.
 */
export async function requestBacktestCancel(
  id: string,
  scope: TenantScope,
): Promise<BacktestState | null> {
  if (!isBacktestId(id)) return null;
  const params = new SqlParams();
  const conditions = [`id = ${params.add(id)}::uuid`, ...scopeConditions(params, scope)];
  const { rows } = await getPool().query<{ state: BacktestState }>(
    `UPDATE backtests
        SET state = CASE state WHEN 'queued' THEN 'cancelled' WHEN 'running' THEN 'cancelling' ELSE state END,
            finished_at = CASE state WHEN 'queued' THEN now() ELSE finished_at END,
            updated_at = now()
      ${whereClause(conditions)}
      RETURNING state`,
    params.values,
  );
  return rows[0]?.state ?? null;
}
