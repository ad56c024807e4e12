/**
 * `decision_outcomes`: a decision's outcome once joined, one narrow row per joined decision
 * (tool_call_outcome ↔ tool_routing_decision, on tenant, run and iteration). The decision row
 * itself is written once and never updated: joining an outcome that arrives after its decision
 * adds this row (about 100 bytes) instead of rewriting the decision's kilobyte with an entry in
 * each of its indexes (docs/PERFORMANCE.md, "2026-12-06, later").
 *
 * A row names its decision by the decision's key (tenant_id, id, ts) and is partitioned by the
 * decision's `ts`, in the same weeks as `decisions`. Writers that join a decision to its outcome
 * before the decision is stored (a decision and its outcome in one ingest batch, an
 * OpenTelemetry LLM-call span with its tool calls) need the decision's id first: they take ids
 * from the decisions' sequence (`takeDecisionIdsSql`) and copy the decisions with them.
 *
 * Read decisions with their outcomes from `DECISIONS_WITH_OUTCOMES`.
 */
import type { DecisionRow } from "./events";
import { jsonLiteral } from "./rollup-upserts";
import type { JoinedDecision } from "./rollups";

export interface DecisionOutcomeRow {
  tenant_id: string;
  /** The decision's id (bigint, as text). */
  decision_id: string;
  /** The decision's `ts`. */
  ts: string;
  called: string[];
  harmful_tools: string[];
}

/** A decision with the id taken for it before it is written. */
export interface NumberedDecision {
  id: string;
  row: DecisionRow;
}

/** A statement answering `count` new decision ids (`id`, bigint as text), ascending. */
export const takeDecisionIdsSql = (count: number): string =>
  `SELECT nextval('decisions_id_seq')::text AS id FROM generate_series(1, ${Math.max(0, Math.trunc(count))})`;

/**
 * The statement that stores `rows`, for a transaction's last round trip
 * (`writeAggregatesAndCommit`); null when there are none.
 */
export function insertDecisionOutcomesSql(rows: readonly DecisionOutcomeRow[]): string | null {
  if (rows.length === 0) return null;
  return `INSERT INTO decision_outcomes (tenant_id, decision_id, ts, called, harmful_tools)
     SELECT * FROM json_to_recordset(${jsonLiteral(rows)})
       AS r(tenant_id text, decision_id bigint, ts timestamptz, called text[], harmful_tools text[])`;
}

/**
 * The decisions with their outcome as three more columns — `has_outcome`, `called` and
 * `harmful_tools` (both empty without an outcome) — for reads, written
 * `FROM ${decisionsWithOutcomes()} AS d`. PostgreSQL flattens it into the query, so the query's
 * conditions on the decision pick its rows and each one's outcome is found by its primary key.
 * A read of a whole time range `[from, to)` (SQL expressions) names it here, so that the
 * outcome rows are bounded by it too when PostgreSQL joins the two by hashing: it does not carry
 * a range on `ts` from one side of the join to the other.
 */
export function decisionsWithOutcomes(during?: { from: string; to: string }): string {
  const within = (alias: string) =>
    during ? `${alias}.ts >= ${during.from} AND ${alias}.ts < ${during.to}` : "";
  return `(
       SELECT d.*, j.decision_id IS NOT NULL AS has_outcome,
              coalesce(j.called, '{}') AS called, coalesce(j.harmful_tools, '{}') AS harmful_tools
         FROM decisions d
         LEFT JOIN decision_outcomes j
           ON j.tenant_id = d.tenant_id AND j.decision_id = d.id AND j.ts = d.ts
              ${during ? `AND ${within("j")}` : ""}
        ${during ? `WHERE ${within("d")}` : ""})`;
}

/** `decisionsWithOutcomes()`, for reads by run or by key. */
export const DECISIONS_WITH_OUTCOMES = decisionsWithOutcomes();

/** The outcome rows of the decisions joined before they are stored (`joinedOf`). */
export function outcomeRowsOf(
  decisions: readonly NumberedDecision[],
  joinedOf: Map<DecisionRow, JoinedDecision>,
): DecisionOutcomeRow[] {
  const rows: DecisionOutcomeRow[] = [];
  for (const { id, row } of decisions) {
    const joined = joinedOf.get(row);
    if (joined === undefined) continue;
    rows.push({
      tenant_id: row.tenant_id,
      decision_id: id,
      ts: row.ts,
      called: joined.called,
      harmful_tools: joined.harmful_tools,
    });
  }
  return rows;
}
