/**
 * Demo data for `npm run dev`: when the database has no decisions yet, create the demo tenants
 * (is_demo = true) with a key each, and load a week of demo traffic.
 *
 * The traffic is written straight through the ingest store (`storeEvents` with the rows
 * `toDecisionRow` / `toOutcomeRow` build): the same validation, rows, joins and rollups as
 * `POST /api/ingest`, minus HTTP. It does not wait for `next dev` to compile the ingest route,
 * and skips JSON and gzip on both sides, so the week loads in about a minute. It runs in a
 * child process, beside `next dev` rather than in its way, newest runs first so the dashboard's
 * recent ranges fill within seconds.
 *
 * The support tenant also has an agent that routes nothing (`lib/demo/unrouted.ts`): its
 * OpenTelemetry spans are stored through OpenTelemetry ingest's storage (`storeSpans`), so the
 * demo has mode-off decisions, tool runs and a context tax to show.
 *
 * The keys are written to .data/demo-keys.json so `npm run simulate -- --live` can keep the
 * demo tenants busy over HTTP afterwards.
 *
 * The demo tenants' routing configs are stored too (`demo-configs.ts`), with the time each took
 * effect. A database whose demo was loaded before configs were stored gets them at the next
 * start (the same child process with `--configs`), placed in the week before its tenants were
 * created; tenants that already have configs are left alone.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { TENANT_SCOPED_TABLES, TENANT_TABLES } from "@/lib/db/tenant-tables";
import { DEMO_PROFILES } from "@/lib/demo/profiles";
import { DEFAULT_KEYS_FILE } from "@/lib/demo/simulate-options";
import { DemoTraffic } from "@/lib/demo/traffic";
import { UNROUTED_DEMO_TENANT, unroutedDemoRuns } from "@/lib/demo/unrouted";
import { openPaletteDeletion } from "@/lib/ingest/palettes";
import type { OtlpSpan } from "@/lib/otlp/types";
import { eventSchema } from "@/lib/schemas/events";
import { parseCommandLine } from "./command-line";

const WEEK_MS = 7 * 86_400_000;
const EVENTS_PER_STORE = 1_000;
const STORES_IN_FLIGHT = 3;
/** Whose writes these are, for the store's lanes: the demo's tenants, loaded as one sender. */
const SENDER = "demo loader";

export interface DemoLoader {
  /** Resolves when loading has finished (or failed; the failure is logged). */
  done: Promise<void>;
  stop(): void;
}

/** True when the database holds no decisions at all. */
export async function hasNoDecisions(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ empty: boolean }>(
      "SELECT NOT EXISTS (SELECT 1 FROM decisions) AS empty",
    );
    return rows[0]?.empty === true;
  } finally {
    await client.end();
  }
}

/**
 * Starts loading the demo in a child process when the database has no decisions; otherwise the
 * child only stores the demo configs the database is missing. Progress lines go through `log`.
 */
export async function startDemoLoader(
  databaseUrl: string,
  log: (line: string) => void,
): Promise<DemoLoader> {
  const empty = await hasNoDecisions(databaseUrl);
  if (empty) {
    log(
      "empty database: loading a week of demo traffic in the background (ROUTELENS_DEMO=0 turns this off)",
    );
  }
  // On a database that already has its demo, the child only stores missing demo configs.
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), empty ? "--load" : "--configs"],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  const done = new Promise<void>((resolve) => {
    child.once("exit", (code, signal) => {
      if (code !== 0 && signal === null)
        log(`demo loading failed (exit code ${code}); the app works without it`);
      resolve();
    });
    child.once("error", (error) => {
      log(`demo loading could not start: ${error.message}`);
      resolve();
    });
  });
  return {
    done,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    },
  };
}

/** Creates the demo tenants and their keys, and writes the keys file. */
async function createDemoKeys(log: (line: string) => void): Promise<void> {
  const { createApiKey } = await import("@/lib/keys");
  const keys: Record<string, string> = {};
  for (const profile of DEMO_PROFILES) {
    const created = await createApiKey(profile.tenantId, { label: "demo", isDemo: true });
    keys[created.tenantId] = created.key;
  }
  mkdirSync(path.dirname(DEFAULT_KEYS_FILE), { recursive: true });
  writeFileSync(
    DEFAULT_KEYS_FILE,
    `${JSON.stringify({ note: "API keys of the demo tenants (npm run demo:reset revokes them)", keys }, null, 2)}\n`,
    { mode: 0o600 },
  );
  log(
    `demo tenants ${Object.keys(keys).join(", ")} created; their keys are in ${DEFAULT_KEYS_FILE}`,
  );
}

/** Loads `span` of demo history ending at `now` through the ingest store. */
export async function loadDemoTraffic({
  now = Date.now(),
  span = WEEK_MS,
  seed,
  log,
}: {
  now?: number;
  span?: number;
  seed?: number;
  log: (line: string) => void;
}): Promise<{ decisions: number; events: number; seconds: number }> {
  const { storeEvents } = await import("@/lib/ingest/store");
  const { toDecisionRow, toOutcomeRow } = await import("@/lib/ingest/events");
  type StoreInput = Parameters<typeof storeEvents>[1][number];

  const story = { from: new Date(now - span), to: new Date(now) };
  const traffic = new DemoTraffic({ profiles: DEMO_PROFILES, story, seed });
  const plans = traffic.plan(story.from, story.to).reverse();
  const started = performance.now();
  const inFlight = new Set<Promise<unknown>>();
  let pending: StoreInput[] = [];
  let decisions = 0;
  let events = 0;
  let reportedDay = false;

  const flush = async () => {
    if (pending.length === 0) return;
    const items = pending;
    pending = [];
    const stored = storeEvents(SENDER, items).then(() => {
      inFlight.delete(stored);
    });
    inFlight.add(stored);
    if (inFlight.size >= STORES_IN_FLIGHT) await Promise.race(inFlight);
  };

  for (const plan of plans) {
    const run = await traffic.simulate(plan, { notAfter: now });
    for (const raw of run.events) {
      const event = eventSchema.parse(raw);
      pending.push(
        event.type === "tool_routing_decision"
          ? { kind: "decision", row: toDecisionRow(run.tenantId, event) }
          : { kind: "outcome", row: toOutcomeRow(run.tenantId, event) },
      );
    }
    decisions += run.decisions;
    events += run.events.length;
    if (pending.length >= EVENTS_PER_STORE) await flush();
    if (!reportedDay && plan.start < now - 86_400_000) {
      reportedDay = true;
      await flush();
      await Promise.all(inFlight);
      log(
        `demo: the last 24 hours are loaded (${decisions.toLocaleString("en-US")} decisions); loading the rest of the week`,
      );
    }
  }
  await flush();
  await Promise.all(inFlight);
  return { decisions, events, seconds: (performance.now() - started) / 1000 };
}

/** Spans per `storeSpans` call of the unrouted demo agent (whole runs, about one export). */
const SPANS_PER_STORE = 500;

/**
 * Loads `span` of the unrouted demo agent's spans ending at `now` through OpenTelemetry
 * ingest's storage, newest runs first. Returns how many LLM calls were stored.
 */
export async function loadUnroutedDemo({
  now = Date.now(),
  span = WEEK_MS,
  seed,
  log,
}: {
  now?: number;
  span?: number;
  seed?: number;
  log: (line: string) => void;
}): Promise<number> {
  const { storeSpans } = await import("@/lib/otlp/store");
  // Runs last a few seconds: the newest starts a minute before `now`, so every span has ended.
  const runs = unroutedDemoRuns(now - span, now - 60_000, seed ?? 7).reverse();
  let batch: OtlpSpan[] = [];
  let calls = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const result = await storeSpans(UNROUTED_DEMO_TENANT, batch);
    if (result.rejectedSpans > 0) {
      log(`demo: ${result.rejectedSpans} unrouted demo spans refused: ${result.errorMessage}`);
    }
    batch = [];
  };
  for (const run of runs) {
    batch.push(...run);
    calls += run.filter((s) => s.attributes["gen_ai.operation.name"] === "chat").length;
    if (batch.length >= SPANS_PER_STORE) await flush();
  }
  await flush();
  return calls;
}

/** Stores the demo tenants' configs that are missing; logs what it stored. */
async function storeDemoConfigs(
  log: (line: string) => void,
  storyEnd: (tenantCreatedAt: Date) => Date,
): Promise<void> {
  const { seedDemoConfigs } = await import("./demo-configs");
  const stored = await seedDemoConfigs(process.env.DATABASE_URL ?? "", storyEnd);
  const lines = Object.entries(stored).map(([tenant, count]) => `${tenant} (${count})`);
  if (lines.length > 0) log(`demo: routing configs stored for ${lines.join(", ")}`);
}

/** The child process: keys, configs, then the week of traffic. */
async function runLoader(): Promise<void> {
  const log = (line: string) => console.log(`[routelens] ${line}`);
  await createDemoKeys(log);
  const now = Date.now();
  await storeDemoConfigs(log, () => new Date(now));
  const { decisions, seconds } = await loadDemoTraffic({ now, log });
  const calls = await loadUnroutedDemo({ log });
  log(
    `demo: ${calls.toLocaleString("en-US")} LLM calls of an agent that routes nothing (${UNROUTED_DEMO_TENANT}, mode off) stored from OpenTelemetry spans`,
  );
  log(
    `demo: ${decisions.toLocaleString("en-US")} decisions loaded in ${seconds.toFixed(0)} s; \`npm run simulate -- --live\` keeps the demo tenants busy, \`npm run demo:reset\` removes them`,
  );
  const { getPool } = await import("@/lib/db/client");
  await getPool().end();
}

/** The child process on a database that has its demo: the demo configs it is missing. */
async function runConfigsOnly(): Promise<void> {
  const log = (line: string) => console.log(`[routelens] ${line}`);
  await storeDemoConfigs(log, (createdAt) => createdAt);
  const { getPool } = await import("@/lib/db/client");
  await getPool().end();
}

/**
 * Run as `node --import tsx scripts/lib/demo-loader.ts --load` (or `--configs`) by
 * `startDemoLoader`.
 */
function loaderTask(): "load" | "configs" | null {
  if (process.argv[1] !== fileURLToPath(import.meta.url)) return null;
  const { values } = parseCommandLine(
    { load: { type: "boolean" }, configs: { type: "boolean" } },
    "usage: node --import tsx scripts/lib/demo-loader.ts --load | --configs",
  );
  return values.load === true ? "load" : values.configs === true ? "configs" : null;
}

const task = loaderTask();
if (task !== null) {
  process.on("SIGTERM", () => process.exit(0));
  (task === "load" ? runLoader() : runConfigsOnly()).catch((error: unknown) => {
    console.error(
      `[routelens] demo loading failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
}

export interface DemoResetResult {
  tenants: string[];
  decisions: number;
  outcomes: number;
  runs: number;
  rollupRows: number;
  keys: number;
}

/**
 * Deletes every demo tenant (is_demo = true) and all its rows — decisions, outcomes, runs,
 * rollups, tool rollups, keys — in one transaction. Other tenants are untouched.
 */
export async function deleteDemoData(pool: pg.Pool): Promise<DemoResetResult> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ id: string }>(
      "SELECT id FROM tenants WHERE is_demo ORDER BY id FOR UPDATE",
    );
    const tenants = rows.map((row) => row.id);
    const remove = async (table: string) =>
      (await client.query(`DELETE FROM ${table} WHERE tenant_id = ANY($1::text[])`, [tenants]))
        .rowCount ?? 0;
    const removed = new Map<string, number>();
    // Their tool lists go too: servers running now must forget them (lib/ingest/palettes.ts).
    await openPaletteDeletion(client);
    for (const table of TENANT_SCOPED_TABLES) removed.set(table, await remove(table));
    const count = (table: string) => removed.get(table) ?? 0;
    const decisions = count("decisions");
    const outcomes = count("outcomes");
    const runs = count("runs");
    const rollupRows = TENANT_TABLES.filter((t) => t.kind === "rollup").reduce(
      (sum, t) => sum + count(t.name),
      0,
    );
    const keys = count("api_keys");
    await client.query("DELETE FROM tenants WHERE id = ANY($1::text[])", [tenants]);
    await client.query("COMMIT");
    return { tenants, decisions, outcomes, runs, rollupRows, keys };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
