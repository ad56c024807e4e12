/**
 * Storing the spans of one OTLP export (SPEC §8): the LLM-call and tool-run spans themselves
 * (`otel_spans`), the decision and outcome derived from every LLM call that carried a tool list,
 * each tool's size estimate (`tool_sizes`), the count of LLM calls without a tool list
 * (`otel_call_rollup_hour`) and the rollups — in one transaction, committed before the export is
 * answered.
 *
 * Idempotency: a span is stored once per (tenant, trace id, span id) — the spans already stored
 * are looked up under the trace's lock and only the others are copied — and everything derived
 * from it is derived only when it is stored, so a re-export stores nothing new. Decision ids are `otel:<traceId>:<spanId>`, outcome ids the same plus
 * `:called`.
 *
 * Order independence: within a run, LLM calls are numbered by (start time, span id). The
 * transaction takes an advisory lock per (tenant, run) and per (tenant, trace) it touches, in
 * sorted order, then ranks all stored LLM-call spans of every run that got a new one, moves the
 * iteration of the already-stored derived decisions and outcomes whose rank changed (and the
 * run's max iteration), and inserts the new ones at their rank. So the spans of one run arriving
 * in several exports, in any order, leave the same rows.
 */
import type pg from "pg";
import { getPool } from "@/lib/db/client";
import { sqlArrayLiteral, sqlLiteral } from "@/lib/db/sql-literal";
import { isUnavailable } from "@/lib/db/unavailable";
import {
  copyNullable,
  copyText,
  copyTextArray,
  JOINED_OUTCOME_COLUMNS,
  joinedOutcomeLine,
  NUMBERED_DECISION_COLUMNS,
  numberedDecisionLine,
} from "@/lib/ingest/copy";
import { insertDecisionOutcomesSql, outcomeRowsOf } from "@/lib/ingest/decision-outcomes";
import { insertEventIds } from "@/lib/ingest/event-ids";
import {
  type DecisionRow,
  harmfulTools,
  type OutcomeRow,
  toDecisionRow,
  toOutcomeRow,
} from "@/lib/ingest/events";
import {
  type LearnedPalettes,
  NOTHING_LEARNED,
  PALETTE_GATE,
  paletteEpochOf,
  rememberPalettes,
  resolvePalettes,
} from "@/lib/ingest/palettes";
import { jsonLiteral, writeAggregatesAndCommit } from "@/lib/ingest/rollup-upserts";
import {
  aggregateDeltas,
  type JoinedDecision,
  joinedDecision,
  truncateUtc,
} from "@/lib/ingest/rollups";
import { copyRows } from "@/lib/ingest/store-transaction";
import { latestOf, type ToolSizeSighting, upsertToolSizesSql } from "@/lib/ingest/tool-sizes";
import { isRefusal, withWriteRetry } from "@/lib/ingest/write-retry";
import { compareSpans } from "./join-tool-runs";
import { type Mapped, MappedExport, type MappedSpans, spanKey } from "./mapped-export";
import { decisionEventId, type MappedLlmCall, outcomeEventId } from "./mapping";
import type { OtlpSpan, SpanStoreResult } from "./types";

/**
 * Stores one export's mapped spans for `tenant` (`MappedExport`, `mapExport`); a span that
 * cannot be stored is refused while its neighbours are stored. Throws `DatabaseUnavailable` when
 * PostgreSQL cannot be reached (the endpoint answers 503).
 */
export async function storeMappedSpans(
  tenant: string,
  mapped: MappedSpans,
): Promise<SpanStoreResult> {
  let { rejectedSpans, errorMessage } = mapped;
  if (mapped.spans.length > 0) {
    for (const message of await writeRefusingAlone(tenant, mapped.spans)) {
      rejectedSpans += 1;
      if (errorMessage === "") errorMessage = message;
    }
  }
  return { rejectedSpans, errorMessage };
}

/** Maps and stores one export's spans for `tenant` (`MappedExport`, `storeMappedSpans`). */
export function storeSpans(tenant: string, spans: Iterable<OtlpSpan>): Promise<SpanStoreResult> {
  const mapped = new MappedExport();
  for (const span of spans) mapped.add(span);
  return storeMappedSpans(tenant, mapped.result());
}

/**
 * Writes `spans` in one transaction; if PostgreSQL refuses the data, each span alone, so that
 * only the spans it refuses on their own are lost. Answers one message per refused span.
 */
async function writeRefusingAlone(tenant: string, spans: Mapped[]): Promise<string[]> {
  try {
    await writeWithRetry(tenant, spans);
    return [];
  } catch (error) {
    if (!isRefusal(error)) throw error;
    if (spans.length === 1) return [refusalMessage(spans[0] as Mapped, error)];
  }
  const messages: string[] = [];
  for (const span of spans) {
    try {
      await writeWithRetry(tenant, [span]);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      messages.push(refusalMessage(span, error));
    }
  }
  return messages;
}

function refusalMessage(span: Mapped, error: unknown): string {
  const { message } = error as { message: string };
  return `span ${span.spanId} (${span.name}): the database refused to store it (${message})`;
}

/**
 * One export's spans in one transaction, retried on a conflict. The first attempt does not
 * look up derived event ids already stored (see deriveEvents): the unique index refuses one,
 * and the retry looks them up.
 */
function writeWithRetry(tenant: string, spans: Mapped[]): Promise<void> {
  return withWriteRetry((attempt) => writeTransaction(tenant, spans, attempt > 1));
}

async function writeTransaction(
  tenant: string,
  spans: Mapped[],
  lookUpStoredEvents: boolean,
): Promise<void> {
  const client = await getPool().connect();
  let palettes: LearnedPalettes = NOTHING_LEARNED;
  try {
    const { epoch, stored } = await beginWithLocks(client, tenant, spans);
    const toolRunRuns = await resolveToolRunRuns(client, tenant, spans);
    const fresh = await insertSpans(client, tenant, spans, stored, toolRunRuns);
    const freshCalls = spans.filter(
      (s): s is MappedLlmCall => s.kind === "llm_call" && fresh.has(spanKey(s)),
    );
    if (freshCalls.length > 0) {
      await adoptToolRuns(client, tenant, freshCalls);
      const ranks = await rankRuns(client, tenant, freshCalls);
      const { decisions, outcomes, joined } = await deriveEvents(
        client,
        tenant,
        freshCalls,
        ranks,
        lookUpStoredEvents,
      );
      const ids = await insertEventIds(client, [...decisions, ...outcomes], decisions.length);
      const numbered = decisions.map((row, i) => ({ id: ids[i] as string, row }));
      palettes = await resolvePalettes(client, decisions, epoch);
      await copyRows(
        client,
        `COPY decisions (${NUMBERED_DECISION_COLUMNS.join(", ")}) FROM STDIN`,
        numbered,
        numberedDecisionLine,
      );
      await copyRows(
        client,
        `COPY outcomes (${JOINED_OUTCOME_COLUMNS.join(", ")}) FROM STDIN`,
        outcomes,
        joinedOutcomeLine,
      );
      await writeAggregatesAndCommit(client, aggregateDeltas(decisions, [...joined.values()]), [
        insertDecisionOutcomesSql(outcomeRowsOf(numbered, joined)),
        upsertToolSizesSql(latestOf(toolSizeSightings(tenant, freshCalls))),
        callsWithoutToolsSql(tenant, freshCalls),
      ]);
    } else {
      await client.query("COMMIT");
    }
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    client.release(isUnavailable(error) ? (error as Error) : undefined);
    throw error;
  }
  client.release();
  rememberPalettes(palettes);
}

/**
 * Opens the transaction and looks up the export's spans already stored, in two round trips.
 * The first is a simple query (so the keys are written into its text as literals escaped by
 * the driver; trace and span ids are hex, checked by the mapping):
 *
 * - one transaction-scoped advisory lock per (tenant, run) of the LLM calls and per (tenant,
 *   trace) of every span, in sorted order: two exports of one run never rank it at once, and a
 *   tool run never misses the LLM call that gives it its run;
 * - the palette gate (lib/ingest/palettes.ts), answering its deletion count;
 * - generic plans for the transaction's statements with parameters (`plan_cache_mode`). Their
 *   tenant is a parameter kept as a constant, which under Citus routes each to one shard
 *   (tests/integration/tenant-routed-queries.test.ts). Planned for its value, a tenant missing
 *   from a partition's statistics — taken before its rows arrived — looks like one row, and
 *   PostgreSQL then reads a trace's or run's rows by scanning all the tenant's rows through an
 *   index on `tenant_id` alone, for every probe. A generic plan weighs the tenant as an
 *   average one and probes by the whole key (tests/integration/ingest-lookups.test.ts).
 *
 * The second is the look-up (`STORED_SPANS_SQL`), made exact by the trace locks (the primary
 * key is the backstop: a unique violation is retried). It has a statement of its own so that
 * its tenant is a parameter and its plan generic: written into the simple query as a literal,
 * the tenant was planned for its value, and a benchmark whose tenant arrived after the spans
 * table was analysed stored 700 instead of 4,300 LLM-call spans a second, PostgreSQL walking
 * the tenant's spans for each of an export's 1,000 probes (docs/PERFORMANCE.md).
 */
async function beginWithLocks(
  client: pg.PoolClient,
  tenant: string,
  spans: Mapped[],
): Promise<{ epoch: string; stored: Set<string> }> {
  // Run ids and trace ids share one key space: a run without a conversation id is its trace,
  // so it takes one lock, not two; a run id equal to another run's trace id only serialises
  // the two.
  const keys = new Set<string>();
  for (const span of spans) {
    keys.add(span.traceId);
    if (span.kind === "llm_call") keys.add(span.runId);
  }
  const tenantLiteral = sqlLiteral(tenant);
  // A simple query of several statements answers one result per statement.
  const results = (await client.query(
    `BEGIN;
     SET LOCAL plan_cache_mode = force_generic_plan;
     SELECT pg_advisory_xact_lock(k)
       FROM (SELECT DISTINCT hashtextextended(${tenantLiteral} || chr(1) || u, 8317) AS k
               FROM unnest(${sqlArrayLiteral([...keys])}::text[]) AS u ORDER BY k) AS keys;
     ${PALETTE_GATE};`,
  )) as unknown as pg.QueryResult[];
  const lookUp = await client.query<{ trace_id: string; span_id: string }>(STORED_SPANS_SQL, [
    tenant,
    spans.map((s) => s.traceId),
    spans.map((s) => s.spanId),
  ]);
  return {
    epoch: paletteEpochOf(results),
    stored: new Set(lookUp.rows.map((row) => `${row.trace_id}:${row.span_id}`)),
  };
}

/**
 * The run of every tool run without a conversation or session id of its own: the run of an LLM
 * call of the same trace (in this export, else already stored), else the trace id. When the
 * LLM call arrives later, `adoptToolRuns` moves such a tool run to its run.
 */
async function resolveToolRunRuns(
  client: pg.PoolClient,
  tenant: string,
  spans: Mapped[],
): Promise<Map<string, string>> {
  const byTrace = new Map<string, string>();
  for (const span of [...spans].sort(compareSpans)) {
    if (span.kind === "llm_call" && !byTrace.has(span.traceId)) {
      byTrace.set(span.traceId, span.runId);
    }
  }
  const missing = [
    ...new Set(
      spans
        .filter((s) => s.kind === "tool_run" && s.runId === null && !byTrace.has(s.traceId))
        .map((s) => s.traceId),
    ),
  ];
  if (missing.length > 0) {
    const { rows } = await client.query<{ trace_id: string; run_id: string }>(
      // Per-trace LATERAL probes of the primary key, as in STORED_SPANS_SQL.
      `SELECT t.trace_id, first.run_id
         FROM unnest($2::text[]) AS t(trace_id),
              LATERAL (SELECT o.run_id FROM otel_spans o
                        WHERE o.tenant_id = $1 AND o.trace_id = t.trace_id AND o.kind = 'llm_call'
                        ORDER BY o.start_ns, o.span_id LIMIT 1) AS first`,
      [tenant, missing],
    );
    for (const row of rows) byTrace.set(row.trace_id, row.run_id);
  }
  return byTrace;
}

/**
 * The spans of an export already stored: $1 tenant, $2 trace ids, $3 span ids. Per-key LATERAL
 * probes of the primary key, whatever the statistics say: a young or fast-growing otel_spans
 * looks small to the planner, which otherwise hashes every span of the tenant for each export.
 */
export const STORED_SPANS_SQL = `SELECT k.trace_id, k.span_id
   FROM unnest($2::text[], $3::text[]) AS k(trace_id, span_id),
        LATERAL (SELECT 1 FROM otel_spans o
                  WHERE o.tenant_id = $1 AND o.trace_id = k.trace_id AND o.span_id = k.span_id
                  LIMIT 1) AS found`;

/**
 * Every stored LLM-call span of the runs $2 of tenant $1, ranked within its run. Per-run
 * LATERAL probes of (tenant_id, run_id, start_ns), for the reason above: with `run_id = ANY(…)`
 * such a planner filters all the tenant's spans instead.
 */
export const RANK_RUNS_SQL = `SELECT s.run_id, s.trace_id, s.span_id, s.start_ns::text,
        (row_number() OVER (PARTITION BY s.run_id ORDER BY s.start_ns, s.span_id, s.trace_id) - 1)::int
          AS iteration
   FROM unnest($2::text[]) AS r(run_id),
        LATERAL (SELECT o.run_id, o.trace_id, o.span_id, o.start_ns FROM otel_spans o
                  WHERE o.tenant_id = $1 AND o.run_id = r.run_id AND o.kind = 'llm_call'
                 OFFSET 0) AS s`;

/** Inserts the spans not `stored` yet (keys from `beginWithLocks`); answers their keys. */
async function insertSpans(
  client: pg.PoolClient,
  tenant: string,
  spans: Mapped[],
  stored: Set<string>,
  runsByTrace: Map<string, string>,
): Promise<Set<string>> {
  const fresh = spans.filter((s) => !stored.has(spanKey(s)));
  if (fresh.length === 0) return new Set();
  const runOf = (s: Mapped) =>
    s.kind === "llm_call" ? s.runId : (s.runId ?? runsByTrace.get(s.traceId) ?? s.traceId);
  await copyRows(client, `COPY otel_spans (${SPAN_COLUMNS.join(", ")}) FROM STDIN`, fresh, (span) =>
    spanLine(tenant, span, runOf(span)),
  );
  return new Set(fresh.map(spanKey));
}

const SPAN_COLUMNS = [
  "tenant_id",
  "trace_id",
  "span_id",
  "run_id",
  "kind",
  "name",
  "start_ns",
  "end_ns",
  "ts",
  "tool",
  "call_id",
  "call_ids",
  "error",
] as const;

/** One span's COPY line, columns in the order of SPAN_COLUMNS. */
function spanLine(tenant: string, s: Mapped, run: string): string {
  const tool = s.kind === "tool_run" ? copyNullable(s.tool) : "\\N";
  const callId = s.kind === "tool_run" ? copyNullable(s.callId) : "\\N";
  const callIds = s.kind === "llm_call" ? copyTextArray(s.callIds) : "{}";
  const error = s.kind === "tool_run" ? copyNullable(s.error) : "\\N";
  return (
    `${copyText(tenant)}\t${s.traceId}\t${s.spanId}\t${copyText(run)}\t${s.kind}\t` +
    `${copyText(s.name)}\t${s.startNs}\t${s.endNs}\t${s.timestamp}\t${tool}\t${callId}\t` +
    `${callIds}\t${error}\n`
  );
}

/**
 * Moves the tool runs of tenant $1 stored under their trace id to the run $3 of their trace $2.
 * The rows are found by per-trace LATERAL probes (as in STORED_SPANS_SQL) and updated by their
 * ctid: a join on the trace ids could read every span of the tenant, and this runs for every
 * export of runs with a conversation or session id. The trace locks keep the rows found.
 * The updated rows are also bound to the tenant and its traces (`tenant_id = $1 AND trace_id =
 * ANY($2)`): on a database distributed by tenant the statement then goes to the tenant's shard
 * alone (a ctid means something only within one shard; docs/SCALE-OUT.md), and the primary key
 * probed with both conditions is never costlier than a scan of the tenant's spans, so the
 * planner cannot pick the latter.
 */
export const ADOPT_TOOL_RUNS_SQL = `UPDATE otel_spans s SET run_id = u.run_id
   FROM unnest($2::text[], $3::text[]) AS u(trace_id, run_id)
  WHERE s.tenant_id = $1 AND s.trace_id = ANY($2::text[])
    AND s.ctid = ANY(ARRAY(
          SELECT o.ctid FROM unnest($2::text[]) AS t(trace_id),
                 LATERAL (SELECT o.ctid FROM otel_spans o
                           WHERE o.tenant_id = $1 AND o.trace_id = t.trace_id
                             AND o.kind = 'tool_run' AND o.run_id = o.trace_id
                          OFFSET 0) AS o))
    AND s.trace_id = u.trace_id`;

/** Tool runs stored before their trace's first LLM call, under the trace id: now under its run. */
async function adoptToolRuns(
  client: pg.PoolClient,
  tenant: string,
  calls: MappedLlmCall[],
): Promise<void> {
  const byTrace = new Map<string, string>();
  for (const call of [...calls].sort(compareSpans)) {
    if (call.runId !== call.traceId && !byTrace.has(call.traceId)) {
      byTrace.set(call.traceId, call.runId);
    }
  }
  if (byTrace.size === 0) return;
  await client.query(ADOPT_TOOL_RUNS_SQL, [tenant, [...byTrace.keys()], [...byTrace.values()]]);
}

/**
 * Raises the max iteration of tenant $1's runs $2 to the highest of their decisions, each run's
 * read by a LATERAL probe of the run index (its last entry in each week's partition). Written
 * as one scan of the tenant's decisions for the list of runs, PostgreSQL walked all the
 * tenant's rows of a week's partition that had no statistics yet (its first minute).
 */
export const RAISE_MAX_ITERATION_SQL = `UPDATE runs r SET max_iteration = m.max_iteration
       FROM unnest($2::text[]) AS u(run_id),
            LATERAL (SELECT max(d.iteration) AS max_iteration FROM decisions d
                      WHERE d.tenant_id = $1 AND d.run_id = u.run_id) AS m
      WHERE r.tenant_id = $1 AND r.run_id = u.run_id AND r.max_iteration < m.max_iteration`;

/**
 * Moves tenant $1's derived decisions $2 (event ids) and their outcomes to the iterations $3
 * of their runs $4, where those changed; answers the runs of the decisions moved. Found through
 * their run (the raw tables are partitioned by time, and their indexes lead with the run),
 * whatever the partition.
 */
export const RENUMBER_ITERATIONS_SQL = `WITH r AS (SELECT * FROM unnest($2::text[], $3::int[], $4::text[]) AS r(event_id, iteration, run_id)),
     d AS (
       UPDATE decisions d SET iteration = r.iteration FROM r
        WHERE d.tenant_id = $1 AND d.run_id = r.run_id AND d.event_id = r.event_id
          AND d.iteration <> r.iteration
       RETURNING d.run_id),
     o AS (
       UPDATE outcomes o SET iteration = r.iteration FROM r
        WHERE o.tenant_id = $1 AND o.run_id = r.run_id AND o.event_id = r.event_id || ':called'
          AND o.iteration <> r.iteration)
     SELECT DISTINCT run_id FROM d`;

/**
 * Ranks every stored LLM-call span of the runs that got a new one, by (start time, span id,
 * trace id); moves the iteration of already-stored derived decisions and outcomes whose rank
 * changed, and the runs' max iteration; answers the rank of every span of those runs.
 */
async function rankRuns(
  client: pg.PoolClient,
  tenant: string,
  calls: MappedLlmCall[],
): Promise<Map<string, number>> {
  const runs = [...new Set(calls.map((c) => c.runId))].sort();
  const { rows } = await client.query<{
    run_id: string;
    trace_id: string;
    span_id: string;
    start_ns: string;
    iteration: number;
  }>(RANK_RUNS_SQL, [tenant, runs]);
  const ranks = new Map<string, number>();
  for (const row of rows) ranks.set(`${row.trace_id}:${row.span_id}`, row.iteration);

  // Only spans stored before this export, ordered after one of its new spans, can have moved.
  const fresh = new Set(calls.map(spanKey));
  const firstFresh = new Map<string, MappedLlmCall>();
  for (const call of calls) {
    const first = firstFresh.get(call.runId);
    if (!first || compareSpans(call, first) < 0) firstFresh.set(call.runId, call);
  }
  const earlier = rows.filter((row) => {
    if (fresh.has(`${row.trace_id}:${row.span_id}`)) return false;
    const first = firstFresh.get(row.run_id);
    return (
      first !== undefined &&
      compareSpans({ startNs: BigInt(row.start_ns), spanId: row.span_id }, first) >= 0
    );
  });
  if (earlier.length === 0) return ranks;
  const ids = earlier.map((row) => decisionEventId(row.trace_id, row.span_id));
  const iterations = earlier.map((row) => row.iteration);
  const { rows: moved } = await client.query<{ run_id: string }>(RENUMBER_ITERATIONS_SQL, [
    tenant,
    ids,
    iterations,
    earlier.map((row) => row.run_id),
  ]);
  if (moved.length > 0) {
    await client.query(RAISE_MAX_ITERATION_SQL, [tenant, moved.map((row) => row.run_id)]);
  }
  return ranks;
}

/**
 * The decisions (already joined to their outcome when the span recorded its output) and
 * outcomes of the new LLM-call spans, at their rank. An event id already stored (sent earlier
 * under a pruned span, or by a v1 sender) is left out: nothing is stored twice. Such an id is
 * rare (the span it is derived from is new), so it is looked up only when `lookUp` is set: on
 * a first attempt the primary key of event_ids refuses it, the transaction is rolled
 * back, and the retry looks the stored ids up. The look-up costs about 1,000 index probes per
 * export of 500 LLM calls.
 */
async function deriveEvents(
  client: pg.PoolClient,
  tenant: string,
  calls: MappedLlmCall[],
  ranks: Map<string, number>,
  lookUp: boolean,
): Promise<{
  decisions: DecisionRow[];
  outcomes: OutcomeRow[];
  joined: Map<DecisionRow, JoinedDecision>;
}> {
  const withDecision = calls.filter((c) => c.decision !== null);
  const stored = new Set<string>();
  if (lookUp && withDecision.length > 0) {
    const { rows } = await client.query<{ event_id: string }>(
      `SELECT event_id FROM event_ids WHERE tenant_id = $1 AND event_id = ANY($2::text[])`,
      [
        tenant,
        withDecision.flatMap((c) => [
          decisionEventId(c.traceId, c.spanId),
          outcomeEventId(c.traceId, c.spanId),
        ]),
      ],
    );
    for (const row of rows) stored.add(row.event_id);
  }
  const decisions: DecisionRow[] = [];
  const outcomes: OutcomeRow[] = [];
  const joined = new Map<DecisionRow, JoinedDecision>();
  for (const call of withDecision) {
    const derived = call.decision;
    if (derived === null || stored.has(derived.event.event_id)) continue;
    const iteration = ranks.get(spanKey(call)) ?? 0;
    const row: DecisionRow = {
      ...toDecisionRow(tenant, { ...derived.event, iteration }),
      mode: derived.mode,
    };
    const outcome =
      call.outcome && !stored.has(call.outcome.event_id)
        ? toOutcomeRow(tenant, { ...call.outcome, iteration })
        : null;
    decisions.push(row);
    if (outcome === null) continue;
    outcomes.push(outcome);
    const harmful = harmfulTools(outcome.called, row.dropped);
    joined.set(row, joinedDecision(row, outcome.called, harmful));
  }
  return { decisions, outcomes, joined };
}

/**
 * Each offered tool's size estimate, as seen at the latest start of an LLM call offering it
 * with that estimate. The calls offering one remembered list share its `toolSizes` array
 * (`paletteOf`), so the sightings are made once per distinct list at its latest call, not once
 * per tool and call: the same latest sizes `latestOf` would pick from all of them (one
 * list gives a tool one estimate, and time strings of one format order as times).
 */
function* toolSizeSightings(tenant: string, calls: MappedLlmCall[]): Generator<ToolSizeSighting> {
  const latestByList = new Map<MappedLlmCall["toolSizes"], string>();
  for (const call of calls) {
    if (call.toolSizes.length === 0) continue;
    const latest = latestByList.get(call.toolSizes);
    if (latest === undefined || call.timestamp > latest) {
      latestByList.set(call.toolSizes, call.timestamp);
    }
  }
  for (const [sizes, seenAt] of latestByList) {
    for (const { tool, tokens } of sizes) yield { tenant, tool, tokens, seenAt };
  }
}

/**
 * LLM calls without a tool list, per (role, hour): what the "tool recording is off" hint reads.
 * The upsert of their counts, for the transaction's last round trip; null when there are none.
 */
function callsWithoutToolsSql(tenant: string, calls: MappedLlmCall[]): string | null {
  const counts = new Map<
    string,
    { tenant_id: string; role: string; bucket: string; calls: number }
  >();
  for (const call of calls) {
    if (call.decision !== null) continue;
    const bucket = truncateUtc(call.timestamp, 3_600_000);
    const key = `${call.role}\u0000${bucket}`;
    const entry = counts.get(key) ?? { tenant_id: tenant, role: call.role, bucket, calls: 0 };
    entry.calls += 1;
    counts.set(key, entry);
  }
  if (counts.size === 0) return null;
  const rows = [...counts.values()].sort((a, b) =>
    a.role === b.role ? a.bucket.localeCompare(b.bucket) : a.role < b.role ? -1 : 1,
  );
  return `INSERT INTO otel_call_rollup_hour (tenant_id, role, bucket, calls_without_tools)
     SELECT u.tenant_id, u.role, u.bucket, u.calls
       FROM json_to_recordset(${jsonLiteral(rows)})
         AS u(tenant_id text, role text, bucket timestamptz, calls bigint)
     ON CONFLICT (tenant_id, role, bucket) DO UPDATE SET
       calls_without_tools = otel_call_rollup_hour.calls_without_tools + EXCLUDED.calls_without_tools`;
}
