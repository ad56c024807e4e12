/**
 * The load side of `npm run bench:otlp`, run as its own process so the server's CPU and the
 * client's are measured apart. Builds every export before the clock starts (real SDK spans,
 * encoded by the protobuf exporter's serializer), warms the server up with another tenant's
 * key, then posts the timed exports with a fixed number in flight; last, when asked, posts the
 * same LLM calls as v1 events to `/api/ingest` for comparison. Prints one JSON line.
 */
import { postBodies, TIMED_RUN_STARTS } from "./bench-args";
import { benchExports } from "./bench-otlp-spans";

async function main() {
  const [
    baseUrl,
    warmupKey,
    warmupText,
    key,
    callsText,
    perExportText,
    concurrencyText,
    startText,
    ingestKey,
  ] = process.argv.slice(2);
  const perExport = Number(perExportText);
  const concurrency = Number(concurrencyText);
  const start = new Date(String(startText));
  const withIngest = Boolean(ingestKey && ingestKey !== "-");
  const warmup = encodedExports(Number(warmupText), perExport, 7, start, "bench-warmup", false);
  const timed = encodedExports(Number(callsText), perExport, 42, start, "bench", withIngest);
  const otlpUrl = `${baseUrl}/api/otlp/v1/traces`;
  await postBodies(
    otlpUrl,
    String(warmupKey),
    warmup.bodies,
    "application/x-protobuf",
    concurrency,
  );
  console.log(TIMED_RUN_STARTS);
  const otlp = await postBodies(
    otlpUrl,
    String(key),
    timed.bodies,
    "application/x-protobuf",
    concurrency,
  );
  const ingest = withIngest
    ? await postBodies(
        `${baseUrl}/api/ingest`,
        String(ingestKey),
        timed.v1Bodies,
        "application/json",
        concurrency,
      )
    : null;
  const bytes = timed.bodies.reduce((sum, body) => sum + body.length, 0);
  console.log(
    JSON.stringify({
      otlp,
      ingest,
      llmCalls: timed.llmCalls,
      spans: timed.spans,
      exportBytes: Math.round(bytes / timed.bodies.length),
    }),
  );
}

/**
 * The exports as request bodies, and with `v1` the same LLM calls as `/api/ingest` bodies. Only
 * bodies outlive the call: the events they were encoded from would stay on this process's heap
 * through the timed run, and every collection would walk them again.
 */
function encodedExports(
  calls: number,
  perExport: number,
  seed: number,
  start: Date,
  service: string,
  v1: boolean,
) {
  const { bodies, v1Batches, llmCalls, spans } = benchExports(
    calls,
    perExport,
    seed,
    start,
    service,
  );
  const encoder = new TextEncoder();
  const v1Bodies = v1 ? v1Batches.map((batch) => encoder.encode(JSON.stringify({ batch }))) : [];
  return { bodies, v1Bodies, llmCalls, spans };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
