/**
 * The load side of `npm run bench:ingest`, run as its own process so the server's CPU and
 * the client's are measured apart. Sends pre-built batches over HTTP with a fixed number in
 * flight and prints one JSON line of results.
 *
 * It first sends warm-up batches with a key of another tenant (so the measured tenant's rows
 * and rollups hold the timed events only), in this same process: the timed requests then run
 * on warm connections and compiled code on both sides, and the request bodies are encoded
 * once, before the clock starts, so the client adds as little as it can to the latencies.
 */
import { postBodies, TIMED_RUN_STARTS } from "./bench-args";
import { benchDecisions, benchDecisionsWithOutcomes } from "./bench-events";

async function main() {
  const [
    baseUrl,
    warmupKey,
    warmupText,
    key,
    countText,
    batchText,
    concurrencyText,
    startText,
    withOutcomes,
    lists,
  ] = process.argv.slice(2);
  const options = { listPerDecision: lists === "list-per-decision" };
  const batchSize = Number(batchText);
  const concurrency = Number(concurrencyText);
  const start = new Date(String(startText));
  const encoder = new TextEncoder();
  const bodiesOf = (count: number, seed: number) => {
    const events =
      withOutcomes === "outcomes"
        ? benchDecisionsWithOutcomes(count, seed, start, options)
        : benchDecisions(count, seed, start, options);
    const bodies: Uint8Array<ArrayBuffer>[] = [];
    for (let i = 0; i < events.length; i += batchSize) {
      bodies.push(encoder.encode(JSON.stringify({ batch: events.slice(i, i + batchSize) })));
    }
    return { bodies, events: events.length };
  };
  // Both sets of bodies are built first: the timed requests then follow the warm-up at once,
  // on connections the server has not yet closed as idle.
  const warmup = bodiesOf(Number(warmupText), 7);
  const timed = bodiesOf(Number(countText), 42);
  await postBodies(
    `${baseUrl}/api/ingest`,
    String(warmupKey),
    warmup.bodies,
    "application/json",
    concurrency,
  );
  console.log(TIMED_RUN_STARTS);
  const result = await postBodies(
    `${baseUrl}/api/ingest`,
    String(key),
    timed.bodies,
    "application/json",
    concurrency,
  );
  console.log(JSON.stringify({ ...result, events: timed.events }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
