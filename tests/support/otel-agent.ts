/**
 * A real OpenTelemetry-instrumented agent for tests: the Vercel AI SDK (`ai`, with the mock
 * language model of `ai/test`) runs a three-step tool loop with telemetry on, its spans are
 * recorded by a real `BasicTracerProvider`, and the real OTLP exporters post them to a URL as
 * protobuf or JSON, optionally gzipped, with a Bearer key. Nothing here builds OTLP by hand: the
 * bodies the server sees are the ones an agent in production sends.
 *
 * The agent: five tools are offered on every step; step 1 calls `search_orders`, step 2 calls
 * `refund_order`, step 3 answers in text. Tool executions are real `execute` functions.
 */

import { LegacyOpenTelemetry, OpenTelemetry } from "@ai-sdk/otel";
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter as OtlpHttpJsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OtlpProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import {
  generateText,
  type LanguageModelMiddleware,
  stepCountIs,
  type Telemetry,
  tool,
  wrapLanguageModel,
} from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { generateText as generateTextV6, stepCountIs as stepCountIsV6 } from "ai-v6";
import { MockLanguageModelV3 } from "ai-v6/test";
import { z } from "zod";

/** The tools the agent offers on every step, in this order. */
export const AGENT_TOOLS = [
  "search_orders",
  "refund_order",
  "create_ticket",
  "lookup_customer",
  "send_email",
] as const;

/** What the model calls: step 1 and step 2, one tool each; step 3 answers. */
export const AGENT_CALLS = ["search_orders", "refund_order"] as const;

/**
 * Which span family the AI SDK emits: `genai` is `@ai-sdk/otel`'s `OpenTelemetry` (GenAI
 * semantic conventions, `chat` / `execute_tool` spans), `ai` is its `LegacyOpenTelemetry`
 * (the `ai.*` attributes of AI SDK 5/6, `ai.generateText.doGenerate` / `ai.toolCall` spans).
 */
export type SpanFamily = "genai" | "ai";

export interface AgentRunOptions {
  /**
   * The AI SDK's major version. 7 (default): `ai` with `@ai-sdk/otel`. 6: the `ai-v6` alias
   * (`ai@6`), whose `experimental_telemetry` emits the `ai.*` family itself (`family` is
   * ignored, `middleware` is not supported).
   */
  readonly sdk?: 6 | 7;
  readonly family?: SpanFamily;
  /** `ai.telemetry.functionId`: the agent's name. Default "support-agent". */
  readonly functionId?: string;
  /** The resource's `service.name`. Default "routelens-test-agent". */
  readonly serviceName?: string;
  /** The AI SDK's `recordInputs`; false drops the tool list from the spans. Default true. */
  readonly recordInputs?: boolean;
  /**
   * Language model middleware around the mock model (e.g. a routed agent's). It runs inside
   * each model call, with that call's span (`chat …` or `ai.generateText.doGenerate`) active.
   */
  readonly middleware?: readonly LanguageModelMiddleware[];
}

export interface AgentRun {
  /** Every finished span of the run, in the order they ended. */
  readonly spans: ReadableSpan[];
  readonly traceId: string;
  /** The model's final text. */
  readonly text: string;
}

const usage = {
  inputTokens: { total: 120, noCache: 120, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 24, text: 24, reasoning: undefined },
};

function modelAnswer(step: number) {
  const finishReason = (unified: "tool-calls" | "stop") => ({ unified, raw: unified });
  if (step === 0) {
    return {
      content: [
        {
          type: "tool-call" as const,
          toolCallId: "call_search_1",
          toolName: "search_orders",
          input: JSON.stringify({ customer: "C-1042" }),
        },
      ],
      finishReason: finishReason("tool-calls"),
      usage,
      warnings: [],
    };
  }
  if (step === 1) {
    return {
      content: [
        {
          type: "tool-call" as const,
          toolCallId: "call_refund_2",
          toolName: "refund_order",
          input: JSON.stringify({ orderId: "O-1042", reason: "damaged" }),
        },
      ],
      finishReason: finishReason("tool-calls"),
      usage,
      warnings: [],
    };
  }
  return {
    content: [{ type: "text" as const, text: "Order O-1042 has been refunded." }],
    finishReason: finishReason("stop"),
    usage,
    warnings: [],
  };
}

/**
 * A model call takes time, as a real one does: it answers once the millisecond clock has moved
 * on. OpenTelemetry JS stamps a span's start with `Date.now()`, so without this two steps of
 * the mock model can start in the same millisecond, and Routelens numbers such calls by span
 * id (SPEC §8), not by the order they ran in.
 */
export async function modelLatency(): Promise<void> {
  const began = Date.now();
  while (Date.now() <= began) await new Promise((resolve) => setTimeout(resolve, 1));
}

function agentTools() {
  return {
    search_orders: tool({
      description: "Find a customer's orders by customer id or date.",
      inputSchema: z.object({ customer: z.string(), since: z.string().optional() }),
      execute: async ({ customer }) => ({ orders: [{ id: "O-1042", customer }] }),
    }),
    refund_order: tool({
      description: "Refund an order in full.",
      inputSchema: z.object({ orderId: z.string(), reason: z.string() }),
      execute: async ({ orderId }) => ({ refunded: orderId }),
    }),
    create_ticket: tool({
      description: "Open a support ticket.",
      inputSchema: z.object({ title: z.string(), body: z.string() }),
      execute: async ({ title }) => ({ ticket: `T-${title.length}` }),
    }),
    lookup_customer: tool({
      description: "Load a customer's account.",
      inputSchema: z.object({ customer: z.string() }),
      execute: async ({ customer }) => ({ customer, plan: "pro" }),
    }),
    send_email: tool({
      description: "Email the customer.",
      inputSchema: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
      execute: async () => ({ sent: true }),
    }),
  };
}

let contextManagerInstalled = false;

/** Async context for the active span (once per process, as an application's SDK set-up does). */
function ensureContextManager() {
  if (contextManagerInstalled) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  contextManagerInstalled = true;
}

/**
 * Runs the agent once and returns its finished spans. Each call has a tracer provider of its
 * own (nothing global but the async context manager), so runs do not see each other's spans.
 */
export async function runAgent(options: AgentRunOptions = {}): Promise<AgentRun> {
  ensureContextManager();
  const recorder = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      "service.name": options.serviceName ?? "routelens-test-agent",
    }),
    spanProcessors: [new SimpleSpanProcessor(recorder)],
  });
  const tracer = provider.getTracer("routelens-test-agent");
  if (options.sdk === 6) {
    if (options.middleware) throw new Error("middleware is supported with AI SDK 7 only");
    let step = 0;
    const result = await generateTextV6({
      model: new MockLanguageModelV3({
        provider: "mock-provider",
        modelId: "mock-model-1",
        doGenerate: async () => {
          await modelLatency();
          return modelAnswer(step++);
        },
      }),
      // The same tool objects: `tool()` returns its argument in both versions.
      tools: agentTools() as unknown as Parameters<typeof generateTextV6>[0]["tools"],
      stopWhen: stepCountIsV6(5),
      prompt: "Customer C-1042 wants a refund for a damaged order.",
      experimental_telemetry: {
        isEnabled: true,
        tracer,
        functionId: options.functionId ?? "support-agent",
        recordInputs: options.recordInputs ?? true,
      },
    });
    return finish(provider, recorder, result.text);
  }

  const integration: Telemetry =
    (options.family ?? "genai") === "genai"
      ? new OpenTelemetry({ tracer })
      : new LegacyOpenTelemetry({ tracer });

  let step = 0;
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({
      provider: "mock-provider",
      modelId: "mock-model-1",
      doGenerate: async () => {
        await modelLatency();
        return modelAnswer(step++);
      },
    }),
    middleware: [...(options.middleware ?? [])],
  });

  const result = await generateText({
    model,
    tools: agentTools(),
    stopWhen: stepCountIs(5),
    prompt: "Customer C-1042 wants a refund for a damaged order.",
    telemetry: {
      functionId: options.functionId ?? "support-agent",
      recordInputs: options.recordInputs ?? true,
      integrations: [integration],
    },
  });
  return finish(provider, recorder, result.text);
}

async function finish(
  provider: BasicTracerProvider,
  recorder: InMemorySpanExporter,
  text: string,
): Promise<AgentRun> {
  await provider.forceFlush();
  const spans = recorder.getFinishedSpans();
  await provider.shutdown();
  const traceId = spans[0]?.spanContext().traceId;
  if (!traceId) throw new Error("the agent run produced no spans");
  return { spans, traceId, text };
}

export interface ExportTarget {
  /** The full traces URL, e.g. `${baseUrl}/api/otlp/v1/traces`. */
  readonly url: string;
  readonly apiKey: string;
  readonly encoding: "protobuf" | "json";
  readonly gzip?: boolean;
}

export interface ExportOutcome {
  /** 0 success, 1 failed (the OTLP SDK's ExportResultCode). */
  readonly code: number;
  readonly error?: Error;
}

/** The real OTLP/HTTP exporter for `target` (protobuf or JSON; gzip when asked). */
export function exporterFor(target: ExportTarget): OtlpProtoExporter | OtlpHttpJsonExporter {
  const config = {
    url: target.url,
    headers: { Authorization: `Bearer ${target.apiKey}` },
    compression: target.gzip ? ("gzip" as const) : ("none" as const),
    // The exporter retries 429/503; tests want the first answer.
    timeoutMillis: 10_000,
  };
  return target.encoding === "protobuf"
    ? new OtlpProtoExporter(config as ConstructorParameters<typeof OtlpProtoExporter>[0])
    : new OtlpHttpJsonExporter(config as ConstructorParameters<typeof OtlpHttpJsonExporter>[0]);
}

/** Posts `spans` in one export request through the real exporter and answers its result. */
export async function exportSpans(
  spans: readonly ReadableSpan[],
  target: ExportTarget,
): Promise<ExportOutcome> {
  const exporter = exporterFor(target);
  try {
    return await new Promise<ExportOutcome>((resolve) => {
      exporter.export([...spans], (result) => resolve(result));
    });
  } finally {
    await exporter.shutdown();
  }
}
