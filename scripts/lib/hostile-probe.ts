/**
 * The measuring side of `npm run bench:hostile`, run as its own process so that the hostile
 * load (and reading its answers) never delays the measurements on the client side.
 *
 * While it runs it sends, at a steady rate and without waiting for earlier answers:
 * - `GET /api/health` every HEALTH_EVERY_MS, and
 * - a 100-event batch of a bystander tenant to `/api/ingest` every INGEST_EVERY_MS,
 * each with a 30 s timeout and at most MAX_IN_FLIGHT of each kind outstanding (a tick that
 * finds that many still open is counted as skipped). It prints `ready` once both have
 * answered once, starts recording on a `start` line on stdin, stops sending on `stop` (or
 * after a hard limit) and prints one JSON line of results.
 *
 *   tsx scripts/lib/hostile-probe.ts <baseUrl> <ingestKey> <seed>
 */
import { createInterface } from "node:readline";
import { PROBE_READY } from "./bench-args";
import { benchDecisions } from "./bench-events";

const HEALTH_EVERY_MS = 100;
const INGEST_EVERY_MS = 200;
const BATCH = 100;
const MAX_IN_FLIGHT = 20;
const TIMEOUT_MS = 30_000;
const HARD_LIMIT_MS = 15 * 60_000;

interface Series {
  latencies: number[];
  statuses: Record<string, number>;
  skipped: number;
}

const emptySeries = (): Series => ({ latencies: [], statuses: {}, skipped: 0 });

async function main() {
  const [baseUrl, key, seedText] = process.argv.slice(2);
  const seed = Number(seedText);
  let recording = false;
  let stopped = false;
  const health = emptySeries();
  const ingest = emptySeries();
  const inFlight = { health: 0, ingest: 0 };
  let batchNumber = 0;
  const encoder = new TextEncoder();

  const nextBody = () => {
    const start = new Date(Date.now() - 60_000);
    const events = benchDecisions(BATCH, seed * 100_000 + batchNumber++, start);
    return encoder.encode(JSON.stringify({ batch: events }));
  };

  async function timed(
    kind: "health" | "ingest",
    series: Series,
    request: () => Promise<Response>,
  ): Promise<number> {
    if (inFlight[kind] >= MAX_IN_FLIGHT) {
      if (recording) series.skipped++;
      return 0;
    }
    inFlight[kind]++;
    const record = recording;
    const t0 = performance.now();
    let status: string;
    try {
      const response = await request();
      await response.arrayBuffer();
      status = String(response.status);
    } catch (error) {
      status = (error as Error).name === "TimeoutError" ? "timeout" : "network error";
    }
    inFlight[kind]--;
    if (record && recording) {
      series.latencies.push(performance.now() - t0);
      series.statuses[status] = (series.statuses[status] ?? 0) + 1;
    }
    return Number(status) || 0;
  }

  const sendHealth = () =>
    timed("health", health, () =>
      fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(TIMEOUT_MS) }),
    );
  const sendIngest = () => {
    const body = nextBody();
    return timed("ingest", ingest, () =>
      fetch(`${baseUrl}/api/ingest`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      }),
    );
  };

  // Warm up: a few of each, one at a time, before saying ready.
  for (let i = 0; i < 5; i++) {
    await sendHealth();
    await sendIngest();
  }
  console.log(PROBE_READY);

  const healthTimer = setInterval(() => void sendHealth(), HEALTH_EVERY_MS);
  const ingestTimer = setInterval(() => void sendIngest(), INGEST_EVERY_MS);
  const finish = async () => {
    if (stopped) return;
    stopped = true;
    clearInterval(healthTimer);
    clearInterval(ingestTimer);
    // Wait for what is still open, so slow answers count too.
    while (inFlight.health + inFlight.ingest > 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    recording = false;
    console.log(JSON.stringify({ health, ingest }));
    process.exit(0);
  };
  setTimeout(() => void finish(), HARD_LIMIT_MS).unref();

  const lines = createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    if (line === "start") recording = true;
    if (line === "stop") void finish();
  });
  lines.on("close", () => void finish());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
