/**
 * `npm run bench:ingest-limits` — what three hostile ingest requests cost the server.
 *
 * Starts a scratch embedded PostgreSQL and the production build (`next start`) on it, then:
 *
 * 1. error-report amplification: one gzipped batch of 1,000 decisions whose `offered` and
 *    `selected` each hold 1,000 numbers (every one of them a per-event error) — the status,
 *    the response's size and the time to read it;
 * 2. parse amplification: a 5 MiB body of `{}` elements, gzipped to a few kB — the status
 *    and the server's CPU time per request (user + system, from /proc), then 24 such
 *    requests at once: their statuses and `/api/health` latency meanwhile;
 * 3. a burst of wrong API keys from one address (`--wrong-keys`, default 2,000, 8 in flight):
 *    the time it takes, the statuses, and a valid key's status right after.
 *
 *   npm run bench:ingest-limits -- [--wrong-keys 2000] [--repeat 3]
 *
 * Linux only (reads /proc). Figures are printed; nothing is asserted.
 */
import { gzipSync } from "node:zlib";
import { ensureBuild, startAppServer } from "./lib/app-server";
import { percentile } from "./lib/bench-args";
import { parseCommandLine, positiveWholeNumber } from "./lib/command-line";
import { amplificationBatch, emptyObjectsBody } from "./lib/hostile-ingest-bodies";
import { postIngest } from "./lib/ingest-request";
import { cpuSecondsOf } from "./lib/process-cpu";
import { startScratchDatabase } from "./lib/scratch-database";
import { seedApiKey } from "./lib/seed-key";

async function post(
  url: string,
  key: string,
  body: Uint8Array<ArrayBuffer> | string,
  gzip: boolean,
): Promise<{ status: number; bytes: number; ms: number; retryAfter: string | null }> {
  const started = performance.now();
  const response = await postIngest(url, key, body, { gzip });
  const bytes = (await response.arrayBuffer()).byteLength;
  return {
    status: response.status,
    bytes,
    ms: performance.now() - started,
    retryAfter: response.headers.get("retry-after"),
  };
}

function tally(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${n}× ${status}`)
    .join(", ");
}

async function main() {
  const { values } = parseCommandLine(
    { "wrong-keys": { type: "string" }, repeat: { type: "string" } },
    "usage: npm run bench:ingest-limits -- [--wrong-keys 2000] [--repeat 3]",
  );
  const wrongKeys = positiveWholeNumber("wrong-keys", values["wrong-keys"], 2_000);
  const repeat = positiveWholeNumber("repeat", values.repeat, 3);
  const log = (line: string) => console.error(`· ${line}`);
  ensureBuild(log);
  const scratch = await startScratchDatabase("bench_ingest_limits", log);
  const key = await seedApiKey(scratch.url, "bench-limits");
  const app = await startAppServer({ databaseUrl: scratch.url });
  const pid = app.child.pid;
  if (!pid) throw new Error("no server pid");
  const url = `${app.baseUrl}/api/ingest`;
  const rows: [string, string][] = [];
  try {
    // Warm the route up so the first measurement does not include compiling it.
    await post(url, key, '{"batch":[]}', false);

    const amplification = new Uint8Array(gzipSync(amplificationBatch()));
    log(`1. amplification batch: ${amplification.byteLength} bytes gzipped, ${repeat} times`);
    const amplified = [];
    for (let i = 0; i < repeat; i++) {
      const cpu = cpuSecondsOf(pid);
      amplified.push({
        ...(await post(url, key, amplification, true)),
        cpu: cpuSecondsOf(pid) - cpu,
      });
    }
    const last = amplified.at(-1);
    rows.push([
      "amplification batch",
      `${(amplification.byteLength / 1024).toFixed(1)} kB gzipped → ${last?.status}, ${last?.bytes.toLocaleString("en")} bytes`,
    ]);
    rows.push([
      "  time / server CPU",
      amplified.map((a) => `${(a.ms / 1000).toFixed(2)} s / ${a.cpu.toFixed(2)} s`).join("; "),
    ]);

    const empties = new Uint8Array(gzipSync(emptyObjectsBody()));
    log(`2. {} body: ${empties.byteLength} bytes gzipped, ${repeat} times, then 24 at once`);
    const parsed = [];
    for (let i = 0; i < repeat; i++) {
      const cpu = cpuSecondsOf(pid);
      parsed.push({ ...(await post(url, key, empties, true)), cpu: cpuSecondsOf(pid) - cpu });
    }
    rows.push([
      "{} body (5 MiB)",
      `${(empties.byteLength / 1024).toFixed(1)} kB gzipped → ${tally(parsed.map((p) => p.status))}`,
    ]);
    rows.push([
      "  server CPU / time",
      parsed.map((p) => `${p.cpu.toFixed(2)} s / ${(p.ms / 1000).toFixed(2)} s`).join("; "),
    ]);
    const health: number[] = [];
    let loading = true;
    const probe = (async () => {
      while (loading) {
        const started = performance.now();
        await fetch(`${app.baseUrl}/api/health`).then((r) => r.arrayBuffer());
        health.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const cpu24 = cpuSecondsOf(pid);
    const started24 = performance.now();
    const burst = await Promise.all(
      Array.from({ length: 24 }, () => post(url, key, empties, true)),
    );
    const seconds24 = (performance.now() - started24) / 1000;
    loading = false;
    await probe;
    rows.push([
      "24 {} bodies at once",
      `${tally(burst.map((b) => b.status))} in ${seconds24.toFixed(2)} s, server CPU ${(cpuSecondsOf(pid) - cpu24).toFixed(2)} s`,
    ]);
    rows.push([
      "  /api/health meanwhile",
      `p50 ${percentile(health, 50).toFixed(0)} ms, max ${Math.max(...health).toFixed(0)} ms (${health.length} probes)`,
    ]);

    log(`3. ${wrongKeys} wrong keys, 8 in flight`);
    const statuses: number[] = [];
    let next = 0;
    const cpuKeys = cpuSecondsOf(pid);
    const startedKeys = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < wrongKeys) {
          next += 1;
          const wrong = `rl_wrong-${next}-${Math.random().toString(36).slice(2)}`;
          statuses.push((await post(url, wrong, '{"batch":[]}', false)).status);
        }
      }),
    );
    const keySeconds = (performance.now() - startedKeys) / 1000;
    const keyCpu = cpuSecondsOf(pid) - cpuKeys;
    const valid = await post(url, key, '{"batch":[]}', false);
    rows.push([
      `${wrongKeys} wrong keys`,
      `${keySeconds.toFixed(2)} s, server CPU ${keyCpu.toFixed(2)} s: ${tally(statuses)}; a valid key right after: ${valid.status}`,
    ]);
  } finally {
    await app.stop();
    await scratch.drop();
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log("\nIngest limits benchmark");
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
}

main().catch((error: unknown) => {
  const cause = error instanceof Error && error.cause ? ` (${String(error.cause)})` : "";
  console.error(error instanceof Error ? `${error.message}${cause}` : String(error));
  process.exit(1);
});
