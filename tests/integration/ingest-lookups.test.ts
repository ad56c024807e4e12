/**
 * Ingest's reads probe indexes whatever the planner knows about the tables.
 *
 * Every ingest transaction adds its event ids (skipping those stored) and looks up whether an
 * outcome waits at one of its (tenant, run, iteration) keys, then joins outcomes to decisions. On a
 * table whose statistics are missing or stale — a new database, a table growing faster than
 * autovacuum analyses it — PostgreSQL may choose to read a whole table instead, and every batch
 * then costs time in proportion to everything stored. That happened to the event id look-up:
 * with event_ids unanalysed, each batch of 500 hashed every stored event id. A plan can also
 * read a tenant's rows one by one through the first column of an index, which is as bad for a
 * tenant that owns most of a table: in `bench:ingest` the outcome join's UPDATE found each
 * decision so, on a week's partition analysed before the benchmark's tenant arrived.
 *
 * The statements are the real ones: recorded while `/api/ingest`'s store and the OTLP store
 * write to the test database, then planned (EXPLAIN, not run) as they were when they ran — with
 * the same parameter values, or generically for the OTLP store, whose transactions ask for
 * generic plans — on more databases of the same schema that hold 100,000 event ids, raw rows
 * and spans: never analysed, or analysed before the recorded tenant's rows arrived. Ingest's
 * join look-ups are functions (`routelens_waiting_joins`, `routelens_join_outcomes`), which
 * PostgreSQL plans for their arguments at a connection's first calls and generically after:
 * the statement inside each is planned both ways, with the arguments of the recorded call.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { toDecisionRow, toOutcomeRow } from "@/lib/ingest/events";
import { type StoreInput, storeEvents } from "@/lib/ingest/store";
import {
  ADOPT_TOOL_RUNS_SQL,
  RAISE_MAX_ITERATION_SQL,
  RENUMBER_ITERATIONS_SQL,
  STORED_SPANS_SQL,
  storeSpans,
} from "@/lib/otlp/store";
import type { OtlpSpan } from "@/lib/otlp/types";
import { decisionEvent, outcomeFor } from "@/lib/telemetry/events";
import { aiSdkCall, aiSdkToolRun, spanId, traceId } from "../support/otel-spans";
import {
  inFunctionCall,
  type PlanNode,
  partitionRoots,
  type QueryFunction,
  queryFunctions,
} from "../support/plans";
import {
  type RecordedStatement,
  startRecording,
  stopRecording,
} from "../support/statement-recorder";
import { deleteTenantRows } from "../support/tenant-rows";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const TENANT = `lookups-${Date.now().toString(36)}`;
const T0 = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;
const STORED_ROWS = 100_000;
/** Tables whose every row a batch must never read. */
const LARGE_TABLES = new Set([
  "event_ids",
  "decisions",
  "outcomes",
  "decision_outcomes",
  "otel_spans",
]);
const TOOLS = ["search_orders", "refund_order", "create_ticket"];

const recorded: RecordedStatement[] = [];
/** Ingest's join functions, whose calls are planned as the statement inside. */
let joinFunctions: Map<string, QueryFunction>;
/** How many of `recorded` `/api/ingest`'s store made (the OTLP store's follow). */
let recordedByIngest = 0;

/** 500 decisions of 63 runs, their outcomes half before and half after them. */
async function ingestBatch(): Promise<void> {
  const items: StoreInput[] = [];
  for (let i = 0; i < 500; i++) {
    const decision = decisionEvent({
      event_id: `lookup-${TENANT}-${i}`,
      run_id: `run-${TENANT}-${Math.floor(i / 8)}`,
      iteration: i % 8,
      timestamp: new Date(T0 + i * 1000).toISOString(),
      offered: TOOLS,
      selected: ["search_orders"],
      dropped_tokens: 40,
    });
    const outcome = outcomeFor(decision, ["search_orders"], {
      event_id: `lookup-outcome-${TENANT}-${i}`,
      timestamp: new Date(T0 + i * 1000 + 300).toISOString(),
    });
    if (i % 2 === 0)
      await storeEvents(TENANT, [{ kind: "outcome", row: toOutcomeRow(TENANT, outcome) }]);
    else items.push({ kind: "outcome", row: toOutcomeRow(TENANT, outcome) });
    items.push({ kind: "decision", row: toDecisionRow(TENANT, decision) });
  }
  await storeEvents(TENANT, items);
}

/**
 * An OTLP export of 40 LLM calls whose tool runs arrive first (stored under the trace, then
 * adopted by the run), its calls in reverse order, then the whole export again.
 */
async function exportSpans(): Promise<void> {
  const trace = traceId(`lookups-${TENANT}`);
  const calls = Array.from({ length: 40 }, (_, n) =>
    aiSdkCall({
      traceId: trace,
      tools: TOOLS,
      functionId: "support-agent",
      sessionId: `session-${TENANT}`,
      spanId: spanId(100 + n),
      startMs: T0 + n * 1000,
      calls: [{ id: `call-${n}`, name: TOOLS[n % 3] as string }],
    }),
  );
  const toolRuns = Array.from({ length: 40 }, (_, n) =>
    aiSdkToolRun({
      traceId: trace,
      spanId: spanId(200 + n),
      startMs: T0 + n * 1000 + 500,
      tool: TOOLS[n % 3] as string,
      callId: `call-${n}`,
    }),
  );
  for (const spans of [toolRuns, calls.slice(20), calls.slice(0, 20), [...calls, ...toolRuns]]) {
    const result = await storeSpans(TENANT, spans as OtlpSpan[]);
    expect(result.rejectedSpans).toBe(0);
  }
}

/**
 * Rows of `tenant` in every raw table: `rows` event ids and spans, half as many decisions and
 * outcomes, and an outcome row for every other decision.
 */
async function fillRawTables(client: pg.Client, tenant: string, rows: number): Promise<void> {
  const ts = new Date(T0).toISOString();
  await client.query(
    `INSERT INTO event_ids (tenant_id, event_id, ts)
     SELECT $3, 'e-' || n, $1 FROM generate_series(1, $2::int) AS n`,
    [ts, rows, tenant],
  );
  await client.query(
    `INSERT INTO decisions (tenant_id, event_id, run_id, role, mode, iteration, turn_hop_index,
                            ts, offered_count, selected_count, dropped_count, dropped_tokens,
                            reinstatements, empty_palette_warnings, stage_errors,
                            offered, selected, trace, warnings)
     SELECT $3, 'e-' || n, 'run-' || (n / 8), 'action', 'observe', n % 8, 0,
            $1, 2, 1, 1, 10, 0, 0, 0, '{a,b}', '{a}', '[]', '[]'
       FROM generate_series(1, $2::int) AS n`,
    [ts, rows / 2, tenant],
  );
  await client.query(
    `INSERT INTO decision_outcomes (tenant_id, decision_id, ts, called, harmful_tools)
     SELECT tenant_id, id, ts, '{a}', '{}' FROM decisions WHERE tenant_id = $1 AND id % 2 = 0`,
    [tenant],
  );
  await client.query(
    `INSERT INTO outcomes (tenant_id, event_id, run_id, role, iteration, ts, called, joined)
     SELECT $3, 'o-' || n, 'run-' || (n / 8), 'action', n % 8, $1, '{a}', n % 2 = 0
       FROM generate_series(1, $2::int) AS n`,
    [ts, rows / 2, tenant],
  );
  await client.query(
    `INSERT INTO otel_spans (tenant_id, trace_id, span_id, run_id, kind, name, start_ns, end_ns, ts)
     SELECT $3, lpad(to_hex(n / 10), 32, '0'), lpad(to_hex(n), 16, '0'),
            'run-' || (n / 10), 'llm_call', 'chat', n::bigint * 1000, n::bigint * 1000 + 500, $1
       FROM generate_series(1, $2::int) AS n`,
    [ts, rows, tenant],
  );
}

type Statistics = "none" | "none, few rows" | "before the tenant";

/**
 * A database of the same schema with rows in every raw table and statistics that mislead:
 * none at all, with 100,000 rows (`"none"`) or 20,000 (`"none, few rows"`: a week's partition
 * in its first minute, before autovacuum first analyses it), or statistics taken while the raw
 * tables held 2,000 rows of another tenant, before 100,000 of the recorded statements' tenant
 * arrived (`"before the tenant"`): a tenant's first hours in a week's partition, before
 * autovacuum analyses it again.
 */
async function plannerDatabase(statistics: Statistics): Promise<TestDatabase> {
  const database = await createTestDatabase("lookups");
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c
        WHERE c.relkind = 'r'
          AND (c.relname IN ('event_ids', 'otel_spans') OR c.relname LIKE 'decisions\\_%'
               OR c.relname LIKE 'outcomes\\_%' OR c.relname LIKE 'decision\\_outcomes\\_%')`,
    );
    for (const { name } of rows) {
      await client.query(`ALTER TABLE ${name} SET (autovacuum_enabled = false)`);
    }
    if (statistics === "none") {
      await fillRawTables(client, "stored", STORED_ROWS);
    } else if (statistics === "none, few rows") {
      await fillRawTables(client, "stored", 20_000);
    } else {
      await fillRawTables(client, "stored", 2_000);
      for (const { name } of rows) await client.query(`ANALYZE ${name}`);
      await fillRawTables(client, TENANT, STORED_ROWS);
    }
  } finally {
    await client.end();
  }
  return database;
}

/**
 * Every relation a plan reads through an index on `tenant_id` alone: each row of the tenant in
 * turn, which is no better than reading the table whole for a tenant that owns most of it.
 * With `bitmaps`, bitmap heap scans too (their condition is the recheck condition).
 */
function tenantWideIndexScans(node: PlanNode, bitmaps: boolean, out: PlanNode[] = []): PlanNode[] {
  const condition = node["Index Cond"] ?? (bitmaps ? node["Recheck Cond"] : undefined);
  if (
    node["Relation Name"] &&
    typeof condition === "string" &&
    /^\(\(tenant_id\)::text = [^()]+\)$/.test(condition)
  )
    out.push(node);
  for (const child of node.Plans ?? []) tenantWideIndexScans(child, bitmaps, out);
  return out;
}

/** Every relation a plan reads in full. */
function sequentialScans(node: PlanNode, out: string[] = []): string[] {
  if (node["Node Type"] === "Seq Scan" && node["Relation Name"]) out.push(node["Relation Name"]);
  for (const child of node.Plans ?? []) sequentialScans(child, out);
  return out;
}

interface Planner {
  database: TestDatabase;
  client: pg.Client;
}
const planners = new Map<Statistics, Planner>();
let shared: pg.Client;

beforeAll(async () => {
  startRecording((statement) => recorded.push(statement));
  try {
    await ingestBatch();
    recordedByIngest = recorded.length;
    await exportSpans();
  } finally {
    stopRecording();
  }
  for (const statistics of ["none", "none, few rows", "before the tenant"] as const) {
    const database = await plannerDatabase(statistics);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    planners.set(statistics, { database, client });
  }
  shared = new pg.Client({ connectionString: inject("databaseUrl") });
  await shared.connect();
  joinFunctions = await queryFunctions(shared);
}, 180_000);

afterAll(async () => {
  for (const { database, client } of planners.values()) {
    await client.end();
    await database.drop();
  }
  await deleteTenantRows(shared, TENANT);
  await shared?.end();
});

/** A statement to plan: `generic` when PostgreSQL plans it without its parameters' values. */
interface Planned extends RecordedStatement {
  generic: boolean;
}

/**
 * A recorded statement as the statements it holds: a simple query (no parameters) may be
 * several, each planned as it ran, with its values written in. A call of one of ingest's join
 * functions is the statement inside it, twice: with the call's arguments written in for its
 * parameters, and generically.
 */
function statementsOf(statement: RecordedStatement): Planned[] {
  const generic = plannedGeneric(statement);
  if (statement.values.length > 0) return [{ ...statement, generic }];
  return statement.text.split(/;\s*\n/).flatMap((text): Planned[] => {
    const inside = inFunctionCall(text, joinFunctions);
    if (inside === null) return [{ ...statement, text, generic }];
    return [
      { text: inside.withArguments, values: [], generic: false },
      { text: inside.generic, values: [], generic: true },
    ];
  });
}

/**
 * The recorded statements that read event_ids or a raw table (not COPY, not locks), each
 * statement of a simple query on its own.
 */
function readsOfStoredRows(statements = recorded): Planned[] {
  return statements
    .flatMap(statementsOf)
    .filter(
      (statement) =>
        /^\s*(WITH|SELECT|UPDATE)\b/i.test(statement.text) &&
        /\b(FROM|JOIN|UPDATE)\s+(event_ids|decisions|outcomes|decision_outcomes|otel_spans)\b/i.test(
          statement.text,
        ),
    );
}

/** The relations among `names` that hold at least one row. */
async function holdingRows(client: pg.Client, names: readonly string[]): Promise<Set<string>> {
  const holding = new Set<string>();
  for (const name of new Set(names)) {
    const { rows } = await client.query(`SELECT 1 FROM ONLY ${pg.escapeIdentifier(name)} LIMIT 1`);
    if (rows.length > 0) holding.add(name);
  }
  return holding;
}

/**
 * True for a statement the OTLP store ran with parameters: its transaction asks for generic
 * plans (`plan_cache_mode`, lib/otlp/store.ts), so it is planned as one here too.
 */
const plannedGeneric = (statement: RecordedStatement) =>
  recorded.indexOf(statement) >= recordedByIngest && statement.values.length > 0;

/**
 * Plans (EXPLAIN, not run) every recorded read on `client`'s database as it was planned when it
 * ran; answers one line per statement that reads a raw table or partition that holds rows
 * whole, or reads a tenant's rows of one through an index on `tenant_id` alone (an empty
 * partition may be read any way).
 */
async function badPlans(
  client: pg.Client,
  statements = recorded,
  { bitmaps = false } = {},
): Promise<string[]> {
  const failures: string[] = [];
  for (const statement of readsOfStoredRows(statements)) {
    const { generic } = statement;
    const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
      `EXPLAIN (${generic ? "GENERIC_PLAN, " : ""}FORMAT JSON) ${statement.text}`,
      generic ? [] : statement.values,
    );
    const plan = rows[0]?.["QUERY PLAN"][0]?.Plan;
    expect(plan).toBeDefined();
    const read = sequentialScans(plan as PlanNode);
    const tenantWide = tenantWideIndexScans(plan as PlanNode, bitmaps);
    const relations = tenantWide.map((node) => node["Relation Name"] as string);
    const roots = await partitionRoots(client, [...read, ...relations]);
    const large = (name: string) => LARGE_TABLES.has(roots.get(name) ?? name);
    const filled = await holdingRows(client, [...read, ...relations].filter(large));
    const scanned = read.filter((name) => filled.has(name));
    if (scanned.length > 0) {
      failures.push(`${scanned.join(", ")} read in full by:\n${statement.text.trim()}`);
    }
    const byTenant = tenantWide.filter((node) => filled.has(node["Relation Name"] as string));
    if (byTenant.length > 0) {
      const scans = byTenant.map(
        (node) =>
          `${node["Index Name"] ?? node["Relation Name"]} (${node["Index Cond"] ?? node["Recheck Cond"]})`,
      );
      failures.push(`${scans.join(", ")} read by tenant alone by:\n${statement.text.trim()}`);
    }
  }
  return failures;
}

describe("ingest's reads on tables with misleading statistics", () => {
  it("records the look-up of waiting joins, the outcome join and the OTLP store's reads", () => {
    // (The event id insert reads event_ids only through its ON CONFLICT arbiter, the primary
    // key: a probe whatever the statistics, so it is not among the reads planned here.)
    const texts = readsOfStoredRows().map((statement) => statement.text);
    expect(texts.some((text) => /SELECT 'waiting'[\s\S]*FROM outcomes o/.test(text))).toBe(true);
    expect(texts.some((text) => /UPDATE outcomes o SET joined = true FROM pairs/.test(text))).toBe(
      true,
    );
    expect(texts.some((text) => /\b(FROM|JOIN|UPDATE)\s+otel_spans\b/.test(text))).toBe(true);
    // The OTLP store's statements are planned generically below because it asks for that.
    const byOtlp = recorded.slice(recordedByIngest).map((statement) => statement.text);
    expect(byOtlp.some((text) => /SET LOCAL plan_cache_mode = force_generic_plan/.test(text))).toBe(
      true,
    );
  });

  it("plans every one as index probes on tables never analysed", async () => {
    const { client } = planners.get("none") as Planner;
    const planned = await client.query<{ relname: string; reltuples: number }>(
      `SELECT relname, reltuples FROM pg_class WHERE relname = 'event_ids'`,
    );
    // Never analysed: the planner guesses the table's size from its pages.
    expect(planned.rows[0]?.reltuples).toBe(-1);
    expect(await badPlans(client)).toEqual([]);
  });

  // With few rows and no statistics, PostgreSQL took the outcome join's probe of a run's
  // decisions, written with `iteration = ANY(…)` as an index condition, for a bitmap walk of the
  // tenant's rows through the primary key (docs/PERFORMANCE.md, "2026-12-06, later"), and the
  // OTLP store's raise of a run's max iteration for one through the run index. Two OTLP
  // statements still walk so there and are left out: the updates of rows found by probes (tool
  // runs adopted by their run, a run's iterations renumbered), whose table side cannot be a
  // probe; PostgreSQL hashes the tenant's rows of the partition's first minute instead.
  it("plans every one but those two as index probes on a week partition never analysed that holds few rows", async () => {
    const { client } = planners.get("none, few rows") as Planner;
    const walking = (text: string) =>
      text === ADOPT_TOOL_RUNS_SQL || text === RENUMBER_ITERATIONS_SQL;
    expect(recorded.some((statement) => statement.text === ADOPT_TOOL_RUNS_SQL)).toBe(true);
    const reads = recorded.filter((statement) => !walking(statement.text));
    expect(reads.some((read) => read.text === RAISE_MAX_ITERATION_SQL)).toBe(true);
    expect(reads.some((read) => read.text === STORED_SPANS_SQL)).toBe(true);
    expect(await badPlans(client, reads, { bitmaps: true })).toEqual([]);
  });

  // The OTLP store's reads of a trace's first LLM call and its renumbering of a run's
  // iterations name the tenant as a constant, which keeps them on one shard under Citus
  // (tenant-routed-queries.test.ts); planned for that value on these statistics, PostgreSQL
  // walked an index over all the tenant's rows for each probe. Planned generically, as the
  // store's transaction asks, they probe by the whole key.
  it("plans every one as index probes on tables analysed before the tenant's rows arrived", async () => {
    const { client } = planners.get("before the tenant") as Planner;
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM decisions WHERE tenant_id = $1",
      [TENANT],
    );
    expect(Number(rows[0]?.n)).toBe(STORED_ROWS / 2);
    const reads = readsOfStoredRows().map((read) => read.text);
    expect(reads.some((text) => /UPDATE outcomes o SET joined = true FROM pairs/.test(text))).toBe(
      true,
    );
    expect(reads.some((text) => /first\.run_id/.test(text))).toBe(true);
    expect(reads.includes(RENUMBER_ITERATIONS_SQL)).toBe(true);
    expect(await badPlans(client)).toEqual([]);
  });
});
