/**
 * One run's decisions and outcomes, read by `decisions_tenant_id_run_id_iteration_idx` and
 * `outcomes_tenant_id_run_id_iteration_idx`: a page of iterations at a time, so a run with
 * thousands of iterations costs no more than one with fifty.
 */
import "server-only";
import type { DecisionExportRow } from "@/lib/dashboard/csv-columns";
import { DECISION_HAS_ISSUES, ISSUE_KINDS, type IssueFlags } from "@/lib/dashboard/issue-kinds";
import type { DecisionRecord, OutcomeRecord } from "@/lib/dashboard/types";
import { getPool } from "@/lib/db/client";
import { expandTrace } from "@/lib/db/stored-trace";

export interface RunDecisionsPage {
  offset: number;
  limit: number;
  /** Only iterations with a warning, a stage error or a harmful drop. */
  issuesOnly?: boolean;
}

type RawDecision = Omit<DecisionRecord, "ts"> & { ts: Date };

/** A page of the run's decisions in iteration order. */
export async function listRunDecisions(
  tenantId: string,
  runId: string,
  page: RunDecisionsPage,
): Promise<DecisionRecord[]> {
  const { rows } = await getPool().query<RawDecision>(
    `SELECT id, iteration, ts, role, mode, turn_hop_index AS "turnHopIndex", model, agent,
            forced_choice AS "forcedChoice", config_version AS "configVersion", intent,
            coalesce(offered, '{}') AS offered, coalesce(selected, '{}') AS selected,
            coalesce(dropped, '{}') AS dropped, dropped_tokens AS "droppedTokens",
            reinstatements, empty_palette_warnings AS "emptyPaletteWarnings",
            stage_errors AS "stageErrors", trace, warnings, has_outcome AS "hasOutcome",
            coalesce(called, '{}') AS called, coalesce(harmful_tools, '{}') AS "harmfulTools"
       FROM decisions
      WHERE tenant_id = $1 AND run_id = $2 ${page.issuesOnly ? `AND ${DECISION_HAS_ISSUES}` : ""}
      ORDER BY iteration, ts, id
     OFFSET $3 LIMIT $4`,
    [tenantId, runId, page.offset, page.limit],
  );
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    ts: row.ts.toISOString(),
    trace: expandTrace(row.trace, row.offered),
  }));
}

/** How many of the run's decisions have an issue. */
export async function countRunDecisionsWithIssues(
  tenantId: string,
  runId: string,
): Promise<number> {
  const { rows } = await getPool().query<{ count: number }>(
    `SELECT count(*) AS count FROM decisions
      WHERE tenant_id = $1 AND run_id = $2 AND ${DECISION_HAS_ISSUES}`,
    [tenantId, runId],
  );
  return rows[0]?.count ?? 0;
}

/** How many decisions the run has (the `runs` row keeps the same number). */
export async function countRunDecisions(tenantId: string, runId: string): Promise<number> {
  const { rows } = await getPool().query<{ count: number }>(
    "SELECT count(*) AS count FROM decisions WHERE tenant_id = $1 AND run_id = $2",
    [tenantId, runId],
  );
  return rows[0]?.count ?? 0;
}

type RawOutcome = Omit<OutcomeRecord, "ts"> & { ts: Date };

/** The run's tool-call outcomes for iterations `fromIteration`..`toIteration`. */
export async function listRunOutcomes(
  tenantId: string,
  runId: string,
  fromIteration: number,
  toIteration: number,
): Promise<OutcomeRecord[]> {
  const { rows } = await getPool().query<RawOutcome>(
    `SELECT iteration, ts, role, coalesce(called, '{}') AS called, error, joined
       FROM outcomes
      WHERE tenant_id = $1 AND run_id = $2 AND iteration BETWEEN $3 AND $4
      ORDER BY iteration, ts, id`,
    [tenantId, runId, fromIteration, toIteration],
  );
  return rows.map((row) => ({ ...row, ts: row.ts.toISOString() }));
}

export interface IterationMark extends IssueFlags {
  /** Position of the decision in iteration order (0-based), to find its page. */
  position: number;
  iteration: number;
}

/** `<predicate> AS "<key>"` per issue kind, and the keys, for `listRunIssueMarks`. */
const ISSUE_FLAG_COLUMNS = ISSUE_KINDS.map(
  (kind) => `${kind.decisionPredicate} AS "${kind.key}"`,
).join(", ");
const ISSUE_FLAG_NAMES = ISSUE_KINDS.map((kind) => `"${kind.key}"`);

/** The run's iterations that have an issue, with their position (to link to their page). */
export async function listRunIssueMarks(
  tenantId: string,
  runId: string,
  limit = 200,
): Promise<IterationMark[]> {
  const { rows } = await getPool().query<IterationMark>(
    `SELECT position, iteration, ${ISSUE_FLAG_NAMES.join(", ")}
       FROM (SELECT (row_number() OVER (ORDER BY iteration, ts, id) - 1)::int AS position,
                    iteration, ${ISSUE_FLAG_COLUMNS}
               FROM decisions WHERE tenant_id = $1 AND run_id = $2) d
      WHERE ${ISSUE_FLAG_NAMES.join(" OR ")}
      ORDER BY position
      LIMIT $3`,
    [tenantId, runId, limit],
  );
  return rows;
}

type RawExportRow = Omit<DecisionExportRow, "ts"> & { ts: Date; tsKey: string };

/**
 * Every decision of the run in iteration order (the iterations CSV), `batchSize` at a time and
 * at most `max` in all. Each batch is its own short query that continues after the last row of
 * the one before by the key (iteration, ts, id), so a batch costs the same at any depth and only
 * one batch is held at a time. The key's time travels as text, keeping PostgreSQL's
 * microseconds (a JavaScript date would round them to milliseconds).
 */
export async function* listRunDecisionsInBatches(
  tenantId: string,
  runId: string,
  { batchSize = 250, max }: { batchSize?: number; max: number },
): AsyncGenerator<DecisionExportRow[]> {
  let after: { iteration: number; ts: string; id: number } | null = null;
  for (let read = 0; read < max; ) {
    const limit = Math.min(batchSize, max - read);
    const { rows }: { rows: RawExportRow[] } = await getPool().query<RawExportRow>(
      `SELECT id, iteration, ts, ts::text AS "tsKey", role, mode,
              turn_hop_index AS "turnHopIndex", model, agent, forced_choice AS "forcedChoice",
              config_version AS "configVersion", intent,
              coalesce(offered, '{}') AS offered, coalesce(selected, '{}') AS selected,
              coalesce(dropped, '{}') AS dropped, dropped_tokens AS "droppedTokens",
              reinstatements, empty_palette_warnings AS "emptyPaletteWarnings",
              stage_errors AS "stageErrors", has_outcome AS "hasOutcome",
              coalesce(called, '{}') AS called, coalesce(harmful_tools, '{}') AS "harmfulTools"
         FROM decisions
        WHERE tenant_id = $1 AND run_id = $2
          ${after ? "AND (iteration, ts, id) > ($4, $5::timestamptz, $6)" : ""}
        ORDER BY iteration, ts, id
        LIMIT $3`,
      after
        ? [tenantId, runId, limit, after.iteration, after.ts, after.id]
        : [tenantId, runId, limit],
    );
    const last = rows.at(-1);
    if (!last) return;
    read += rows.length;
    after = { iteration: last.iteration, ts: last.tsKey, id: Number(last.id) };
    yield rows.map(({ tsKey: _key, ...row }) => ({
      ...row,
      id: Number(row.id),
      ts: row.ts.toISOString(),
    }));
    if (rows.length < limit) return;
  }
}
