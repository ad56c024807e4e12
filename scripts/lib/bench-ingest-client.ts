/**
 * The load side of `npm run bench:ingest`, run as its own process so the server's CPU and
 * the client's are measured apart. Sends pre-built batches over HTTP with a fixed number in
 * flight and prints one JSON line of results.
 */
import { benchDecisions } from "./bench-events";

async function main() {
  const [baseUrl, key, countText, batchText, concurrencyText, seedText, startText] =
    process.argv.slice(2);
  const count = Number(countText);
  const batchSize = Number(batchText);
  const concurrency = Number(concurrencyText);
  const events = benchDecisions(count, Number(seedText), new Date(String(startText)));
  const bodies: string[] = [];
  for (let i = 0; i < events.length; i += batchSize) {
    bodies.push(JSON.stringify({ batch: events.slice(i, i + batchSize) }));
  }
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  async function worker() {
    while (next < bodies.length) {
      const body = bodies[next++] as string;
      const t0 = performance.now();
      const response = await fetch(`${baseUrl}/api/ingest`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body,
      });
      await response.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (response.status !== 200) failures++;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ seconds, latencies, failures, requests: bodies.length }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
