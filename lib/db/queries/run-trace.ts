/**
 * One run's decisions and outcomes, read by `decisions_tenant_id_run_id_iteration_idx` and
 * `outcomes_tenant_id_run_id_iteration_idx`: a page of iterations at a time, so a run with
 * thousands of iterations costs no more than one with fifty.
 */
import "server-only";
import type { DecisionExportRow } from "@/lib/dashboard/csv-columns";
import { DECISION_HAS_ISSUES, ISSUE_KINDS, type IssueFlags } from "@/lib/dashboard/issue-kinds";
import type {
  CallSpanRecord,
  DecisionRecord,
  OutcomeRecord,
  ToolRunRecord,
} from "@/lib/dashboard/types";
import { getPool } from "@/lib/db/client";
import { expandTrace } from "@/lib/db/stored-trace";
import { DECISIONS_WITH_OUTCOMES } from "@/lib/ingest/decision-outcomes";
import { droppedTools } from "@/lib/ingest/events";
import { offeredOf } from "@/lib/ingest/palettes";

export interface RunDecisionsPage {
  offset: number;
  limit: number;
  /** Only iterations with a warning, a stage error or a harmful drop. */
  issuesOnly?: boolean;
}

/**
 * A decision as read: `selected` is null for a decision that selected exactly its offered list
 * (`selectedIsOffered`), and read as that list — resolved here rather than in SQL, where it would
 * look the palette up a second time for each such row.
 */
type RawDecision = Omit<DecisionRecord, "ts" | "dropped" | "selected"> & {
  ts: Date;
  selected: string[] | null;
};

/** The columns of a `DecisionRecord`. */
const DECISION_COLUMNS = `id, iteration, ts, role, mode, turn_hop_index AS "turnHopIndex", model, agent,
  forced_choice AS "forcedChoice", config_version AS "configVersion", intent,
  ${offeredOf("decisions")} AS offered, selected,
  dropped_tokens AS "droppedTokens",
  reinstatements, empty_palette_warnings AS "emptyPaletteWarnings",
  stage_errors AS "stageErrors", trace, warnings, has_outcome AS "hasOutcome", called,
  harmful_tools AS "harmfulTools"`;

/**
 * What both readings of a decision (the run page, the CSV) make of a row as read: its id as a
 * number, its time as ISO 8601, its selected list (the offered one where NULL) and the tools
 * it dropped.
 */
function resolveDecision<
  Row extends { id: number; ts: Date; offered: string[]; selected: string[] | null },
>(row: Row): Omit<Row, "ts" | "selected"> & { ts: string; selected: string[]; dropped: string[] } {
  const selected = row.selected ?? row.offered;
  return {
    ...row,
    id: Number(row.id),
    ts: row.ts.toISOString(),
    selected,
    dropped: droppedTools(row.offered, selected),
  };
}

function toDecisionRecord(row: RawDecision): DecisionRecord {
  return { ...resolveDecision(row), trace: expandTrace(row.trace, row.offered) };
}

/** A page of the run's decisions in iteration order. */
export async function listRunDecisions(
  tenantId: string,
  runId: string,
  page: RunDecisionsPage,
): Promise<DecisionRecord[]> {
  const { rows } = await getPool().query<RawDecision>(
    `SELECT ${DECISION_COLUMNS}
       FROM ${DECISIONS_WITH_OUTCOMES} AS decisions
      WHERE tenant_id = $1 AND run_id = $2 ${page.issuesOnly ? `AND ${DECISION_HAS_ISSUES}` : ""}
      ORDER BY iteration, ts, id
     OFFSET $3 LIMIT $4`,
    [tenantId, runId, page.offset, page.limit],
  );
  return rows.map(toDecisionRecord);
}

/** The run's decision at `iteration` (the first stored, should it have been sent twice). */
export async function getRunDecision(
  tenantId: string,
  runId: string,
  iteration: number,
): Promise<DecisionRecord | null> {
  const { rows } = await getPool().query<RawDecision>(
    `SELECT ${DECISION_COLUMNS}
       FROM ${DECISIONS_WITH_OUTCOMES} AS decisions
      WHERE tenant_id = $1 AND run_id = $2 AND iteration = $3
      ORDER BY ts, id
      LIMIT 1`,
    [tenantId, runId, iteration],
  );
  const row = rows[0];
  return row ? toDecisionRecord(row) : null;
}

/** How many of the run's decisions have an issue. */
export async function countRunDecisionsWithIssues(
  tenantId: string,
  runId: string,
): Promise<number> {
  const { rows } = await getPool().query<{ count: number }>(
    `SELECT count(*) AS count FROM ${DECISIONS_WITH_OUTCOMES} AS decisions
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
               FROM ${DECISIONS_WITH_OUTCOMES} AS decisions
              WHERE tenant_id = $1 AND run_id = $2) d
      WHERE ${ISSUE_FLAG_NAMES.join(" OR ")}
      ORDER BY position
      LIMIT $3`,
    [tenantId, runId, limit],
  );
  return rows;
}

type RawCallSpan = Omit<CallSpanRecord, "startNs"> & { startNs: string };
type RawToolRun = Omit<ToolRunRecord, "startNs" | "endNs"> & { startNs: string; endNs: string };

export interface PageSpans {
  /** The LLM calls behind the page's decisions, and the run's other calls in their time span. */
  calls: CallSpanRecord[];
  /** The tool runs that may belong to those calls (joined by `joinToolRuns`). */
  toolRuns: ToolRunRecord[];
}

/**
 * The OpenTelemetry spans a page of decisions needs to show its tool runs: the LLM-call spans
 * of the page's decisions derived from spans (event id `otel:<trace>:<span>`, found by the
 * spans' primary key), the run's LLM calls and tool runs from the first of them up to the next
 * call after the last (by `otel_spans_tenant_id_run_id_start_ns_idx`), and tool runs anywhere in
 * the run that name one of their call ids. A page of routed decisions reads nothing more.
 */
export async function listPageSpans(
  tenantId: string,
  runId: string,
  decisionIds: readonly number[],
): Promise<PageSpans> {
  if (decisionIds.length === 0) return { calls: [], toolRuns: [] };
  const pool = getPool();
  const { rows: own } = await pool.query<RawCallSpan>(
    `SELECT d.id::int AS "decisionId", s.trace_id AS "traceId", s.span_id AS "spanId",
            s.start_ns::text AS "startNs", coalesce(s.call_ids, '{}') AS "callIds"
       FROM decisions d
       JOIN otel_spans s ON s.tenant_id = d.tenant_id
                        AND s.trace_id = split_part(d.event_id, ':', 2)
                        AND s.span_id = split_part(d.event_id, ':', 3)
      WHERE d.tenant_id = $1 AND d.id = ANY($2::bigint[]) AND d.event_id LIKE 'otel:%'
        AND s.kind = 'llm_call'`,
    [tenantId, decisionIds],
  );
  if (own.length === 0) return { calls: [], toolRuns: [] };
  const starts = own
    .map((call) => BigInt(call.startNs))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const first = starts[0] as bigint;
  const last = starts.at(-1) as bigint;
  const callIds = own.flatMap((call) => call.callIds);
  const { rows: spans } = await pool.query<RawToolRun & { kind: string; callIds: string[] }>(
    `WITH next_call AS (
       SELECT min(start_ns) AS start_ns FROM otel_spans
        WHERE tenant_id = $1 AND run_id = $2 AND kind = 'llm_call' AND start_ns > $4::bigint
     )
     SELECT kind, trace_id AS "traceId", span_id AS "spanId", start_ns::text AS "startNs",
            end_ns::text AS "endNs", tool, name, call_id AS "callId", error,
            coalesce(call_ids, '{}') AS "callIds"
       FROM otel_spans
      WHERE tenant_id = $1 AND run_id = $2
        AND start_ns >= $3::bigint
        AND start_ns <= coalesce((SELECT start_ns FROM next_call), 9223372036854775807)
     UNION
     SELECT kind, trace_id, span_id, start_ns::text, end_ns::text, tool, name, call_id, error,
            coalesce(call_ids, '{}')
       FROM otel_spans
      WHERE tenant_id = $1 AND run_id = $2 AND kind = 'tool_run' AND call_id = ANY($5::text[])
      ORDER BY 4, 3
      LIMIT 10000`,
    [tenantId, runId, first.toString(), last.toString(), callIds],
  );
  const ownBySpan = new Map(own.map((call) => [`${call.traceId}:${call.spanId}`, call]));
  const calls: CallSpanRecord[] = own.map((call) => ({ ...call, startNs: BigInt(call.startNs) }));
  const toolRuns: ToolRunRecord[] = [];
  for (const span of spans) {
    if (span.kind === "llm_call") {
      if (ownBySpan.has(`${span.traceId}:${span.spanId}`)) continue;
      calls.push({
        decisionId: null,
        traceId: span.traceId,
        spanId: span.spanId,
        startNs: BigInt(span.startNs),
        callIds: span.callIds,
      });
    } else if (span.kind === "tool_run") {
      toolRuns.push({
        traceId: span.traceId,
        spanId: span.spanId,
        startNs: BigInt(span.startNs),
        endNs: BigInt(span.endNs),
        tool: span.tool,
        name: span.name,
        callId: span.callId,
        error: span.error,
      });
    }
  }
  return { calls, toolRuns };
}

/** An export row as read; `selected` as in `RawDecision`. */
type RawExportRow = Omit<DecisionExportRow, "ts" | "dropped" | "selected"> & {
  ts: Date;
  tsKey: string;
  selected: string[] | null;
};

/**
 * Every decision of the run in iteration order (the iterations CSV), `batchSize` at a time and
 * at most `max` in all. Each batch is its own short query that continues after the last row of
 * the one before by the key (iteration, ts, id), so a batch costs the same at any depth and only
 * one batch is held at a time. The key's time travels as text, keeping PostgreSQL's
 * microseconds (a JavaScript date would round them to milliseconds). 100 rows a batch rather
 * than 250: the server's thread reads and writes a batch in one go, and every other request
 * waits behind it; smaller batches halved another tenant's ingest latency under a download
 * load and held the server's memory near 260 MiB instead of 420 (docs/RELIABILITY.md). The
 * tool lists travel as JSON, which the driver reads with `JSON.parse`: its reader of PostgreSQL's
 * array text, written in JavaScript, was an eighth of the server's time under a download load.
 */
export async function* listRunDecisionsInBatches(
  tenantId: string,
  runId: string,
  { batchSize = 100, max }: { batchSize?: number; max: number },
): AsyncGenerator<DecisionExportRow[]> {
  let after: { iteration: number; ts: string; id: number } | null = null;
  for (let read = 0; read < max; ) {
    const limit = Math.min(batchSize, max - read);
    const { rows }: { rows: RawExportRow[] } = await getPool().query<RawExportRow>(
      `SELECT id, iteration, ts, ts::text AS "tsKey", role, mode,
              turn_hop_index AS "turnHopIndex", model, agent, forced_choice AS "forcedChoice",
              config_version AS "configVersion", intent,
              to_json(${offeredOf("decisions")}) AS offered,
              to_json(selected) AS selected,
              dropped_tokens AS "droppedTokens",
              reinstatements, empty_palette_warnings AS "emptyPaletteWarnings",
              stage_errors AS "stageErrors", has_outcome AS "hasOutcome",
              to_json(called) AS called, to_json(harmful_tools) AS "harmfulTools"
         FROM ${DECISIONS_WITH_OUTCOMES} AS decisions
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
    yield rows.map(({ tsKey: _key, ...row }) => resolveDecision(row));
    if (rows.length < limit) return;
  }
}
