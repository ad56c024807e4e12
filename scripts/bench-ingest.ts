/**
 * `npm run bench:ingest` — ingest throughput through HTTP against the floor of plain SQL.
 *
 * Starts a scratch embedded PostgreSQL and a production build (`next start`) on it, sends
 * decisions with six-stage traces in batches of 500 from a separate load process, then, in
 * the same run and on the same PostgreSQL, writes the same rows straight into the decisions
 * table through `pg` with one COPY per batch (no validation, no rollups, no HTTP): the floor.
 * Prints decisions/s for both, their ratio, request latency p50/p99 and the server's peak
 * resident memory. `--processes N` runs the server as `WEB_CONCURRENCY=N npm start` does: N
 * processes on one port (memory and CPU are then those of all of them together).
 *
 *   npm run bench:ingest -- [--decisions 200000] [--concurrency 2] [--with-outcomes]
 *                           [--list-per-decision] [--processes 1] [--cpu-profile <dir>]
 *
 * --with-outcomes sends each decision's tool_call_outcome too, 250 events after it, so the
 * run also measures joining outcomes to decisions. Decisions offer one of 32 tool lists, as a
 * fleet of agents offering their catalogues does (scripts/lib/bench-events.ts);
 * --list-per-decision gives every decision a list of its own, the worst case for the stored
 * tool lists.
 */
import { loadavg } from "node:os";
import path from "node:path";
import { finished } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { migrate } from "@/lib/db/migrate";
import { copyData, DECISION_COLUMNS, decisionLine } from "@/lib/ingest/copy";
import { toDecisionRow } from "@/lib/ingest/events";
import type { ToolRoutingDecision } from "@/lib/schemas/events";
import { ensureBuild, startAppServer } from "./lib/app-server";
import { percentile, runLoadProcess, type SendResult } from "./lib/bench-args";
import { benchDecisions } from "./lib/bench-events";
import { parseCommandLine, positiveWholeNumber } from "./lib/command-line";
import { dropDatabase, ensureDatabase, startLocalPostgres } from "./lib/local-postgres";
import { cpuSeconds, isPostgresOf, type ProcessInfo, postmasterOf } from "./lib/process-cpu";
import { seedApiKey } from "./lib/seed-key";

const BATCH = 500;
const WARMUP = 10_000;

/**
 * The floor: the same rows, in the form ingest stores them, written with COPY — the fastest
 * way into PostgreSQL — one batch per statement, encoded before the clock starts. No HTTP,
 * no validation, no duplicate check, no join, no rollups.
 */
async function insertFloor(pool: pg.Pool, events: ToolRoutingDecision[], concurrency: number) {
  const batches: Buffer[] = [];
  for (let i = 0; i < events.length; i += BATCH) {
    // Stored rows name their offered list by a palette id; finding it is ingest's work.
    const rows = events
      .slice(i, i + BATCH)
      .map((event) => ({ ...toDecisionRow("floor", event), palette_id: 1 }));
    batches.push(copyData(rows, decisionLine));
  }
  const statement = `COPY decisions (${DECISION_COLUMNS.join(", ")}) FROM STDIN`;
  let next = 0;
  const started = performance.now();
  async function worker() {
    const client = await pool.connect();
    try {
      while (next < batches.length) {
        const stream = client.query(copyFrom(statement));
        stream.end(batches[next++]);
        await finished(stream);
      }
    } finally {
      client.release();
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (performance.now() - started) / 1000;
}

async function main() {
  const { values } = parseCommandLine(
    {
      decisions: { type: "string" },
      concurrency: { type: "string" },
      "with-outcomes": { type: "boolean" },
      "list-per-decision": { type: "boolean" },
      processes: { type: "string" },
      "cpu-profile": { type: "string" },
    },
    "usage: npm run bench:ingest -- [--decisions 200000] [--concurrency 2] [--with-outcomes] [--list-per-decision] [--processes 1] [--cpu-profile <dir>]",
  );
  const decisions = positiveWholeNumber("decisions", values.decisions, 200_000);
  const withOutcomes = values["with-outcomes"] === true;
  const listPerDecision = values["list-per-decision"] === true;
  const concurrency = positiveWholeNumber("concurrency", values.concurrency, 2);
  const processes = positiveWholeNumber("processes", values.processes, 1);
  const log = (line: string) => console.error(`· ${line}`);

  ensureBuild(log);
  const server = await startLocalPostgres({ dataDir: ".data/bench-pg", port: 0, log });
  const suffix = Date.now();
  const httpDb = `bench_ingest_http_${suffix}`;
  const floorDb = `bench_ingest_floor_${suffix}`;
  for (const name of [httpDb, floorDb]) {
    await ensureDatabase(server.adminUrl, name);
    await migrate(server.urlFor(name));
  }
  const setup = new pg.Client({ connectionString: server.urlFor(httpDb) });
  await setup.connect();
  const key = await seedApiKey(server.urlFor(httpDb), "bench");
  const warmupKey = await seedApiKey(server.urlFor(httpDb), "bench-warmup");

  const app = await startAppServer({
    databaseUrl: server.urlFor(httpDb),
    processes,
    cpuProfileDir: values["cpu-profile"],
  });
  const start = new Date(Date.now() - 3_600_000).toISOString();
  try {
    log(
      `warming up with ${WARMUP} decisions of another tenant, then sending ${decisions} decisions${withOutcomes ? " and their outcomes" : ""} over HTTP in batches of ${BATCH} events, ${concurrency} in flight`,
    );
    let peakRss = app.rssBytes() ?? 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, app.rssBytes() ?? 0);
    }, 50);
    // The server, and with --processes the server processes it supervises.
    const serverPid = app.child.pid;
    const isServer = ({ pid, ppid }: ProcessInfo) => pid === serverPid || ppid === serverPid;
    // The postmaster of .data/bench-pg and its backends (not other checkouts' databases).
    const postmaster = postmasterOf(path.resolve(".data/bench-pg"));
    if (postmaster === null) log("the PostgreSQL postmaster was not found: its CPU is not counted");
    const isPostgres = isPostgresOf(postmaster);
    let cpuBefore = { server: 0, postgres: 0 };
    const load = () =>
      loadavg()
        .map((value) => value.toFixed(2))
        .join(" ");
    let loadAtStart = "";
    const http = await runLoadProcess<SendResult & { events: number }>(
      "bench-ingest-client",
      [
        app.baseUrl,
        warmupKey,
        String(WARMUP),
        key,
        String(decisions),
        String(BATCH),
        String(concurrency),
        start,
        withOutcomes ? "outcomes" : "decisions",
        listPerDecision ? "list-per-decision" : "fleet-lists",
      ],
      () => {
        cpuBefore = { server: cpuSeconds(isServer), postgres: cpuSeconds(isPostgres) };
        loadAtStart = load();
      },
    );
    const loadAtEnd = load();
    clearInterval(sampler);
    const cpu = {
      server: cpuSeconds(isServer) - cpuBefore.server,
      postgres: cpuSeconds(isPostgres) - cpuBefore.postgres,
    };
    const stored = await setup.query(
      `SELECT count(*)::int AS n,
              (SELECT sum(decisions)::int FROM rollup_hour WHERE tenant_id = 'bench') AS rolled,
              (SELECT count(*)::int FROM outcomes WHERE tenant_id = 'bench' AND joined) AS joined,
              (SELECT count(*)::int FROM decision_outcomes WHERE tenant_id = 'bench') AS completed
         FROM decisions WHERE tenant_id = 'bench'`,
    );
    await app.stop();

    log("inserting the same decisions straight into PostgreSQL (the floor)");
    const floorPool = new pg.Pool({ connectionString: server.urlFor(floorDb), max: concurrency });
    const floorSeconds = await insertFloor(
      floorPool,
      benchDecisions(decisions, 42, new Date(start), { listPerDecision }),
      concurrency,
    );
    await floorPool.end();

    const httpRate = decisions / http.seconds;
    const floorRate = decisions / floorSeconds;
    const rows = [
      [
        "events sent",
        withOutcomes
          ? `${http.events} (${decisions} decisions, each followed by its outcome)`
          : `${http.events} decisions`,
      ],
      [
        "tool lists offered",
        listPerDecision ? "one per decision (--list-per-decision)" : "32, shared by all decisions",
      ],
      [
        "HTTP ingest",
        `${Math.round(httpRate)} decisions/s${withOutcomes ? ` (${Math.round(http.events / http.seconds)} events/s)` : ""} (${http.seconds.toFixed(2)} s, ${http.requests} requests, ${http.failures} failed)`,
      ],
      ["plain SQL floor", `${Math.round(floorRate)} decisions/s (${floorSeconds.toFixed(2)} s)`],
      ["HTTP / floor", `${(httpRate / floorRate).toFixed(2)}`],
      ["request latency p50", `${percentile(http.latencies, 50).toFixed(1)} ms`],
      ["request latency p99", `${percentile(http.latencies, 99).toFixed(1)} ms`],
      [
        "server peak RSS",
        `${(peakRss / 1024 / 1024).toFixed(0)} MiB${processes > 1 ? ` (${processes} server processes and their supervisor together)` : ""}`,
      ],
      [
        "CPU during HTTP run",
        `server ${cpu.server.toFixed(1)} s, PostgreSQL ${cpu.postgres.toFixed(1)} s, load process ${http.cpuSeconds.toFixed(1)} s (of ${(2 * http.seconds).toFixed(1)} s on 2 cores)`,
      ],
      [
        "stored / in rollups",
        `${stored.rows[0].n} / ${stored.rows[0].rolled} decisions${withOutcomes ? `, ${stored.rows[0].joined} outcomes joined to ${stored.rows[0].completed} decisions` : ""}`,
      ],
      ["load average (1, 5, 15 min)", `${loadAtStart} at the start, ${loadAtEnd} at the end`],
    ];
    const width = Math.max(...rows.map(([k]) => (k as string).length));
    console.log("\nIngest benchmark");
    for (const [k, v] of rows) console.log(`  ${(k as string).padEnd(width)}  ${v}`);
  } finally {
    await setup.end();
    await app.stop();
    for (const name of [httpDb, floorDb]) await dropDatabase(server.adminUrl, name).catch(() => {});
    if (!server.reused) await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
