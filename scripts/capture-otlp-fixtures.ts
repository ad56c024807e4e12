/**
 * Captures what real OpenTelemetry exporters send, as OTLP/HTTP JSON bodies, into
 * `tests/fixtures/otlp/`: the agent of `tests/support/otel-agent.ts` (Vercel AI SDK with its
 * mock model, five tools, three steps) runs once per variant, and the real
 * `@opentelemetry/exporter-trace-otlp-http` exporter posts its spans to a local listener that
 * keeps the body. Unit tests of the mapping read these files instead of hand-written shapes.
 *
 *   npx tsx scripts/capture-otlp-fixtures.ts [file.json …]   (default: every file)
 *
 * Each file is the request body exactly as the exporter sent it; ids and times change on every
 * capture.
 */
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { exportSpans, runAgent, type SpanFamily } from "@/tests/support/otel-agent";

const OUT = path.join(process.cwd(), "tests/fixtures/otlp");

interface Variant {
  readonly file: string;
  readonly sdk: 6 | 7;
  readonly family: SpanFamily;
  readonly recordInputs: boolean;
}

const VARIANTS: readonly Variant[] = [
  { file: "ai-sdk-genai.json", sdk: 7, family: "genai", recordInputs: true },
  { file: "ai-sdk-legacy.json", sdk: 7, family: "ai", recordInputs: true },
  { file: "ai-sdk-genai-no-inputs.json", sdk: 7, family: "genai", recordInputs: false },
  { file: "ai-sdk-legacy-no-inputs.json", sdk: 7, family: "ai", recordInputs: false },
  { file: "ai-sdk-6.json", sdk: 6, family: "ai", recordInputs: true },
];

async function main() {
  const bodies: Buffer[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      bodies.push(Buffer.concat(chunks));
      response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const only = process.argv.slice(2);
    for (const variant of VARIANTS) {
      if (only.length > 0 && !only.includes(variant.file)) continue;
      const run = await runAgent({
        sdk: variant.sdk,
        family: variant.family,
        recordInputs: variant.recordInputs,
      });
      const before = bodies.length;
      const outcome = await exportSpans(run.spans, {
        url: `http://127.0.0.1:${port}/v1/traces`,
        apiKey: "rl_fixture",
        encoding: "json",
      });
      const body = bodies[before];
      if (outcome.code !== 0 || !body) throw new Error(`export of ${variant.file} failed`);
      writeFileSync(path.join(OUT, variant.file), body);
      console.log(`${variant.file}: ${run.spans.length} spans, ${body.length} bytes`);
    }
  } finally {
    server.close();
  }
}

await main();
