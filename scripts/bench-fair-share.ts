/**
 * Fair sharing under a flood (docs/LIMITS.md): one tenant sends batches of 500 decisions at
 * full speed from many connections, never waiting for Retry-After, while another sends 200
 * events/s (a batch of 20 every 100 ms, on schedule whatever the answers). Prints the steady
 * tenant's latency (p50, p99, max), what it sent and what was stored, and the flooder's answers.
 * The flooder runs in a process of its own, the steady tenant in this one, the server in a third.
 *
 *   npm run bench:fair-share -- [--seconds 30] [--flood-concurrency 16 (0: no flood)]
 *                               [--flood-limit 2000] [--flood-burst 4000] [--flood-requests 8]
 *
 * `--flood-limit` is the flooding tenant's events per second, stored as an admin would
 * (`tenant_ingest_limits`), with `--flood-burst` and `--flood-requests` (requests in progress);
 * `--flood-limit 0` stores none, so the flooder has the defaults (the environment's), to compare.
 * The steady tenant always has the defaults. `--flood-concurrency 0` runs the steady tenant
 * alone (its latency on this machine as it is), and FAIR_SHARE_FLOOD_BATCH=<n> changes the
 * flood's batch size. The server is the production build with its own
 * PostgreSQL under .data/bench-pg.
 */
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import pg from "pg";
import type { ToolRoutingDecision } from "@/lib/schemas/events";
import { ensureBuild, startAppServer } from "./lib/app-server";
import { percentile } from "./lib/bench-args";
import { benchDecisions } from "./lib/bench-events";
import { parseCommandLine, positiveWholeNumber } from "./lib/command-line";
import { startScratchDatabase } from "./lib/scratch-database";
import { seedApiKey } from "./lib/seed-key";

const FLOOD_BATCH = Number(process.env.FAIR_SHARE_FLOOD_BATCH ?? 500);
const STEADY_BATCH = 20;
const STEADY_EVERY_MS = 100;
/** Distinct flood bodies built ahead (sent in turn; a repeat is stored once). */
const FLOOD_BODIES = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function bodyOf(events: ToolRoutingDecision[]): string {
  return JSON.stringify({ batch: events });
}

interface FloodResult {
  requests: number;
  ok: number;
  refused: number;
  other: number;
  admittedEvents: number;
}

/**
 * The flooder, in its own process (so its client work does not delay the steady tenant's
 * timings): sends the flood bodies in turn from `concurrency` connections for `durationMs` from
 * when they are built, and prints its counts as JSON.
 */
async function floodChild(url: string, key: string, concurrency: number, durationMs: number) {
  const start = new Date(Date.now() - 3_600_000);
  const bodies = Array.from({ length: FLOOD_BODIES }, (_, n) =>
    bodyOf(benchDecisions(FLOOD_BATCH, 1_000 + n, start)),
  );
  process.stdout.write("ready\n");
  const until = Date.now() + durationMs;
  const flood: FloodResult = { requests: 0, ok: 0, refused: 0, other: 0, admittedEvents: 0 };
  let next = 0;
  const worker = async () => {
    while (Date.now() < until) {
      const body = bodies[next++ % FLOOD_BODIES] as string;
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body,
        });
        await response.arrayBuffer();
        flood.requests++;
        if (response.status === 200) {
          flood.ok++;
          flood.admittedEvents += FLOOD_BATCH;
        } else if (response.status === 429) flood.refused++;
        else flood.other++;
      } catch {
        flood.other++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  process.stdout.write(`${JSON.stringify(flood)}\n`);
}

/** Starts the flooder process; resolves with its counts when it ends. */
function startFlooder(
  url: string,
  key: string,
  concurrency: number,
  durationMs: number,
): { ready: Promise<void>; done: Promise<FloodResult> } {
  const child = spawn(
    process.execPath,
    [
      ...process.execArgv,
      process.argv[1] as string,
      "--flooder-child",
      url,
      key,
      String(concurrency),
      String(durationMs),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  child.stdout.setEncoding("utf8").on("data", (text: string) => {
    output += text;
    if (output.includes("ready\n")) onReady();
  });
  const done = new Promise<FloodResult>((resolve, reject) => {
    child.once("exit", (code) => {
      const last = output.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !last.startsWith("{")) reject(new Error(`the flooder exited with ${code}`));
      else resolve(JSON.parse(last) as FloodResult);
    });
  });
  return { ready, done };
}

async function main() {
  if (process.argv[2] === "--flooder-child") {
    const [url, key, concurrency, durationMs] = process.argv.slice(3);
    await floodChild(url as string, key as string, Number(concurrency), Number(durationMs));
    return;
  }
  const { values } = parseCommandLine(
    {
      seconds: { type: "string" },
      "flood-concurrency": { type: "string" },
      "flood-limit": { type: "string" },
      "flood-burst": { type: "string" },
      "flood-requests": { type: "string" },
      port: { type: "string" },
    },
    "usage: npm run bench:fair-share -- [--seconds 30] [--flood-concurrency 16] [--flood-limit 2000] [--flood-burst 4000] [--flood-requests 8] [--port 0]",
  );
  const seconds = positiveWholeNumber("seconds", values.seconds, 30);
  // 0: no flood, the steady tenant alone (its latency on this machine without the flood).
  const floodConcurrency =
    values["flood-concurrency"] === "0"
      ? 0
      : positiveWholeNumber("flood-concurrency", values["flood-concurrency"], 16);
  const floodLimit =
    values["flood-limit"] === "0"
      ? 0
      : positiveWholeNumber("flood-limit", values["flood-limit"], 2_000);
  const floodBurst = positiveWholeNumber("flood-burst", values["flood-burst"], 2 * floodLimit || 1);
  const floodRequests = positiveWholeNumber("flood-requests", values["flood-requests"], 8);
  const port = values.port === undefined ? 0 : positiveWholeNumber("port", values.port, 0);
  const log = (line: string) => console.error(`· ${line}`);

  ensureBuild(log);
  const scratch = await startScratchDatabase("bench_fair_share", log);
  const databaseUrl = scratch.url;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const floodKey = await seedApiKey(databaseUrl, "flooder");
  const steadyKey = await seedApiKey(databaseUrl, "steady");
  if (floodLimit > 0) {
    await db.query(
      `INSERT INTO tenant_ingest_limits
         (tenant_id, tenant_events_per_second, tenant_burst, tenant_concurrent_requests)
       VALUES ('flooder', $1, $2, $3)`,
      [floodLimit, floodBurst, floodRequests],
    );
  }
  const app = await startAppServer({ databaseUrl, port });
  const start = new Date(Date.now() - 3_600_000);
  try {
    log(
      `flooder: batches of ${FLOOD_BATCH}, ${floodConcurrency} in flight, no waiting; ${floodLimit > 0 ? `limits ${floodLimit} events/s, burst ${floodBurst}, ${floodRequests} in progress` : "the default limits"}`,
    );
    log(`steady tenant: ${STEADY_BATCH} events every ${STEADY_EVERY_MS} ms for ${seconds} s`);
    const steadyCount = Math.floor((seconds * 1000) / STEADY_EVERY_MS);
    const steadyBodies = Array.from({ length: steadyCount }, (_, n) =>
      bodyOf(benchDecisions(STEADY_BATCH, 100_000 + n, start)),
    );
    const post = (key: string, body: string) =>
      fetch(`${app.baseUrl}/api/ingest`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body,
      });

    // Warm the server up (both tenants' first requests) before the timed run.
    for (const key of [floodKey, steadyKey]) {
      await (await post(key, bodyOf(benchDecisions(10, 7, start)))).text();
    }

    const loadAtStart = loadavg()
      .map((value) => value.toFixed(2))
      .join(" ");
    const latencies: number[] = [];
    const steadyStatuses = new Map<string, number>();
    const steady = async () => {
      const began = performance.now();
      const requests: Promise<void>[] = [];
      for (let n = 0; n < steadyCount; n++) {
        await sleep(Math.max(0, began + n * STEADY_EVERY_MS - performance.now()));
        const sent = performance.now();
        requests.push(
          post(steadyKey, steadyBodies[n] as string)
            .then(async (response) => {
              await response.arrayBuffer();
              latencies.push(performance.now() - sent);
              const status = String(response.status);
              steadyStatuses.set(status, (steadyStatuses.get(status) ?? 0) + 1);
            })
            .catch(() => {
              steadyStatuses.set("error", (steadyStatuses.get("error") ?? 0) + 1);
            }),
        );
      }
      await Promise.all(requests);
    };
    // The flood starts first and runs as long as the steady tenant sends.
    const noFlood: FloodResult = { requests: 0, ok: 0, refused: 0, other: 0, admittedEvents: 0 };
    const flooder =
      floodConcurrency > 0
        ? startFlooder(
            `${app.baseUrl}/api/ingest`,
            floodKey,
            floodConcurrency,
            1_500 + seconds * 1000,
          )
        : { ready: Promise.resolve(), done: Promise.resolve(noFlood) };
    await flooder.ready;
    await sleep(floodConcurrency > 0 ? 1_000 : 0);
    const began = performance.now();
    const [flood] = await Promise.all([flooder.done, steady()]);
    const elapsed = (performance.now() - began) / 1000;
    const loadAtEnd = loadavg()
      .map((value) => value.toFixed(2))
      .join(" ");

    const { rows } = await db.query<{ tenant_id: string; n: number }>(
      "SELECT tenant_id, count(*)::int AS n FROM decisions GROUP BY tenant_id",
    );
    const stored = Object.fromEntries(rows.map((row) => [row.tenant_id, row.n]));
    const steadySent = steadyCount * STEADY_BATCH;
    const table = [
      [
        "flooder limits",
        floodLimit > 0
          ? `${floodLimit} events/s, burst ${floodBurst}, ${floodRequests} requests in progress`
          : "defaults (environment)",
      ],
      [
        "flooder answers",
        `${flood.requests} requests: ${flood.ok} × 200, ${flood.refused} × 429, ${flood.other} other; ${Math.round(flood.admittedEvents / elapsed)} events/s admitted`,
      ],
      [
        "steady sent",
        `${steadySent} events in ${steadyCount} batches of ${STEADY_BATCH} (${Math.round(steadySent / elapsed)} events/s)`,
      ],
      ["steady answers", [...steadyStatuses].map(([status, n]) => `${n} × ${status}`).join(", ")],
      ["steady stored", `${(stored.steady ?? 0) - 10} of ${steadySent}`],
      ["steady latency p50", `${percentile(latencies, 50).toFixed(1)} ms`],
      ["steady latency p99", `${percentile(latencies, 99).toFixed(1)} ms`],
      ["steady latency max", `${Math.max(...latencies).toFixed(1)} ms`],
      ["load average (1, 5, 15 min)", `${loadAtStart} at the start, ${loadAtEnd} at the end`],
    ];
    const width = Math.max(...table.map(([k]) => (k as string).length));
    console.log(`\nFair-share benchmark (${elapsed.toFixed(1)} s)`);
    for (const [k, v] of table) console.log(`  ${(k as string).padEnd(width)}  ${v}`);
  } finally {
    await db.end();
    await app.stop();
    await scratch.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
