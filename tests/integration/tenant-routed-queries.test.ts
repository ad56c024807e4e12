/**
 * Every statement that reads or changes one run's raw rows (decisions, outcomes,
 * decision_outcomes, otel_spans) names its tenant, so that on a database distributed by
 * tenant_id (docs/SCALE-OUT.md) it is routed to the one shard holding that tenant.
 *
 * The code under test runs for real against PostgreSQL — ingest, the OTLP store, the run trace
 * and its CSV download, the backtest's reads — while every statement it sends through `pg` is
 * recorded (the recorder passes each call on unchanged). Each recorded statement that touches a
 * raw table is then given to PostgreSQL's planner (EXPLAIN with the same parameter values) and
 * every scan of a raw table in its plan must carry `tenant_id = <value>`: the condition
 * PostgreSQL applies to that table itself, after it has carried equalities across joins, which
 * is also what a distributed planner prunes shards by. Reading the plan rather than the SQL
 * text means a join, a LATERAL probe or a CTE cannot hide a scan that is not bound to a tenant.
 *
 * Ingest is the one documented exception to "one tenant per statement": a group commit writes
 * the events of several requests, possibly of several tenants, in one transaction, so its
 * statements bind each raw-table scan to the tenant of a key (`tenant_id = k.tenant_id`) rather
 * than to one value. They are held to that weaker rule here, by name, and SCALE-OUT.md says
 * what they cost on a distributed database.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readDecisions, readRecordedDecision } from "@/lib/db/queries/backtest-job";
import {
  countRunDecisions,
  countRunDecisionsWithIssues,
  getRunDecision,
  listPageSpans,
  listRunDecisions,
  listRunDecisionsInBatches,
  listRunIssueMarks,
  listRunOutcomes,
} from "@/lib/db/queries/run-trace";
import { toDecisionRow, toOutcomeRow } from "@/lib/ingest/events";
import { type StoreInput, storeEvents } from "@/lib/ingest/store";
import { storeSpans } from "@/lib/otlp/store";
import type { OtlpSpan } from "@/lib/otlp/types";
import { decisionEvent, outcomeFor } from "@/lib/telemetry/events";
import { aiSdkCall, aiSdkToolRun, spanId, traceId } from "../support/otel-spans";
import {
  inFunctionCall,
  type PlanNode,
  partitionRoots,
  queryFunctions,
  splitOutsideLiterals,
} from "../support/plans";
import { startRecording, stopRecording } from "../support/statement-recorder";
import { deleteTenantRows } from "../support/tenant-rows";

const RAW_TABLES = ["decisions", "outcomes", "decision_outcomes", "otel_spans"] as const;
const RAW = new Set<string>(RAW_TABLES);
/** A statement that names a raw table as a relation (not a column such as `r.outcomes`). */
const READS_RAW =
  /\b(?:FROM|JOIN|UPDATE|INTO)\s+(?:ONLY\s+)?(?:decisions|outcomes|decision_outcomes|otel_spans)\b/i;

const suffix = Date.now().toString(36);
const TENANT = `routed-${suffix}`;
const OTHER = `routed-other-${suffix}`;
const T0 = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;
const TOOLS = ["search_orders", "refund_order", "create_ticket"];

type Phase = "ingest" | "otlp" | "read";
interface Recorded {
  phase: Phase;
  text: string;
  values: unknown[];
}

const recorded: Recorded[] = [];
let phase: Phase | null = null;

async function during<T>(p: Phase, work: () => Promise<T>): Promise<T> {
  phase = p;
  try {
    return await work();
  } finally {
    phase = null;
  }
}

interface RawScan {
  /** The raw table scanned: the partitioned table when the plan scans one of its partitions. */
  relation: string;
  alias: string;
  nodeType: string;
  conditions: string[];
}

const CONDITION_KEYS = ["Index Cond", "Recheck Cond", "Filter", "TID Cond", "Join Filter"];

/** The root of each relation's partition tree, by name (a table that is not one: itself). */
const rootOf = new Map<string, string>();

async function learnRoots(names: string[]): Promise<void> {
  const unknown = names.filter((name) => !rootOf.has(name));
  if (unknown.length === 0) return;
  for (const [name, root] of await partitionRoots(db, unknown)) rootOf.set(name, root);
}

/** Every relation a plan scans. */
function scannedRelations(node: PlanNode, out: string[] = []): string[] {
  const relation = node["Relation Name"];
  if (relation) out.push(relation);
  for (const child of node.Plans ?? []) scannedRelations(child, out);
  return out;
}

/** Every scan of a raw table (or of a partition of one) in a plan, with its conditions. */
function rawScans(node: PlanNode, out: RawScan[] = []): RawScan[] {
  const name = node["Relation Name"];
  const relation = name === undefined ? undefined : (rootOf.get(name) ?? name);
  if (relation && RAW.has(relation) && node["Node Type"] !== "ModifyTable") {
    const conditions: string[] = [];
    const collect = (n: PlanNode) => {
      for (const key of CONDITION_KEYS) {
        const value = n[key];
        if (typeof value === "string") conditions.push(value);
      }
    };
    collect(node);
    // A bitmap heap scan's index conditions sit on its bitmap index scan children.
    for (const child of node.Plans ?? []) {
      if (child["Node Type"].startsWith("Bitmap")) collect(child);
    }
    out.push({
      relation,
      alias: node.Alias ?? name ?? relation,
      nodeType: node["Node Type"],
      conditions,
    });
  }
  for (const child of node.Plans ?? []) rawScans(child, out);
  return out;
}

/** `tenant_id = 'acme'` or `tenant_id = $1`: the scan reads one tenant. */
const ONE_TENANT = /\btenant_id\)?(?:::[a-z ]+)?\s*=\s*(?:\$\d+|'(?:[^']|'')*')/;
/**
 * `tenant_id = k.tenant_id`, or the same written the other way round (`k.tenant_id =
 * (tenant_id)::text`, as PostgreSQL prints some sequential scans of small partitions): the scan
 * reads the tenant of each key it is probed with.
 */
const KEYED_TENANT =
  /\btenant_id\)?(?:::[a-z ]+)?\s*=\s*\(?\w+\.tenant_id\b|\b\w+\.tenant_id\s*=\s*\(?tenant_id\b/;

const boundToOneTenant = (scan: RawScan) => scan.conditions.some((c) => ONE_TENANT.test(c));

/** Bound to a key's tenant, on the scan itself or by the join that feeds it its keys. */
function boundToKeyTenant(scan: RawScan, joins: string[]): boolean {
  if (boundToOneTenant(scan) || scan.conditions.some((c) => KEYED_TENANT.test(c))) return true;
  // The scans of a partitioned table's partitions are aliased `d_1`, `d_2`, …, and the join
  // above their Append names `d` or another `d_<n>`.
  const alias = `${scan.alias.replace(/_\d+$/, "")}(?:_\\d+)?`;
  const own = new RegExp(
    `\\b${alias}\\.tenant_id\\)?(?:::[a-z ]+)?\\s*=\\s*\\(?\\w+\\.tenant_id\\b|` +
      `\\b\\w+\\.tenant_id\\)?(?:::[a-z ]+)?\\s*=\\s*\\(?${alias}\\.tenant_id\\b`,
  );
  return joins.some((c) => own.test(c));
}

const JOIN_KEYS = ["Hash Cond", "Merge Cond", "Join Filter"];

/** Every join condition of a plan. */
function joinConditions(node: PlanNode, out: string[] = []): string[] {
  for (const key of JOIN_KEYS) {
    const value = node[key];
    if (typeof value === "string") out.push(value);
  }
  for (const child of node.Plans ?? []) joinConditions(child, out);
  return out;
}

interface Explained {
  statement: Recorded;
  scans: RawScan[];
  joins: string[];
}

let db: pg.Client;
let explained: Explained[] = [];

/** The statements of `recorded` that touch a raw table, each with its plan's raw scans. */
async function explainRecorded(): Promise<Explained[]> {
  const result: Explained[] = [];
  const seen = new Set<string>();
  const joinFunctions = await queryFunctions(db);
  for (const statement of recorded) {
    // A simple query of several statements (no parameters) is planned one statement at a time,
    // and a call of one of ingest's join functions as the statement inside, for its arguments.
    const texts =
      statement.values.length > 0
        ? [statement.text]
        : splitOutsideLiterals(statement.text, ";").filter((part) => part.trim().length > 0);
    for (const part of texts) {
      const text = inFunctionCall(part, joinFunctions)?.withArguments.trim() ?? part.trim();
      // COPY carries no condition: each row goes to the shard of its own tenant_id.
      if (!READS_RAW.test(text) || /^COPY\b/i.test(text)) continue;
      const key = `${statement.phase}\u0000${text}\u0000${JSON.stringify(statement.values)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const explain = await db.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
        `EXPLAIN (FORMAT JSON) ${text}`,
        statement.values,
      );
      const plan = explain.rows?.[0]?.["QUERY PLAN"]?.[0]?.Plan;
      if (!plan) throw new Error(`no single plan for: ${text}`);
      await learnRoots(scannedRelations(plan));
      result.push({
        statement: { ...statement, text },
        scans: rawScans(plan),
        joins: joinConditions(plan),
      });
    }
  }
  return result;
}

function describeStatement({ statement, scans, joins }: Explained): string {
  const unbound = scans
    .map((s) => `${s.nodeType} on ${s.relation}: ${s.conditions.join(" | ") || "(no condition)"}`)
    .join("\n    ");
  const joined = joins.length > 0 ? `\n    joins: ${joins.join(" | ")}` : "";
  return `[${statement.phase}] ${statement.text.replace(/\s+/g, " ").slice(0, 400)}\n    ${unbound}${joined}`;
}

/** A run of `TENANT` sent as decisions and outcomes (v1 ingest), with issues to mark. */
const ingestRun = `ingest-run-${suffix}`;

async function ingest(): Promise<void> {
  const items: StoreInput[] = [];
  for (let i = 0; i < 12; i++) {
    const decision = decisionEvent({
      event_id: `d-${suffix}-${i}`,
      run_id: ingestRun,
      iteration: i,
      timestamp: new Date(T0 + i * 1000).toISOString(),
      offered: TOOLS,
      selected: TOOLS.slice(0, 2),
      dropped_tokens: 40,
      warnings: i % 4 === 0 ? [{ code: "empty_palette", stage: "intent" }] : [],
    });
    items.push({ kind: "decision", row: toDecisionRow(TENANT, decision) });
    // The same run id under another tenant: a statement bound to the run alone would read it.
    items.push({
      kind: "decision",
      row: toDecisionRow(OTHER, { ...decision, event_id: `o-${decision.event_id}` }),
    });
    const outcome = outcomeFor(decision, i % 3 === 0 ? ["create_ticket"] : ["search_orders"], {
      event_id: `oc-${suffix}-${i}`,
      timestamp: new Date(T0 + i * 1000 + 300).toISOString(),
    });
    // Half the outcomes arrive before their decision, half after, in separate transactions.
    if (i % 2 === 0)
      await storeEvents(TENANT, [{ kind: "outcome", row: toOutcomeRow(TENANT, outcome) }]);
    else items.push({ kind: "outcome", row: toOutcomeRow(TENANT, outcome) });
  }
  await storeEvents(TENANT, items);
}

const otlpTrace = traceId(`routed-${suffix}`);
const otlpRun = `session-${suffix}`;

/**
 * An OTLP run whose tool runs arrive before their LLM calls (stored under the trace id, then
 * adopted by the session's run) and whose calls arrive in reverse order (the stored call's
 * iteration moves), so every statement of the store runs.
 */
async function exportSpans(): Promise<void> {
  const common = { traceId: otlpTrace, tools: TOOLS, functionId: "support-agent" };
  const calls = [0, 1, 2].map((n) =>
    aiSdkCall({
      ...common,
      sessionId: otlpRun,
      spanId: spanId(10 + n),
      startMs: T0 + n * 1000,
      calls: n < 2 ? [{ id: `call-${n}`, name: TOOLS[n] as string }] : [],
    }),
  );
  const toolRuns = [0, 1].map((n) =>
    aiSdkToolRun({
      traceId: otlpTrace,
      spanId: spanId(20 + n),
      startMs: T0 + n * 1000 + 500,
      tool: TOOLS[n] as string,
      callId: `call-${n}`,
    }),
  );
  const check = (result: { rejectedSpans: number }) => expect(result.rejectedSpans).toBe(0);
  check(await storeSpans(TENANT, toolRuns));
  check(await storeSpans(TENANT, [calls[2] as OtlpSpan]));
  check(await storeSpans(TENANT, [calls[1] as OtlpSpan, calls[0] as OtlpSpan]));
  // The same export again: everything is found stored.
  check(await storeSpans(TENANT, [...calls, ...toolRuns] as OtlpSpan[]));
}

/** What the run trace page, its CSV download and the backtest read of one run. */
async function readRuns(): Promise<void> {
  for (const run of [ingestRun, otlpRun]) {
    const page = await listRunDecisions(TENANT, run, { offset: 0, limit: 50 });
    expect(page.length).toBeGreaterThan(0);
    await listRunDecisions(TENANT, run, { offset: 0, limit: 50, issuesOnly: true });
    await getRunDecision(TENANT, run, 1);
    await countRunDecisions(TENANT, run);
    await countRunDecisionsWithIssues(TENANT, run);
    await listRunOutcomes(TENANT, run, 0, 50);
    await listRunIssueMarks(TENANT, run);
    await listPageSpans(
      TENANT,
      run,
      page.map((d) => d.id),
    );
    let rows = 0;
    for await (const batch of listRunDecisionsInBatches(TENANT, run, { batchSize: 2, max: 100 })) {
      rows += batch.length;
    }
    expect(rows).toBe(page.length);
    await readRecordedDecision(TENANT, run, 0);
  }
  const window = { tenantId: TENANT, roles: [], from: new Date(T0), to: new Date(T0 + 60_000) };
  const first = await readDecisions(window, null, 5);
  const last = first.at(-1);
  if (last) await readDecisions({ ...window, roles: ["action"] }, { ts: last.ts, id: last.id }, 5);
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
  startRecording((statement) => {
    if (phase !== null) recorded.push({ phase, ...statement });
  });
  try {
    await during("ingest", ingest);
    await during("otlp", exportSpans);
    await during("read", readRuns);
  } finally {
    stopRecording();
  }
  explained = await explainRecorded();
});

afterAll(async () => {
  stopRecording();
  for (const t of [TENANT, OTHER]) {
    for (const table of ["otel_spans", "tool_sizes", "otel_call_rollup_hour"]) {
      await db.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [t]);
    }
    await deleteTenantRows(db, t);
  }
  await db.end();
});

describe("statements that read one run's raw rows", () => {
  it("ran the code under test: each raw table is read by each phase that reads it", () => {
    const read = (p: Phase) =>
      new Set(explained.filter((e) => e.statement.phase === p).flatMap((e) => e.scans));
    const tablesOf = (p: Phase) => [...new Set([...read(p)].map((s) => s.relation))].sort();
    expect(tablesOf("read")).toEqual([...RAW_TABLES].sort());
    // The OTLP store and ingest write outcome rows (`decision_outcomes`); ingest also reads them.
    expect(tablesOf("otlp")).toEqual(["decisions", "otel_spans", "outcomes"]);
    expect(tablesOf("ingest")).toEqual(["decision_outcomes", "decisions", "outcomes"]);
    // Every run-trace and backtest read above sends at least one statement.
    expect(explained.filter((e) => e.statement.phase === "read").length).toBeGreaterThanOrEqual(10);
  });

  it("the run trace, its download, the backtest and the OTLP store bind every raw scan to one tenant", () => {
    const unbound = explained
      .filter((e) => e.statement.phase !== "ingest")
      .filter((e) => e.scans.some((scan) => !boundToOneTenant(scan)));
    expect(unbound.map(describeStatement)).toEqual([]);
  });

  it("ingest binds every raw scan to the tenant of the key it probes (a group may hold several tenants)", () => {
    const unbound = explained
      .filter((e) => e.statement.phase === "ingest")
      .filter((e) => e.scans.some((scan) => !boundToKeyTenant(scan, e.joins)));
    expect(unbound.map(describeStatement)).toEqual([]);
  });

  it("reads nothing of the other tenant that shares the run id", async () => {
    const decisions = await listRunDecisions(TENANT, ingestRun, { offset: 0, limit: 100 });
    expect(decisions).toHaveLength(12);
    expect(await countRunDecisions(OTHER, ingestRun)).toBe(12);
  });
});

/**
 * The modules whose SQL reads or changes raw rows. A new module that does must be run above
 * (or listed with its reason), so the check cannot silently miss it.
 */
const EXERCISED = [
  "lib/db/queries/backtest-job.ts",
  "lib/db/queries/run-trace.ts",
  // SQL fragments, run by the run trace, the backtest's reads and ingest above.
  "lib/ingest/decision-outcomes.ts",
  "lib/otlp/store.ts",
];
/**
 * Modules that read raw rows across tenants or over a time window, not one run's rows. (SQL
 * that names its table through TENANT_TABLES, as retention and the demo reset do, is not found
 * by this search: it deletes by time or by tenant, never by run.)
 */
const NOT_PER_RUN: Record<string, string> = {
  "lib/db/queries/rollouts.ts":
    "harmful-drop examples: decisions of one hour across the viewer's tenants",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

describe("modules with SQL on raw tables", () => {
  it("are all exercised above, or listed as reading across runs", () => {
    const root = process.cwd();
    // A raw table named in the SQL, or read through the decisions with their outcomes.
    const sql = new RegExp(`${READS_RAW.source}|\\bDECISIONS_WITH_OUTCOMES\\b`, "i");
    const found = ["lib", "app"]
      .flatMap((dir) => sourceFiles(path.join(root, dir)))
      .filter((file) => sql.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(root, file))
      .sort();
    expect(found.filter((file) => !EXERCISED.includes(file) && !(file in NOT_PER_RUN))).toEqual([]);
    expect(EXERCISED.filter((file) => !found.includes(file))).toEqual([]);
  });

  it("and every database function with SQL on raw tables is one query, planned above as the statement inside", async () => {
    const { rows } = await db.query<{ name: string; source: string }>(
      `SELECT proname AS name, prosrc AS source FROM pg_proc
        WHERE pronamespace = 'public'::regnamespace ORDER BY proname`,
    );
    const reading = rows.filter((row) => READS_RAW.test(row.source)).map((row) => row.name);
    expect(reading).toEqual(["routelens_join_outcomes", "routelens_waiting_joins"]);
    const planned = await queryFunctions(db);
    expect(reading.filter((name) => !planned.has(name))).toEqual([]);
  });
});
