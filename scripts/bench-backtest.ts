/**
 * `npm run bench:backtest` — a backtest of 1,000,000 recorded decisions with a six-stage
 * candidate, run by the production server's job (`next start`, ROUTELENS_BACKTESTS=1).
 *
 * Starts a scratch embedded PostgreSQL (data in .data/bench-backtest), loads the decisions
 * straight in SQL (generate_series): one tenant with `--decisions` decisions over 29 days, 40
 * tools, three roles, recorded intent verdicts, lazy-routing selections, forced choices and
 * empty palettes in the stored (compact) trace form, 90% with an outcome; and a second tenant
 * with a fifth as many decisions in the same days, which the job's scan passes over. Then it
 * starts the server, stores a backtest over the whole window (candidate: intent keywords, role
 * palettes, a safety ceiling over a 40-tool catalogue, an always-include tool, with lazy
 * routing and forced choices from the record) and hands it to the job queue.
 *
 * While the job runs it samples the server's resident memory every 250 ms and times dashboard
 * pages one after another (the targets of `npm run bench:dashboard`). Prints the job's time end
 * to end (handed over → done), decisions per second, peak RSS and page latencies.
 *
 *   npm run bench:backtest -- [--decisions 1000000] [--reads 1] [--fresh] [--load-only] [--job-only]
 *
 * A data set loaded by an earlier run (same size, under 6 hours old) is reused unless --fresh;
 * --load-only loads it and stops. --job-only runs the same backtest in this process instead,
 * with no server and no pages, and prints the job's own cost: its time, the CPU seconds of
 * this process and of PostgreSQL, and this process's peak memory (what a change to the job
 * does, without the pages' share of the server's thread). --reads sets the job's reads in
 * flight (ROUTELENS_BACKTEST_READS; 1 unless given).
 */

import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import path from "node:path";
import pg from "pg";
import { PgBoss } from "pg-boss";
import { migrate } from "@/lib/db/migrate";
import { createWeekPartitions } from "@/lib/db/partitions";
import type { StoredStageRecord } from "@/lib/db/stored-trace";
import { DECISIONS_WITH_OUTCOMES } from "@/lib/ingest/decision-outcomes";
import { ensureBuild, startAppServer } from "./lib/app-server";
import { percentile } from "./lib/bench-args";
import { isReusable, markDataSet, takeDataSetLock } from "./lib/bench-data-set";
import {
  INSERT_ROLLUP_DAY,
  INSERT_ROLLUP_HOUR,
  INSERT_ROLLUP_MINUTE,
} from "./lib/bench-rollup-sql";
import { benchAdminCookie } from "./lib/bench-session";
import { parseCommandLine, positiveWholeNumber } from "./lib/command-line";
import { dropDatabase, ensureDatabase, startLocalPostgres } from "./lib/local-postgres";
import { cpuSeconds, isPostgresOf, postmasterOf } from "./lib/process-cpu";

const DATA_DIR = ".data/bench-backtest";
const LOCK_FILE = ".data/bench-backtest.lock";
const DATABASE = "routelens_bench_backtest";
/** Bump when the generated data set changes shape, so old loads are not reused. */
const DATA_VERSION = 3;
const TENANT = "bench-backtest";
const OTHER_TENANT = "bench-neighbour";
const ROLES = ["action", "reasoning", "reflection"];
const TOOL_COUNT = 40;
const WINDOW_DAYS = 29;
const TARGET_SECONDS = 60;
const TARGET_RSS_MIB = 512;
const BACKTEST_QUEUE = "routelens-backtests";

const log = (line: string) => console.log(`[bench:backtest] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const toolName = (i: number) => `tool_${String(i).padStart(2, "0")}`;
const TOOLS = Array.from({ length: TOOL_COUNT }, (_, i) => toolName(i));

/** Positions `from` to `to` (inclusive) in the offered list, as the stored trace names tools. */
const positions = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * The stored trace of shape `v`, as ingest writes it (`compactTrace`, then `JSON.stringify`):
 * `stage` and `action` first, names as positions in `offered`, fields at their default left out.
 */
function shapeTrace(v: number): StoredStageRecord[] {
  const candidates = positions(0, 29);
  return [
    {
      stage: "intent_routing",
      action: v < 15 ? "select" : "abstain",
      kept: candidates,
      dropped: positions(30, 39),
    },
    v % 5 === 0
      ? {
          stage: "lazy_routing",
          action: "select",
          kept: positions(0, 9 + v),
          dropped: positions(10 + v, 29),
          detail: "routing allowed 20 name(s)",
        }
      : {
          stage: "lazy_routing",
          action: "abstain",
          kept: candidates,
          detail: "no routing resolved for this turn",
        },
    v === 7
      ? { stage: "forced_choice", action: "force", kept: candidates, forced_choice: "tool_03" }
      : { stage: "forced_choice", action: "abstain", kept: candidates, detail: "nothing forced" },
    v === 19
      ? {
          stage: "role_palette",
          action: "abstain",
          kept: candidates,
          detail: "empty palette: keeping the candidates",
          degraded: true,
        }
      : {
          stage: "role_palette",
          action: "select",
          kept: positions(0, 8 + v),
          dropped: positions(9 + v, 29),
        },
    { stage: "policy", action: "select", kept: positions(0, 7 + v), detail: "nothing denied" },
    {
      stage: "allowlist",
      action: "select",
      kept: positions(0, 7 + v),
      detail: "nothing to re-add",
    },
  ];
}

const SHAPE_TRACES = Array.from({ length: 20 }, (_, v) => JSON.stringify(shapeTrace(v)));

/**
 * Twenty recorded shapes per role, joined to the generated decisions by `g % 20`: the verdict
 * (12 action with one matched tool, 3 knowledge, 5 ambiguous), lazy routing selecting ten tools
 * in every fifth, a forced tool in one, an empty palette in one; `selected` a prefix of the 40
 * offered tools; the trace (`shapeTrace`) six records.
 */
const CREATE_SHAPES = `
CREATE TEMP TABLE bench_shapes AS
SELECT r AS rn, v,
       CASE WHEN v < 12 THEN jsonb_build_object('label', 'action', 'matched_tool_keywords', jsonb_build_array(format('tool_%s', lpad((10 + v)::text, 2, '0'))))
            WHEN v < 15 THEN jsonb_build_object('label', 'knowledge', 'matched_tool_keywords', '[]'::jsonb)
            ELSE jsonb_build_object('label', 'ambiguous', 'matched_tool_keywords', '[]'::jsonb) END AS intent,
       CASE WHEN v < 12 THEN 'action' WHEN v < 15 THEN 'knowledge' ELSE 'ambiguous' END AS intent_label,
       CASE WHEN v = 7 THEN 'tool_03' END AS forced_choice,
       $1::text[] AS offered,
       ($1::text[])[1:8 + v] AS selected,
       ($1::text[])[9 + v:40] AS dropped,
       ($2::text[])[v + 1]::json AS trace
  FROM generate_series(0, 2) r, generate_series(0, 19) v`;

/**
 * `$1` decisions of tenant `$2` in runs of 8 iterations, evenly over the window ending `$3`;
 * nine in ten with an outcome (`decision_outcomes`) that called one tool, dropped or not.
 */
const INSERT_DECISIONS = `
WITH stored AS (
  INSERT INTO decisions (tenant_id, event_id, run_id, role, mode, iteration, turn_hop_index, ts,
    offered_count, selected_count, dropped_count, dropped_tokens, reinstatements,
    empty_palette_warnings, stage_errors, forced_choice, config_version, agent, intent_label,
    offered, selected, trace, warnings, intent)
  SELECT $2, 'e-' || g, 'run-' || (g / 8), ($4::text[])[1 + (g / 8) % 3], 'observe', g % 8, g % 3,
         $3::timestamptz - interval '${WINDOW_DAYS} days' + (g::float8 / $1) * interval '${WINDOW_DAYS} days',
         40, cardinality(s.selected), cardinality(s.dropped), cardinality(s.dropped) * 23,
         (s.v = 7)::int, (s.v = 19)::int, 0, s.forced_choice, 'cfg-recorded', 'bench-agent',
         s.intent_label, s.offered, s.selected, s.trace,
         CASE WHEN s.v = 19 THEN '[{"code":"empty_palette","stage":"role_palette"}]'::json ELSE '[]'::json END,
         s.intent
    FROM generate_series(0, $1::int - 1) g
    JOIN bench_shapes s ON s.rn = (g / 8) % 3 AND s.v = g % 20
  RETURNING tenant_id, id, ts, substr(event_id, 3)::int AS g
)
INSERT INTO decision_outcomes (tenant_id, decision_id, ts, called, harmful_tools)
SELECT tenant_id, id, ts, ARRAY[c.tool],
       CASE WHEN (g * 7) % 40 >= 8 + g % 20 THEN ARRAY[c.tool] ELSE '{}'::text[] END
  FROM stored, LATERAL (SELECT format('tool_%s', lpad(((g * 7) % 40)::text, 2, '0')) AS tool) c
 WHERE g % 10 <> 9`;

/**
 * Per tool and hour, from one decision in 50 (unnesting 40 tools of every decision would take
 * minutes): enough for the job's per-tool size estimate from recorded drops (23 tokens each).
 */
const INSERT_TOOL_ROLLUP = `
INSERT INTO tool_rollup_hour (tenant_id, role, mode, bucket, tool, offered, selected, dropped,
  called, harmful_drops, dropped_tokens)
SELECT tenant_id, role, mode, date_trunc('hour', ts), x.tool, count(*),
       count(*) FILTER (WHERE x.tool = ANY(selected)), count(*) FILTER (WHERE x.tool <> ALL(selected)),
       count(*) FILTER (WHERE x.tool = ANY(called)), count(*) FILTER (WHERE x.tool = ANY(harmful_tools)),
       coalesce(sum(23) FILTER (WHERE x.tool <> ALL(selected)), 0)
  FROM ${DECISIONS_WITH_OUTCOMES} AS decisions, unnest(offered) x(tool)
 WHERE id % 50 = 0
 GROUP BY 1, 2, 3, 4, 5`;

/** The candidate: all six stages have something to decide. */
function candidateConfig(): unknown {
  const range = (from: number, to: number) => TOOLS.slice(from, to);
  return {
    roleTools: {
      action: range(0, 30),
      reasoning: [...range(0, 20), ...range(30, 35)],
      reflection: range(0, 12),
    },
    alwaysInclude: ["tool_00"],
    triggerKeywords: Object.fromEntries(range(10, 22).map((name) => [name, [`${name}-word`]])),
    policy: { maxSafetyLevel: "write" },
    catalog: TOOLS.map((name, i) => ({
      name,
      description: `Tool number ${i}: does one thing for the agent and reports what it did.`,
      safetyLevel: i % 8 === 7 ? "destructive" : i % 2 === 0 ? "read" : "write",
      category: `category-${i % 5}`,
    })),
  };
}

async function loadDataSet(url: string, decisions: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const timed = async (label: string, sql: string, params: unknown[] = []) => {
    const started = performance.now();
    await client.query(sql, params);
    log(`${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  };
  try {
    await client.query("SET work_mem = '256MB'");
    await client.query("SET synchronous_commit = off");
    const now = new Date();
    await client.query("INSERT INTO tenants (id) VALUES ($1), ($2)", [TENANT, OTHER_TENANT]);
    // The week partitions of the window, as a server running through it would have made.
    await createWeekPartitions(
      client,
      new Date(now.getTime() - (WINDOW_DAYS + 2) * 86_400_000),
      now,
    );
    await timed("built the recorded shapes", CREATE_SHAPES, [TOOLS, SHAPE_TRACES]);
    await timed(
      `inserted ${decisions.toLocaleString("en-US")} decisions of ${TENANT}`,
      INSERT_DECISIONS,
      [decisions, TENANT, now, ROLES],
    );
    const others = Math.ceil(decisions / 5);
    await timed(
      `inserted ${others.toLocaleString("en-US")} decisions of ${OTHER_TENANT}`,
      INSERT_DECISIONS,
      [others, OTHER_TENANT, now, ROLES],
    );
    await timed("filled rollup_minute", INSERT_ROLLUP_MINUTE);
    await timed("filled rollup_hour", INSERT_ROLLUP_HOUR);
    await timed("filled rollup_day", INSERT_ROLLUP_DAY);
    await timed("filled tool_rollup_hour (from 1 decision in 50)", INSERT_TOOL_ROLLUP);
    await timed("vacuum analyze", "VACUUM ANALYZE");
    await markDataSet(client, decisions, DATA_VERSION);
  } finally {
    await client.end();
  }
}

/** Pages timed while the job runs, with the p95 target of `npm run bench:dashboard`. */
const PAGES = [
  { name: "overview, last 24 h", path: "/", targetMs: 300 },
  { name: "runs, first page", path: "/runs", targetMs: 300 },
  { name: "rollouts, last 7 days", path: "/rollouts", targetMs: 500 },
  { name: "tools, last 24 h", path: "/tools", targetMs: 500 },
];

async function timePage(baseUrl: string, cookie: string, path: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${path}`, { headers: { Cookie: cookie } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return performance.now() - started;
}

/** Stores the benchmark's backtest over `window`, queued; answers its id. */
async function storeBacktest(db: pg.Client, window: { from: Date; to: Date }): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO backtests (id, tenant_id, roles, window_from, window_to, candidate,
       candidate_version, threshold_percent, state)
     VALUES ($1, $2, '{}', $3, $4, $5::jsonb, 'cfg-bench', 1, 'queued')`,
    [id, TENANT, window.from, window.to, JSON.stringify(candidateConfig())],
  );
  return id;
}

/** --job-only: the backtest run by the job in this process, and what it cost. */
async function runJobHere(
  url: string,
  db: pg.Client,
  window: { from: Date; to: Date },
  reads: string,
) {
  process.env.DATABASE_URL = url;
  process.env.ROUTELENS_BACKTEST_READS = reads;
  const { runBacktest } = await import("@/lib/backtest/job");
  const { getPool } = await import("@/lib/db/client");
  const id = await storeBacktest(db, window);
  const postgres = isPostgresOf(postmasterOf(path.resolve(DATA_DIR)));
  const postgresBefore = cpuSeconds(postgres);
  const cpuBefore = process.cpuUsage();
  let peakRss = 0;
  let peakHeap = 0;
  const sampler = setInterval(() => {
    const memory = process.memoryUsage();
    peakRss = Math.max(peakRss, memory.rss);
    peakHeap = Math.max(peakHeap, memory.heapUsed);
  }, 100);
  const started = performance.now();
  try {
    const outcome = await runBacktest(id);
    if (outcome !== "done") throw new Error(`the backtest ended ${outcome}`);
  } finally {
    clearInterval(sampler);
    await getPool().end();
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const { rows } = await db.query<{ replayed: number }>(
    "SELECT replayed::float8 AS replayed FROM backtests WHERE id = $1",
    [id],
  );
  const replayed = rows[0]?.replayed ?? 0;
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  console.log(
    `\nthe job alone, in this process: ${replayed.toLocaleString("en-US")} decisions in ${seconds.toFixed(1)} s (${Math.round(replayed / seconds).toLocaleString("en-US")} decisions/s)`,
  );
  console.log(
    `CPU: this process ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, PostgreSQL ${(cpuSeconds(postgres) - postgresBefore).toFixed(1)} s; peak RSS ${mib(peakRss)} MiB, heap used ${mib(peakHeap)} MiB; load average ${loadavg()[0]?.toFixed(2)}`,
  );
}

async function main() {
  const { values } = parseCommandLine(
    {
      decisions: { type: "string" },
      fresh: { type: "boolean" },
      "load-only": { type: "boolean" },
      "job-only": { type: "boolean" },
      reads: { type: "string" },
    },
    "usage: npm run bench:backtest -- [--decisions 1000000] [--reads 1] [--fresh] [--load-only] [--job-only]",
  );
  const decisions = positiveWholeNumber("decisions", values.decisions, 1_000_000);
  const reads = String(positiveWholeNumber("reads", values.reads, 1));
  const releaseLock = takeDataSetLock("bench:backtest", LOCK_FILE, DATA_DIR);
  const server = await startLocalPostgres({
    dataDir: DATA_DIR,
    port: 0,
    log,
    settings: { shared_buffers: "512MB", max_wal_size: "4GB", checkpoint_timeout: "30min" },
  });
  let app: Awaited<ReturnType<typeof startAppServer>> | null = null;
  let boss: PgBoss | null = null;
  const url = server.urlFor(DATABASE);
  const db = new pg.Client({ connectionString: url });
  try {
    if (values.fresh === true || !(await isReusable(url, decisions, DATA_VERSION))) {
      await dropDatabase(server.adminUrl, DATABASE);
      await ensureDatabase(server.adminUrl, DATABASE);
      await migrate(url, { log });
      await loadDataSet(url, decisions);
    } else {
      log("reusing the data set of an earlier run (--fresh to reload)");
    }
    if (values["load-only"] === true) return;
    if (values["job-only"] !== true) ensureBuild(log);
    await db.connect();
    await db.query("DELETE FROM backtests");
    const { rows: bounds } = await db.query<{ from: Date; to: Date }>(
      `SELECT min(ts) AS "from", max(ts) + interval '1 millisecond' AS "to"
         FROM decisions WHERE tenant_id = $1`,
      [TENANT],
    );
    const window = bounds[0];
    if (!window) throw new Error("no decisions loaded");
    if (values["job-only"] === true) {
      await runJobHere(url, db, window, reads);
      return;
    }

    app = await startAppServer({
      databaseUrl: url,
      env: { ROUTELENS_DEMO: "0", ROUTELENS_BACKTESTS: "1", ROUTELENS_BACKTEST_READS: reads },
    });
    const cookie = await benchAdminCookie(url, app.baseUrl);
    log(`next start on ${app.baseUrl}; pages before the job:`);
    const before = new Map<string, number[]>();
    for (const page of PAGES) {
      const times: number[] = [];
      for (let i = 0; i < 8; i++) times.push(await timePage(app.baseUrl, cookie, page.path));
      before.set(page.path, times.slice(3));
    }

    const id = await storeBacktest(db, window);
    boss = new PgBoss({ connectionString: url, schema: "pgboss", max: 2 });
    boss.on("error", () => {});
    await boss.start();
    // The server's worker creates the queue at start; wait for it before handing the job over.
    for (;;) {
      const { rows } = await db
        .query("SELECT 1 FROM pgboss.queue WHERE name = $1", [BACKTEST_QUEUE])
        .catch(() => ({ rows: [] }));
      if (rows.length > 0) break;
      await sleep(200);
    }
    const handedOver = performance.now();
    await boss.send(BACKTEST_QUEUE, { id }, { singletonKey: id });
    log("backtest handed to the job queue; timing pages and sampling RSS while it runs");

    const rssBefore = app.rssBytes() ?? 0;
    let peakRss = rssBefore;
    const rssTimer = setInterval(() => {
      peakRss = Math.max(peakRss, app?.rssBytes() ?? 0);
    }, 250);
    const during = new Map<string, number[]>(PAGES.map((page) => [page.path, []]));
    let state = "queued";
    let replayed = 0;
    let lastReport = performance.now();
    let finished = 0;
    try {
      while (state !== "done" && state !== "failed" && state !== "cancelled") {
        for (const page of PAGES) {
          during.get(page.path)?.push(await timePage(app.baseUrl, cookie, page.path));
        }
        const { rows } = await db.query<{ state: string; replayed: number; error: string | null }>(
          "SELECT state, replayed::float8 AS replayed, error FROM backtests WHERE id = $1",
          [id],
        );
        state = rows[0]?.state ?? "missing";
        replayed = rows[0]?.replayed ?? 0;
        if (rows[0]?.error) log(`job error: ${rows[0].error}`);
        if (performance.now() - lastReport > 5_000) {
          lastReport = performance.now();
          log(`${state}: ${replayed.toLocaleString("en-US")} replayed`);
        }
        if (performance.now() - handedOver > 900_000)
          throw new Error("the job took over 15 minutes");
      }
      finished = performance.now();
    } finally {
      clearInterval(rssTimer);
    }
    if (state !== "done") throw new Error(`the backtest ended ${state}`);
    const { rows: done } = await db.query<{
      job_seconds: number;
      replayed: number;
      result: { overall: { candidate: { harmfulDrops: number; differFromRecorded: number } } };
    }>(
      `SELECT extract(epoch FROM finished_at - started_at)::float8 AS job_seconds,
              replayed::float8 AS replayed, result
         FROM backtests WHERE id = $1`,
      [id],
    );
    const row = done[0];
    const seconds = (finished - handedOver) / 1000;
    const rate = replayed / seconds;
    console.log("");
    console.log(
      `backtest of ${replayed.toLocaleString("en-US")} decisions (six-stage candidate, ${reads} read(s) in flight): ${seconds.toFixed(1)} s end to end (handed over → done; job ${row?.job_seconds.toFixed(1)} s), ${Math.round(rate).toLocaleString("en-US")} decisions/s — target ≤ ${TARGET_SECONDS} s ${seconds <= TARGET_SECONDS ? "✓" : "✗"}`,
    );
    console.log(
      `server RSS peak during the job: ${(peakRss / 1024 / 1024).toFixed(0)} MiB (${(rssBefore / 1024 / 1024).toFixed(0)} MiB before it) — target ≤ ${TARGET_RSS_MIB} MiB ${peakRss <= TARGET_RSS_MIB * 1024 * 1024 ? "✓" : "✗"}`,
    );
    console.log(
      `result: ${row?.result.overall.candidate.harmfulDrops.toLocaleString("en-US")} would-be harmful drops, ${row?.result.overall.candidate.differFromRecorded.toLocaleString("en-US")} decisions bound differently from the record`,
    );
    console.log(
      "\n| page | before: p50 ms | during: p50 ms | during: p95 ms | during: max ms | samples | target p95 |",
    );
    console.log("|---|---:|---:|---:|---:|---:|---|");
    let missed = seconds > TARGET_SECONDS || peakRss > TARGET_RSS_MIB * 1024 * 1024;
    for (const page of PAGES) {
      const times = during.get(page.path) ?? [];
      const p95 = percentile(times, 95);
      const ok = p95 <= page.targetMs;
      if (!ok) missed = true;
      console.log(
        `| ${page.name} (\`${page.path}\`) | ${percentile(before.get(page.path) ?? [], 50).toFixed(0)} | ${percentile(times, 50).toFixed(0)} | ${p95.toFixed(0)} | ${Math.max(...times).toFixed(0)} | ${times.length} | ${ok ? "✓" : "✗"} ≤ ${page.targetMs} |`,
      );
    }
    if (missed) process.exitCode = 1;
  } finally {
    await boss?.stop({ graceful: false }).catch(() => {});
    await db.end().catch(() => {});
    await app?.stop();
    await server.stop();
    releaseLock();
  }
}

main().catch((error: unknown) => {
  console.error(`[bench:backtest] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
