/**
 * `npm run bench:hostile` — what one sender's hostile input costs everyone else.
 *
 * Starts a scratch embedded PostgreSQL and, for each case, a fresh production server
 * (`next start`) on it. While the case's load runs, a separate probe process
 * (scripts/lib/hostile-probe.ts) measures `/api/health` latency and a bystander tenant's
 * ingest latency (100-event batches, five a second); this process samples the server's
 * resident memory and counts the load's own statuses and response sizes.
 *
 *   idle    no load: the reference figures
 *   poison  poison timestamps (year 0, year 1, year 9999) and dropped_tokens of 2^53 - 1 in
 *           otherwise valid batches of an attacking tenant, 60 requests, 4 in flight,
 *           repeated (new events each round) for 10 s
 *   report  error-report amplification: 1,000 decisions each with 1,000 numbers in offered
 *           and selected, gzipped, 8 requests, 4 in flight, repeated for 10 s
 *   parse   parse amplification: 5 MiB of `{}` elements, gzipped, 48 requests, 24 in flight,
 *           repeated for 10 s
 *   export  /api/export/run of a 20,000-decision run, 16 requests, 8 in flight
 *   keys    2,000 requests with wrong API keys, 20 in flight
 *
 *   npm run bench:hostile -- [--only poison,report] [--seconds 10] [--port 3204] [--cpu-profile <dir>]
 *
 * `--cpu-profile <dir>` makes each case's server write a V8 CPU profile there when it stops.
 *
 * Before the probe records, each case sends one request of its load's kind that stores nothing
 * (`warm`): a fresh server loads an endpoint's code on its first use, and the export thread
 * starts on the first download — hundreds of milliseconds on the main thread, once per server,
 * that a server under attack has long paid. Without it the slowest samples of a case were its
 * first few (docs/RELIABILITY.md, "6 December 2026, later").
 *
 * Every load is bounded in count and in time (no new request after LOAD_TIME_LIMIT_MS);
 * everything talks to 127.0.0.1 only.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import os from "node:os";
import { createInterface } from "node:readline";
import { gzipSync } from "node:zlib";
import pg from "pg";
import type { ToolRoutingDecision } from "@/lib/schemas/events";
import { createTestUser, signIn, type TestUser } from "@/tests/support/accounts";
import { type AppServer, ensureBuild, startAppServer } from "./lib/app-server";
import { PROBE_READY, percentile } from "./lib/bench-args";
import { benchDecisions } from "./lib/bench-events";
import { failUsage, parseCommandLine, positiveWholeNumber } from "./lib/command-line";
import { emptyObjectsBody } from "./lib/hostile-ingest-bodies";
import { postIngest } from "./lib/ingest-request";
import { startScratchDatabase } from "./lib/scratch-database";
import { seedApiKey } from "./lib/seed-key";

const LOAD_TIME_LIMIT_MS = 120_000;
const REQUEST_TIMEOUT_MS = 180_000;
/**
 * The poison, report and parse loads are over in 1–4 s, a dozen health samples: their p99 would be
 * the slowest one or two. Each is repeated, the same requests at the same concurrency, round
 * after round until this long has passed (`--seconds`, 10 by default, as long as the idle
 * case), so that the probe takes about 100 health samples and 50 bystander batches; their p99 is
 * then the slowest but one of the batches, and a longer run gives a steadier figure.
 */
const DEFAULT_SECONDS = 10;
const EXPORT_RUN_DECISIONS = 20_000;
const EXPORT_RUN_ID = "hostile-export-run";

interface LoadResult {
  requests: number;
  statuses: Record<string, number>;
  maxBytes: number;
  totalBytes: number;
  withRetryAfter: number;
  seconds: number;
  /** A line of case-specific findings (e.g. how many valid events were stored). */
  note?: string;
}

interface Context {
  baseUrl: string;
  databaseUrl: string;
  attackerKey: string;
  attacker: string;
  /** A viewer of the attacker's tenant (downloads need a signed-in user), if one was made. */
  viewer: TestUser | null;
  /** The viewer's session cookie on this server, once `warm` has signed in. */
  viewerCookie: string;
  /** How long the idle case lasts, and the repeated loads start rounds. */
  repeatForMs: number;
}

interface HostileCase {
  id: string;
  title: string;
  /** One request of the load's kind that stores nothing, sent before the probe records. */
  warm(ctx: Context): Promise<unknown>;
  run(ctx: Context): Promise<LoadResult>;
}

/**
 * Sends `count` requests built by `makeRequest`, `concurrency` at a time, starting none after
 * the time limit. Bodies are read as streams and only counted, never kept.
 */
async function load(
  count: number,
  concurrency: number,
  makeRequest: (i: number) => Promise<Response>,
): Promise<LoadResult> {
  const result: LoadResult = {
    requests: 0,
    statuses: {},
    maxBytes: 0,
    totalBytes: 0,
    withRetryAfter: 0,
    seconds: 0,
  };
  const started = performance.now();
  let next = 0;
  async function worker() {
    while (next < count && performance.now() - started < LOAD_TIME_LIMIT_MS) {
      const i = next++;
      let status: string;
      let bytes = 0;
      try {
        const response = await makeRequest(i);
        if (response.headers.get("retry-after")) result.withRetryAfter++;
        if (response.body) {
          for await (const chunk of response.body) bytes += chunk.byteLength;
        }
        status = String(response.status);
      } catch (error) {
        status = (error as Error).name === "TimeoutError" ? "timeout" : "network error";
      }
      result.requests++;
      result.statuses[status] = (result.statuses[status] ?? 0) + 1;
      result.maxBytes = Math.max(result.maxBytes, bytes);
      result.totalBytes += bytes;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

/** Runs `round` again and again until `ms` have passed, adding up what the rounds saw. */
async function repeatFor(ms: number, round: () => Promise<LoadResult>): Promise<LoadResult> {
  const started = performance.now();
  const total: LoadResult = {
    requests: 0,
    statuses: {},
    maxBytes: 0,
    totalBytes: 0,
    withRetryAfter: 0,
    seconds: 0,
  };
  let rounds = 0;
  do {
    const result = await round();
    rounds++;
    total.requests += result.requests;
    for (const [status, n] of Object.entries(result.statuses)) {
      total.statuses[status] = (total.statuses[status] ?? 0) + n;
    }
    total.maxBytes = Math.max(total.maxBytes, result.maxBytes);
    total.totalBytes += result.totalBytes;
    total.withRetryAfter += result.withRetryAfter;
  } while (performance.now() - started < ms);
  total.seconds = (performance.now() - started) / 1000;
  total.note = `${rounds} rounds`;
  return total;
}

function post(
  baseUrl: string,
  key: string,
  body: Uint8Array<ArrayBuffer>,
  gzip: boolean,
): Promise<Response> {
  return postIngest(`${baseUrl}/api/ingest`, key, body, {
    gzip,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
}

const encode = (value: unknown) => new Uint8Array(Buffer.from(JSON.stringify(value)));
const gzipped = (text: string) => new Uint8Array(gzipSync(text));

const POISON_TIMESTAMPS = [
  "0000-01-01T00:00:00Z",
  "0001-01-01T00:00:00+01:00",
  "9999-12-31T23:59:59-01:00",
];
const HUGE_DROPPED_TOKENS = Number.MAX_SAFE_INTEGER;
/** The poison load's seeds: 5,000-5,999, below the report load's 6,000. */
const POISON_SEED = 5_000;
const POISON_MAX_ROUNDS = 16;

/** The report load's body: 1,000 decisions, each with 1,000 numbers in offered and selected. */
function reportBody(): string {
  const numbers = Array.from({ length: 1_000 }, () => 0);
  const events = benchDecisions(1_000, 6_000, new Date()).map((event) => ({
    ...event,
    offered: numbers,
    selected: numbers,
    trace: [],
  }));
  return JSON.stringify({ batch: events });
}

const CASES: HostileCase[] = [
  {
    id: "idle",
    title: "no load (reference)",
    warm: async () => {},
    run: async ({ repeatForMs }) => {
      await new Promise((resolve) => setTimeout(resolve, repeatForMs));
      return {
        requests: 0,
        statuses: {},
        maxBytes: 0,
        totalBytes: 0,
        withRetryAfter: 0,
        seconds: repeatForMs / 1000,
      };
    },
  },
  {
    id: "poison",
    title:
      "(a) poison timestamps and dropped_tokens 2^53-1 in valid batches, 60 req, 4 in flight, in rounds",
    // One decision with a poison timestamp: refused, nothing stored.
    warm: ({ baseUrl, attackerKey }) => {
      const [event] = benchDecisions(1, POISON_SEED + 60 * POISON_MAX_ROUNDS, new Date());
      return post(
        baseUrl,
        attackerKey,
        encode({ batch: [{ ...event, timestamp: POISON_TIMESTAMPS[0] }] }),
        false,
      );
    },
    run: async ({ baseUrl, attackerKey, attacker, databaseUrl, repeatForMs }) => {
      // Every 15th request: 1,000 decisions of dropped_tokens 2^53 - 1 in one minute (their
      // sum overflows a bigint from the second such batch on); the others: 99 valid decisions
      // and one with a poison timestamp. Each round sends new events (seeds 5,000 + 60 × round
      // + request), so every round's valid neighbours are new to the server.
      let validSent = 0;
      let round = 0;
      const now = new Date(Date.now() - 30_000);
      const roundBodies = (): Uint8Array<ArrayBuffer>[] => {
        const bodies: Uint8Array<ArrayBuffer>[] = [];
        for (let i = 0; i < 60; i++) {
          const seed = POISON_SEED + 60 * round + i;
          if (i % 15 === 14) {
            const events = benchDecisions(1_000, seed, now).map((event) => ({
              ...event,
              run_id: `poison-huge-${round}-${i}`,
              dropped_tokens: HUGE_DROPPED_TOKENS,
            }));
            bodies.push(encode({ batch: events }));
            continue;
          }
          const events: ToolRoutingDecision[] = benchDecisions(100, seed, now);
          const at = (i * 37) % 100;
          const poisoned = events[at] as ToolRoutingDecision;
          events[at] = {
            ...poisoned,
            timestamp: POISON_TIMESTAMPS[i % POISON_TIMESTAMPS.length] as string,
          };
          validSent += 99;
          bodies.push(encode({ batch: events }));
        }
        round++;
        return bodies;
      };
      const result = await repeatFor(repeatForMs, () => {
        if (round >= POISON_MAX_ROUNDS) throw new Error("the poison load ran out of seeds");
        const bodies = roundBodies();
        return load(bodies.length, 4, (i) =>
          post(baseUrl, attackerKey, bodies[i] as Uint8Array<ArrayBuffer>, false),
        );
      });
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const { rows } = await client.query<{ valid: number; poison: number }>(
        `SELECT count(*) FILTER (WHERE run_id NOT LIKE 'poison-huge-%'
                                  AND ts BETWEEN now() - interval '1 day' AND now() + interval '1 day')::int AS valid,
                count(*) FILTER (WHERE ts < '2000-01-01' OR ts > now() + interval '1 day')::int AS poison
           FROM decisions WHERE tenant_id = $1 AND event_id ~ '^bench-5[0-9]{3}-'`,
        [attacker],
      );
      await client.end();
      result.note = `${result.note} of 60 requests; valid neighbours stored ${rows[0]?.valid} of ${validSent}; poison timestamps stored ${rows[0]?.poison}`;
      return result;
    },
  },
  {
    id: "report",
    title:
      "(b) error-report amplification, 1,000 x 1,000 numbers, gzipped, 8 req, 4 in flight, in rounds",
    warm: ({ baseUrl, attackerKey }) => post(baseUrl, attackerKey, gzipped(reportBody()), true),
    run: async ({ baseUrl, attackerKey, repeatForMs }) => {
      const text = reportBody();
      const body = gzipped(text);
      const result = await repeatFor(repeatForMs, () =>
        load(8, 4, () => post(baseUrl, attackerKey, body, true)),
      );
      result.note = `${result.note} of 8 requests; body ${(text.length / 1024 / 1024).toFixed(1)} MiB, ${(body.byteLength / 1024).toFixed(0)} KiB gzipped`;
      return result;
    },
  },
  {
    id: "parse",
    title: "(c) parse amplification, 5 MiB of {} gzipped, 48 req, 24 in flight, in rounds",
    warm: ({ baseUrl, attackerKey }) =>
      post(baseUrl, attackerKey, gzipped(emptyObjectsBody()), true),
    run: async ({ baseUrl, attackerKey, repeatForMs }) => {
      const text = emptyObjectsBody();
      const body = gzipped(text);
      const result = await repeatFor(repeatForMs, () =>
        load(48, 24, () => post(baseUrl, attackerKey, body, true)),
      );
      result.note = `${result.note} of 48 requests; body ${(text.length / 1024 / 1024).toFixed(2)} MiB, ${(body.byteLength / 1024).toFixed(0)} KiB gzipped`;
      return result;
    },
  },
  {
    id: "export",
    title: `(d) run export of a ${EXPORT_RUN_DECISIONS.toLocaleString("en")}-decision run, 16 req, 8 in flight`,
    // Signs in (on the main thread: the password hash), then downloads the run once: its
    // route loaded, the export thread started, the CSV written on both threads.
    warm: async (context) => {
      if (!context.viewer) throw new Error("the export case needs its viewer");
      context.viewerCookie = await signIn(context.baseUrl, context.viewer);
      return fetch(exportUrl(context.baseUrl, context.attacker), {
        headers: { Cookie: context.viewerCookie },
      });
    },
    run: ({ baseUrl, attacker, viewerCookie }) =>
      load(16, 8, () =>
        fetch(exportUrl(baseUrl, attacker), {
          headers: { Cookie: viewerCookie },
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        }),
      ),
  },
  {
    id: "keys",
    title: "(e) 2,000 wrong API keys, 20 in flight",
    warm: ({ baseUrl }) => post(baseUrl, wrongKey(), keysBody(), false),
    run: ({ baseUrl }) => {
      const body = keysBody();
      return load(2_000, 20, () => post(baseUrl, wrongKey(), body, false));
    },
  },
];

const wrongKey = () => `rl_${randomBytes(24).toString("base64url")}`;
const keysBody = () => encode({ batch: benchDecisions(1, 7_000, new Date()) });

const exportUrl = (baseUrl: string, attacker: string) =>
  `${baseUrl}/api/export/run?tenant=${encodeURIComponent(attacker)}&runId=${EXPORT_RUN_ID}`;

/** Stores the run that the export case reads, through the API (20 batches of 1,000). */
async function seedExportRun(baseUrl: string, key: string): Promise<void> {
  const start = new Date(Date.now() - 2 * 3_600_000);
  const events = benchDecisions(EXPORT_RUN_DECISIONS, 8_000, start).map((event, i) => ({
    ...event,
    run_id: EXPORT_RUN_ID,
    iteration: i,
  }));
  for (let i = 0; i < events.length; i += 1_000) {
    const response = await post(baseUrl, key, encode({ batch: events.slice(i, i + 1_000) }), false);
    if (response.status !== 200) {
      throw new Error(`seeding the export run: ingest answered ${response.status}`);
    }
  }
}

interface ProbeResult {
  health: { latencies: number[]; statuses: Record<string, number>; skipped: number };
  ingest: { latencies: number[]; statuses: Record<string, number>; skipped: number };
}

/** Starts the probe process and resolves once it is warm; `finish()` stops it and reads its figures. */
async function startProbe(baseUrl: string, key: string, seed: number) {
  const child = spawn(
    "npx",
    ["--no-install", "tsx", "scripts/lib/hostile-probe.ts", baseUrl, key, String(seed)],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout });
  let last = "";
  const exited = new Promise<ProbeResult>((resolve, reject) =>
    child.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(last)) : reject(new Error(`probe exited ${code}`)),
    ),
  );
  await new Promise<void>((resolve, reject) => {
    lines.on("line", (line) => {
      last = line;
      if (line === PROBE_READY) resolve();
    });
    exited.catch(reject);
  });
  return {
    start: () => child.stdin.write("start\n"),
    finish: () => {
      child.stdin.end("stop\n");
      return exited;
    },
  };
}

const ms = (values: number[], p: number) =>
  values.length === 0 ? "—" : `${percentile(values, p).toFixed(0)}`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const size = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
    : bytes >= 1024
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${bytes} B`;
const statusList = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}×${n}`)
    .join(" ") || "—";
const notOk = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .filter(([status]) => status !== "200")
    .reduce((sum, [, n]) => sum + n, 0);

async function main() {
  const usage = `usage: npm run bench:hostile -- [--only ${CASES.map((c) => c.id).join(",")}] [--seconds ${DEFAULT_SECONDS}] [--port N] [--cpu-profile <dir>]`;
  const { values } = parseCommandLine(
    {
      only: { type: "string" },
      seconds: { type: "string" },
      port: { type: "string" },
      "cpu-profile": { type: "string" },
    },
    usage,
  );
  const cpuProfileDir = values["cpu-profile"];
  const seconds = positiveWholeNumber("seconds", values.seconds, DEFAULT_SECONDS);
  const only = values.only?.split(",").map((id) => id.trim());
  const unknown = only?.filter((id) => !CASES.some((c) => c.id === id)) ?? [];
  if (unknown.length > 0) failUsage(`--only: no case named ${unknown.join(", ")}\n${usage}`);
  const port = values.port === undefined ? 0 : positiveWholeNumber("port", values.port, 0);
  const cases = CASES.filter((c) => !only || only.includes(c.id));
  const log = (line: string) => console.error(`· ${line}`);

  ensureBuild(log);
  const scratch = await startScratchDatabase("bench_hostile", log);
  const databaseUrl = scratch.url;
  const attacker = "hostile";
  const attackerKey = await seedApiKey(databaseUrl, attacker);
  const bystanderKey = await seedApiKey(databaseUrl, "bystander");

  const rows: { hostileCase: HostileCase; result: LoadResult; probe: ProbeResult; rss: number }[] =
    [];
  let app: AppServer | null = null;
  let viewer: TestUser | null = null;
  try {
    if (cases.some((c) => c.id === "export")) {
      app = await startAppServer({ databaseUrl, port });
      log(`storing the ${EXPORT_RUN_DECISIONS}-decision run the export case reads`);
      await seedExportRun(app.baseUrl, attackerKey);
      // Downloads need a signed-in user: the attacker is a viewer of their own tenant.
      viewer = await createTestUser(databaseUrl, { roles: { [attacker]: "viewer" } });
      await app.stop();
    }
    for (const [index, hostileCase] of cases.entries()) {
      log(`${hostileCase.id}: ${hostileCase.title}`);
      // A fresh server per case, so no case inherits another's heap.
      app = await startAppServer({ databaseUrl, port, cpuProfileDir });
      const probe = await startProbe(app.baseUrl, bystanderKey, index + 1);
      const server = app;
      let peakRss = server.rssBytes() ?? 0;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, server.rssBytes() ?? 0);
      }, 50);
      const context: Context = {
        baseUrl: app.baseUrl,
        databaseUrl,
        attackerKey,
        attacker,
        viewer,
        viewerCookie: "",
        repeatForMs: seconds * 1000,
      };
      const warmed = await hostileCase.warm(context);
      if (warmed instanceof Response) await warmed.arrayBuffer();
      probe.start();
      const result = await hostileCase.run(context);
      const measured = await probe.finish();
      clearInterval(sampler);
      rows.push({ hostileCase, result, probe: measured, rss: peakRss });
      await app.stop();
      app = null;
    }
  } finally {
    await app?.stop();
    await scratch.drop();
  }

  console.log(
    `\nHostile-load benchmark, ${new Date().toISOString()}, ${os.cpus().length} cores, load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  console.log(
    "Latencies in ms. Targets under every load: health p99 <= 100 ms, server RSS <= 512 MiB, bystander ingest p99 <= 250 ms.\n",
  );
  const header = [
    "case",
    "load answers",
    "largest answer",
    "load s",
    "health samples",
    "health p50/p99 (not 200)",
    "bystander ingest p50/p99 (not 200)",
    "peak RSS",
  ];
  const table = rows.map(({ hostileCase, result, probe, rss }) => [
    hostileCase.id,
    `${statusList(result.statuses)}${result.withRetryAfter ? ` (Retry-After ×${result.withRetryAfter})` : ""}`,
    result.requests ? size(result.maxBytes) : "—",
    result.seconds.toFixed(1),
    String(probe.health.latencies.length),
    `${ms(probe.health.latencies, 50)} / ${ms(probe.health.latencies, 99)} (${notOk(probe.health.statuses)})`,
    `${ms(probe.ingest.latencies, 50)} / ${ms(probe.ingest.latencies, 99)} (${notOk(probe.ingest.statuses)})`,
    mib(rss),
  ]);
  const widths = header.map((h, c) =>
    Math.max(h.length, ...table.map((row) => row[c]?.length ?? 0)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const row of table) console.log(line(row));
  console.log("");
  for (const { hostileCase, result, probe } of rows) {
    const details = [
      result.note,
      `bystander statuses ${statusList(probe.ingest.statuses)}`,
      `health statuses ${statusList(probe.health.statuses)}`,
      probe.ingest.skipped + probe.health.skipped > 0
        ? `ticks skipped with ${20} requests still open: ingest ${probe.ingest.skipped}, health ${probe.health.skipped}`
        : undefined,
    ].filter(Boolean);
    console.log(`${hostileCase.id}: ${hostileCase.title}\n  ${details.join("; ")}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
