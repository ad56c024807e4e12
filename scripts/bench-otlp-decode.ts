/**
 * `npx tsx scripts/bench-otlp-decode.ts` — what decoding OTLP trace exports costs the
 * server's thread, in this process (no server, no database): two hostile 5 MiB bodies that
 * `lib/otlp/decode.ts` must refuse before building their objects (protobuf of empty
 * attributes; JSON of `{}` elements), and a valid export of 500 LLM calls with 20 tool
 * definitions each plus 500 tool runs, in protobuf and in OTLP JSON. Prints the median of
 * several runs of each; nothing is asserted.
 */
import { create, type MessageInitShape, toBinary, toJson } from "@bufbuild/protobuf";
import { RequestRejected } from "@/lib/ingest/request";
import { decodeTraceExport, type OtlpEncoding } from "@/lib/otlp/decode";
import { ExportTraceServiceRequestSchema } from "@/lib/otlp/gen/opentelemetry/proto/collector/trace/v1/trace_service_pb";
import type { SpanSchema } from "@/lib/otlp/gen/opentelemetry/proto/trace/v1/trace_pb";

const MiB = 1024 * 1024;

function measure(label: string, body: Uint8Array, encoding: OtlpEncoding, runs: number): void {
  const times: number[] = [];
  let outcome = "";
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    try {
      outcome = `decoded ${decodeTraceExport(body, encoding).length} spans`;
    } catch (error) {
      if (!(error instanceof RequestRejected)) throw error;
      outcome = `refused ${error.status}`;
    }
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(runs / 2)] ?? Number.NaN;
  const size = `${(body.length / MiB).toFixed(2)} MiB`;
  console.log(
    `${label} (${size}, ${encoding}): ${outcome}, median ${median.toFixed(1)} ms of ${runs}`,
  );
}

/** A length-delimited field `field` holding `inner`, as protobuf encodes it. */
function lengthDelimited(field: number, inner: Uint8Array): Uint8Array {
  const length: number[] = [];
  for (let n = inner.length; ; n >>>= 7) {
    if (n < 128) {
      length.push(n);
      break;
    }
    length.push((n & 127) | 128);
  }
  const out = new Uint8Array(1 + length.length + inner.length);
  out[0] = (field << 3) | 2;
  out.set(length, 1);
  out.set(inner, 1 + length.length);
  return out;
}

// resourceSpans (1) → scopeSpans (2) → spans (2) holding nothing but empty attributes (9).
const emptyAttributes = new Uint8Array(5 * MiB - 32);
for (let i = 0; i < emptyAttributes.length; i += 2) emptyAttributes[i] = (9 << 3) | 2;
const protobufBomb = lengthDelimited(1, lengthDelimited(2, lengthDelimited(2, emptyAttributes)));
const jsonBomb = new TextEncoder().encode(
  `{"resourceSpans":[${"{},".repeat(Math.floor((5 * MiB) / 3) - 10)}{}]}`,
);

const text = (value: string) => ({ value: { case: "stringValue" as const, value } });
const id = (n: number, bytes: number) =>
  new Uint8Array(Buffer.from(n.toString(16).padStart(bytes * 2, "1"), "hex"));
const tools = Array.from({ length: 20 }, (_, i) =>
  text(
    JSON.stringify({
      type: "function",
      name: `tool_${i}`,
      description: "Looks something up for the agent; a sentence of description.",
      inputSchema: { type: "object", properties: { query: { type: "string" } } },
    }),
  ),
);
const spans: MessageInitShape<typeof SpanSchema>[] = [];
for (let i = 1; i <= 500; i++) {
  const base = { traceId: id(i, 16), startTimeUnixNano: 1n, endTimeUnixNano: 2n };
  spans.push({
    ...base,
    spanId: id(i, 8),
    name: "ai.generateText.doGenerate",
    attributes: [
      {
        key: "ai.prompt.tools",
        value: { value: { case: "arrayValue", value: { values: tools } } },
      },
      {
        key: "ai.response.toolCalls",
        value: text(JSON.stringify([{ toolCallId: `call-${i}`, toolName: "tool_1", input: "{}" }])),
      },
      { key: "ai.model.id", value: text("model") },
      { key: "ai.telemetry.functionId", value: text("agent") },
    ],
  });
  spans.push({
    ...base,
    spanId: id(100_000 + i, 8),
    name: "ai.toolCall",
    attributes: [
      { key: "ai.toolCall.name", value: text("tool_1") },
      { key: "ai.toolCall.id", value: text(`call-${i}`) },
    ],
  });
}
const request = create(ExportTraceServiceRequestSchema, {
  resourceSpans: [{ scopeSpans: [{ spans }] }],
});
const json = toJson(ExportTraceServiceRequestSchema, request) as {
  resourceSpans: { scopeSpans: { spans: { traceId: string; spanId: string }[] }[] }[];
};
for (const span of json.resourceSpans[0]?.scopeSpans[0]?.spans ?? []) {
  span.traceId = Buffer.from(span.traceId, "base64").toString("hex");
  span.spanId = Buffer.from(span.spanId, "base64").toString("hex");
}

measure("empty attributes", protobufBomb, "protobuf", 5);
measure("{} elements", jsonBomb, "json", 5);
const valid = "500 LLM calls x 20 tools + 500 tool runs";
measure(valid, toBinary(ExportTraceServiceRequestSchema, request), "protobuf", 9);
measure(valid, new TextEncoder().encode(JSON.stringify(json)), "json", 9);
