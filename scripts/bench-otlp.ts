/**
 * `npm run bench:otlp` — OpenTelemetry ingest throughput through HTTP.
 *
 * Starts a scratch embedded PostgreSQL and a production build (`next start`) on it; a separate
 * load process posts protobuf OTLP exports, each holding 500 LLM-call spans that offer 20 tool
 * definitions each plus their tool-run spans (and one agent span per run of five calls), two in
 * flight. Prints LLM-call spans/s, request latency p50/p99, the server's peak resident memory,
 * CPU seconds of server and PostgreSQL, the load average, and — unless `--no-ingest` — the
 * same LLM calls sent as v1 events (decision + outcome) to `/api/ingest` in the same run.
 * `--processes N` runs the server as `WEB_CONCURRENCY=N npm start` does: N processes on one
 * port (memory and CPU are then those of all of them together).
 *
 *   npm run bench:otlp -- [--calls 50000] [--per-export 500] [--concurrency 2] [--no-ingest] [--port <n>] [--processes 1] [--cpu-profile <dir>]
 */
import { loadavg } from "node:os";
import path from "node:path";
import pg from "pg";
import { ensureBuild, startAppServer } from "./lib/app-server";
import { percentile, runLoadProcess, type SendResult, slowestRequests } from "./lib/bench-args";
import { parseCommandLine, positiveWholeNumber } from "./lib/command-line";
import { cpuSeconds, isPostgresOf, type ProcessInfo, postmasterOf } from "./lib/process-cpu";
import { startScratchDatabase } from "./lib/scratch-database";
import { seedApiKey } from "./lib/seed-key";

const WARMUP_CALLS = 5_000;

interface LoadResult {
  otlp: SendResult;
  ingest: SendResult | null;
  llmCalls: number;
  spans: number;
  exportBytes: number;
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

async function main() {
  const { values } = parseCommandLine(
    {
      calls: { type: "string" },
      "per-export": { type: "string" },
      port: { type: "string" },
      concurrency: { type: "string" },
      "no-ingest": { type: "boolean" },
      processes: { type: "string" },
      "cpu-profile": { type: "string" },
    },
    "usage: npm run bench:otlp -- [--calls 50000] [--per-export 500] [--concurrency 2] [--no-ingest] [--port <n>] [--processes 1] [--cpu-profile <dir>]",
  );
  const calls = positiveWholeNumber("calls", values.calls, 50_000);
  const perExport = positiveWholeNumber("per-export", values["per-export"], 500);
  const concurrency = positiveWholeNumber("concurrency", values.concurrency, 2);
  const withIngest = values["no-ingest"] !== true;
  const processes = positiveWholeNumber("processes", values.processes, 1);
  const log = (line: string) => console.error(`· ${line}`);

  ensureBuild(log);
  const scratch = await startScratchDatabase("bench_otlp", log);
  const url = scratch.url;
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  const key = await seedApiKey(url, "bench");
  const warmupKey = await seedApiKey(url, "bench-warmup");
  const ingestKey = await seedApiKey(url, "bench-ingest");

  // The server's port: a free one unless given.
  const port = positiveWholeNumber("port", values.port, 0);
  const app = await startAppServer({
    databaseUrl: url,
    port,
    processes,
    cpuProfileDir: values["cpu-profile"],
  });
  const start = new Date(Date.now() - 3_600_000).toISOString();
  const loadBefore = load();
  try {
    log(
      `building the exports, warming up with ${WARMUP_CALLS} LLM calls of another tenant, then sending ${calls} LLM-call spans in protobuf exports of ${perExport}, ${concurrency} in flight${withIngest ? "; then the same calls to /api/ingest" : ""}`,
    );
    let peakRss = app.rssBytes() ?? 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, app.rssBytes() ?? 0);
    }, 50);
    // The server, and with --processes the server processes it supervises.
    const serverPid = app.child.pid;
    const isServer = ({ pid, ppid }: ProcessInfo) => pid === serverPid || ppid === serverPid;
    const postmaster = postmasterOf(path.resolve(".data/bench-pg"));
    if (postmaster === null) log("the PostgreSQL postmaster was not found: its CPU is not counted");
    const isPostgres = isPostgresOf(postmaster);
    let cpuBefore = { server: 0, postgres: 0 };
    let loadAtStart = "";
    const result = await runLoadProcess<LoadResult>(
      "bench-otlp-client",
      [
        app.baseUrl,
        warmupKey,
        String(WARMUP_CALLS),
        key,
        String(calls),
        String(perExport),
        String(concurrency),
        start,
        withIngest ? ingestKey : "-",
      ],
      () => {
        cpuBefore = { server: cpuSeconds(isServer), postgres: cpuSeconds(isPostgres) };
        loadAtStart = load();
      },
    );
    clearInterval(sampler);
    const cpu = {
      server: cpuSeconds(isServer) - cpuBefore.server,
      postgres: cpuSeconds(isPostgres) - cpuBefore.postgres,
    };
    const loadAfter = load();
    const stored = await setup.query<{ decisions: number; spans: number; joined: number }>(
      `SELECT (SELECT count(*)::int FROM decisions WHERE tenant_id = 'bench') AS decisions,
              (SELECT count(*)::int FROM otel_spans WHERE tenant_id = 'bench') AS spans,
              (SELECT count(*)::int FROM outcomes WHERE tenant_id = 'bench' AND joined) AS joined`,
    );
    const { otlp, ingest } = result;
    const rows: [string, string][] = [
      [
        "sent",
        `${result.llmCalls} LLM-call spans (${result.spans} spans in all) in ${otlp.requests} exports of ~${(result.exportBytes / 1024 / 1024).toFixed(1)} MiB`,
      ],
      [
        "OTLP ingest",
        `${Math.round(result.llmCalls / otlp.seconds)} LLM-call spans/s (${otlp.seconds.toFixed(2)} s, ${otlp.failures} failed)`,
      ],
      ["request latency p50", `${percentile(otlp.latencies, 50).toFixed(1)} ms`],
      ["request latency p99", `${percentile(otlp.latencies, 99).toFixed(1)} ms`],
      [
        "slowest exports",
        `${slowestRequests(otlp.latencies, 4)} (of ${otlp.requests}, in order sent)`,
      ],
      [
        "CPU during OTLP run",
        `server ${cpu.server.toFixed(1)} s, PostgreSQL ${cpu.postgres.toFixed(1)} s, load process ${otlp.cpuSeconds.toFixed(1)} s (of ${(2 * otlp.seconds).toFixed(1)} s on 2 cores)`,
      ],
      [
        "stored",
        `${stored.rows[0]?.decisions} decisions, ${stored.rows[0]?.joined} outcomes joined, ${stored.rows[0]?.spans} spans`,
      ],
    ];
    if (ingest) {
      rows.push(
        [
          "same calls via /api/ingest",
          `${Math.round(result.llmCalls / ingest.seconds)} decisions/s with their outcomes (${ingest.seconds.toFixed(2)} s, ${ingest.failures} failed)`,
        ],
        [
          "/api/ingest p50 / p99",
          `${percentile(ingest.latencies, 50).toFixed(1)} / ${percentile(ingest.latencies, 99).toFixed(1)} ms`,
        ],
      );
    }
    rows.push(
      [
        "server peak RSS",
        `${(peakRss / 1024 / 1024).toFixed(0)} MiB${processes > 1 ? ` (${processes} server processes and their supervisor together)` : ""}`,
      ],
      ["load average", `${loadBefore} before, ${loadAtStart} at start, ${loadAfter} after`],
    );
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log("\nOTLP ingest benchmark");
    for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
  } finally {
    await setup.end();
    await app.stop();
    await scratch.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
