/**
 * `npx tsx scripts/bench-otlp-statements.ts [--exports 40] [--concurrency 2]` — what PostgreSQL
 * spends per OTLP export, statement by statement: a scratch embedded PostgreSQL of its own
 * (`.data/bench-pg-statements`, started with `pg_stat_statements`), the exports of
 * `npm run bench:otlp` stored by `storeSpans` (lib/otlp/store.ts) in this process, 2 in flight;
 * the statistics are reset after the warm-up exports, then every statement's calls, time,
 * buffers and WAL over the timed exports are printed per export, costliest first, with the
 * CPU seconds of PostgreSQL's processes. Nothing is asserted.
 */
import { loadavg } from "node:os";
import path from "node:path";
import pg from "pg";
import { migrate } from "@/lib/db/migrate";
import { ADOPT_TOOL_RUNS_SQL, RANK_RUNS_SQL, STORED_SPANS_SQL } from "@/lib/otlp/store";
import { decodedBenchExports } from "./lib/bench-otlp-spans";
import { parseCommandLine, positiveWholeNumber } from "./lib/command-line";
import { dropDatabase, ensureDatabase, startLocalPostgres } from "./lib/local-postgres";
import { cpuSeconds, isPostgresOf, postmasterOf } from "./lib/process-cpu";

const PER_EXPORT = 500;
const WARMUP_EXPORTS = 6;
const DATA_DIR = ".data/bench-pg-statements";

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

/** CPU seconds (user + system) of the postmaster of DATA_DIR and its children; NaN when absent. */
function postgresCpuSeconds(): number {
  const postmaster = postmasterOf(path.resolve(DATA_DIR));
  return postmaster === null ? Number.NaN : cpuSeconds(isPostgresOf(postmaster));
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the store's statements on otel_spans, with the keys of the last
 * export stored: the look-up of stored spans, the ranking of the runs' LLM calls and the
 * adoption of tool runs.
 */
async function explainStatements(client: pg.Client): Promise<void> {
  const { rows: keys } = await client.query<{ trace_id: string; span_id: string }>(
    "SELECT trace_id, span_id FROM otel_spans ORDER BY received_at DESC, trace_id, span_id LIMIT 1000",
  );
  const { rows: runs } = await client.query<{ run_id: string }>(
    "SELECT DISTINCT run_id FROM otel_spans WHERE trace_id = ANY($1::text[])",
    [keys.map((k) => k.trace_id)],
  );
  const explain = async (label: string, sql: string, params: unknown[]) => {
    const { rows } = await client.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
      params,
    );
    console.log(`\n${label}`);
    for (const row of rows) console.log(`  ${row["QUERY PLAN"]}`);
  };
  await explain("look-up of stored spans (the 1,000 spans of one export)", STORED_SPANS_SQL, [
    "bench",
    keys.map((k) => k.trace_id),
    keys.map((k) => k.span_id),
  ]);
  await explain(`ranking of the LLM calls of ${runs.length} runs`, RANK_RUNS_SQL, [
    "bench",
    runs.map((r) => r.run_id).sort(),
  ]);
  // An UPDATE: explained with ANALYZE inside a transaction that is rolled back.
  const traces = [...new Set(keys.map((k) => k.trace_id))];
  await client.query("BEGIN");
  await explain(
    `adoption of tool runs by the runs of ${traces.length} traces (rolled back)`,
    ADOPT_TOOL_RUNS_SQL,
    ["bench", traces, traces.map((t) => `session-${t}`)],
  );
  await client.query("ROLLBACK");
}

async function main() {
  const { values } = parseCommandLine(
    { exports: { type: "string" }, concurrency: { type: "string" } },
    "usage: npx tsx scripts/bench-otlp-statements.ts [--exports 40] [--concurrency 2]",
  );
  const concurrency = positiveWholeNumber("concurrency", values.concurrency, 2);
  const exportCount = positiveWholeNumber("exports", values.exports, 40);
  const log = (line: string) => console.error(`· ${line}`);

  const server = await startLocalPostgres({
    dataDir: DATA_DIR,
    port: 0,
    log,
    settings: {
      shared_preload_libraries: "pg_stat_statements",
      "pg_stat_statements.track": "all",
      "pg_stat_statements.track_utility": "on",
      "pg_stat_statements.track_planning": "on",
      track_io_timing: "on",
    },
  });
  if (server.reused) log("a running server was reused: its settings may lack pg_stat_statements");
  const database = `bench_otlp_statements_${Date.now()}`;
  await ensureDatabase(server.adminUrl, database);
  await migrate(server.urlFor(database));
  const admin = new pg.Client({ connectionString: server.urlFor(database) });
  await admin.connect();
  await admin.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  process.env.DATABASE_URL = server.urlFor(database);
  const { getPool } = await import("@/lib/db/client");

  try {
    const exports = decodedBenchExports(exportCount + WARMUP_EXPORTS, PER_EXPORT);
    let cpuAtStart = 0;
    let wallAtStart = 0;
    const loadAtStart = load();
    for (let i = 0; i < exports.length; i += concurrency) {
      if (i === WARMUP_EXPORTS) {
        await admin.query("SELECT pg_stat_statements_reset()");
        cpuAtStart = postgresCpuSeconds();
        wallAtStart = performance.now();
      }
      await Promise.all(
        exports.slice(i, i + concurrency).map(async (spans) => {
          const result = await (await import("@/lib/otlp/store")).storeSpans("bench", spans);
          if (result.rejectedSpans > 0) throw new Error(result.errorMessage);
        }),
      );
    }
    const cpu = postgresCpuSeconds() - cpuAtStart;
    const wall = (performance.now() - wallAtStart) / 1000;
    const { rows } = await admin.query<{
      query: string;
      calls: string;
      exec_ms: number;
      plan_ms: number;
      rows: string;
      hit: string;
      read: string;
      dirtied: string;
      wal_bytes: string;
    }>(
      `SELECT regexp_replace(query, '\\s+', ' ', 'g') AS query, calls, total_exec_time AS exec_ms,
              total_plan_time AS plan_ms, rows, shared_blks_hit AS hit, shared_blks_read AS read,
              shared_blks_dirtied AS dirtied, wal_bytes
         FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND query NOT LIKE '%pg_stat_statements%'
        ORDER BY total_exec_time + total_plan_time DESC`,
    );
    const n = exportCount;
    const totalMs = rows.reduce((sum, r) => sum + r.exec_ms + r.plan_ms, 0);
    console.log(
      `\nPostgreSQL per export of ${PER_EXPORT} LLM-call spans (${n} exports, ${concurrency} in flight, ${wall.toFixed(1)} s)`,
    );
    console.log(
      `  PostgreSQL CPU ${cpu.toFixed(2)} s: ${((cpu * 1e6) / (n * PER_EXPORT)).toFixed(0)} us per LLM-call span; statements' time ${(totalMs / n).toFixed(1)} ms per export`,
    );
    console.log(
      "  ms/export  plan ms  calls/exp  rows/exp  hit/exp  dirtied/exp  WAL kB/exp  statement",
    );
    for (const r of rows) {
      const per = (value: string | number) => Number(value) / n;
      if (per(r.exec_ms) + per(r.plan_ms) < 0.05) continue;
      console.log(
        `  ${per(r.exec_ms).toFixed(2).padStart(9)}  ${per(r.plan_ms).toFixed(2).padStart(7)}  ${per(r.calls).toFixed(1).padStart(9)}  ${per(r.rows).toFixed(0).padStart(8)}  ${per(r.hit).toFixed(0).padStart(7)}  ${per(r.dirtied).toFixed(0).padStart(11)}  ${(per(r.wal_bytes) / 1024).toFixed(0).padStart(10)}  ${r.query.slice(0, 110)}`,
      );
    }
    console.log(`  load average: ${loadAtStart} at start, ${load()} after`);
    await explainStatements(admin);
    await getPool().end();
  } finally {
    await admin.end();
    await dropDatabase(server.adminUrl, database).catch(() => {});
    if (!server.reused) await server.stop();
  }
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  });
