/**
 * OTLP exports for `npm run bench:otlp`, made by the real OpenTelemetry SDK and encoded by the
 * serializer the protobuf exporter uses: runs of five GenAI `chat` spans (the attributes
 * pydantic-ai and AI SDK 7 write), each offering 20 tools as `gen_ai.tool.definitions`; four
 * of the five call one tool, with its `execute_tool` span; one `invoke_agent` root per run.
 * Every export holds whole runs. The same calls as v1 events (decision + outcome) give the
 * `/api/ingest` figure of the same load.
 */
import { type Context, context, SpanKind, trace } from "@opentelemetry/api";
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { decodeTraceExport } from "@/lib/otlp/decode";
import type { OtlpSpan } from "@/lib/otlp/types";
import type { TelemetryEvent } from "@/lib/schemas/events";
import { mulberry32 } from "./bench-events";

export const CALLS_PER_RUN = 5;
export const TOOLS_PER_CALL = 20;
const CATALOG_SIZE = 40;

const VERBS = ["search", "get", "list", "create", "update", "close", "send", "export"];
const NOUNS = ["orders", "customers", "tickets", "invoices", "prices", "reports", "docs"];

/** Forty tools with short descriptions and small JSON schemas (~250 bytes each as JSON). */
const CATALOG = Array.from({ length: CATALOG_SIZE }, (_, i) => {
  const name = `${VERBS[i % VERBS.length]}_${NOUNS[i % NOUNS.length]}_${i}`;
  return {
    type: "function",
    name,
    description: `${name.replaceAll("_", " ")}: reads or changes the matching records for the current customer.`,
    parameters: {
      type: "object",
      properties: { id: { type: "string" }, limit: { type: "integer" } },
      required: ["id"],
    },
  };
});

/** The 20 tools offered in run `run`: a window over the catalogue that moves per run. */
function paletteOf(run: number) {
  const first = (run * 7) % CATALOG_SIZE;
  return Array.from(
    { length: TOOLS_PER_CALL },
    (_, i) => CATALOG[(first + i) % CATALOG_SIZE] as (typeof CATALOG)[number],
  );
}

export interface BenchExports {
  /** One protobuf ExportTraceServiceRequest per export. */
  bodies: Uint8Array[];
  /** The same LLM calls as v1 events, one `/api/ingest` batch per export. */
  v1Batches: TelemetryEvent[][];
  llmCalls: number;
  spans: number;
}

/**
 * `calls` LLM-call spans (rounded up to whole runs) in exports of `callsPerExport`, timed from
 * `start` on. `seed` picks which tool each call calls.
 */
export function benchExports(
  calls: number,
  callsPerExport: number,
  seed: number,
  start: Date,
  serviceName: string,
): BenchExports {
  const random = mulberry32(seed);
  const runsPerExport = Math.max(1, Math.floor(callsPerExport / CALLS_PER_RUN));
  const runs = Math.ceil(calls / CALLS_PER_RUN);
  const recorder = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": serviceName }),
    spanProcessors: [new SimpleSpanProcessor(recorder)],
  });
  const tracer = provider.getTracer("bench-otlp");
  const bodies: Uint8Array[] = [];
  const v1Batches: TelemetryEvent[][] = [];
  let spans = 0;
  let batch: TelemetryEvent[] = [];

  const flush = () => {
    const finished = recorder.getFinishedSpans();
    if (finished.length === 0) return;
    const body = ProtobufTraceSerializer.serializeRequest(finished);
    if (!body) throw new Error("the protobuf serializer produced no body");
    bodies.push(body);
    v1Batches.push(batch);
    spans += finished.length;
    recorder.reset();
    batch = [];
  };

  for (let run = 0; run < runs; run++) {
    const palette = paletteOf(run);
    const definitions = JSON.stringify(palette);
    const names = palette.map((tool) => tool.name);
    let ms = start.getTime() + run * 50;
    const root = tracer.startSpan("invoke_agent support", {
      kind: SpanKind.INTERNAL,
      startTime: ms,
      attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "support" },
    });
    const parent: Context = trace.setSpan(context.active(), root);
    for (let step = 0; step < CALLS_PER_RUN; step++) {
      const answers = step === CALLS_PER_RUN - 1;
      const tool = names[Math.floor(random() * names.length)] as string;
      const callId = `call_${run}_${step}`;
      const output = answers
        ? [{ role: "assistant", parts: [{ type: "text", content: "Done." }] }]
        : [
            {
              role: "assistant",
              parts: [{ type: "tool_call", id: callId, name: tool, arguments: { id: "A-1" } }],
            },
          ];
      const chat = tracer.startSpan(
        "chat model-1",
        {
          kind: SpanKind.CLIENT,
          startTime: ms,
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "model-1",
            "gen_ai.tool.definitions": definitions,
            "gen_ai.output.messages": JSON.stringify(output),
            "gen_ai.usage.input_tokens": 1200,
            "gen_ai.usage.output_tokens": 40,
          },
        },
        parent,
      );
      ms += 5;
      chat.end(ms);
      const timestamp = new Date(ms - 5).toISOString();
      const runId = root.spanContext().traceId;
      batch.push({
        type: "tool_routing_decision",
        event_id: `bench-otlp-${seed}-${run}-${step}`,
        timestamp,
        run_id: runId,
        role: "support",
        mode: "observe",
        iteration: step,
        turn_hop_index: step,
        offered: names,
        selected: names,
        forced_choice: null,
        dropped_tokens: 0,
        trace: [],
        warnings: [],
      });
      batch.push({
        type: "tool_call_outcome",
        event_id: `bench-otlp-${seed}-${run}-${step}:called`,
        timestamp,
        run_id: runId,
        role: "support",
        iteration: step,
        called: answers ? [] : [tool],
      });
      if (!answers) {
        const toolSpan = tracer.startSpan(
          `execute_tool ${tool}`,
          {
            kind: SpanKind.INTERNAL,
            startTime: ms,
            attributes: {
              "gen_ai.operation.name": "execute_tool",
              "gen_ai.tool.name": tool,
              "gen_ai.tool.call.id": callId,
            },
          },
          parent,
        );
        ms += 3;
        toolSpan.end(ms);
      }
    }
    root.end(ms);
    if ((run + 1) % runsPerExport === 0) flush();
  }
  flush();
  return { bodies, v1Batches, llmCalls: runs * CALLS_PER_RUN, spans };
}

/**
 * `exports` protobuf exports of `perExport` LLM calls each (tenant-free spans, calls from an
 * hour ago on), decoded as the endpoint decodes them: what the in-process store benchmarks
 * hand to `storeSpans`.
 */
export function decodedBenchExports(exports: number, perExport: number): OtlpSpan[][] {
  const start = new Date(Date.now() - 3_600_000);
  const built = benchExports(exports * perExport, perExport, 7, start, "bench-store");
  return built.bodies.map((body) => decodeTraceExport(body, "protobuf"));
}
