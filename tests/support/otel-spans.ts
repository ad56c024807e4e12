/**
 * Decoded OTLP spans (`OtlpSpan`) for unit and integration tests, shaped as the real libraries
 * write them: AI SDK 5/6 (`ai.*`), GenAI semantic conventions (`gen_ai.*`) and OpenInference.
 */
import type { Attributes, OtlpSpan } from "@/lib/otlp/types";

export const MS = 1_000_000n;

/** A trace id (32 hex digits) from a short label, so tests read well. */
export function traceId(label: string): string {
  return Buffer.from(label).toString("hex").padEnd(32, "0").slice(0, 32);
}

/** A span id (16 hex digits) from a number. */
export function spanId(n: number): string {
  return n.toString(16).padStart(16, "0");
}

export interface SpanOptions {
  traceId: string;
  spanId: string;
  /** Start in milliseconds since the epoch. */
  startMs: number;
  durationMs?: number;
  name?: string;
  attributes?: Attributes;
  resource?: Attributes;
  statusCode?: number;
  statusMessage?: string;
}

export function span(options: SpanOptions): OtlpSpan {
  const start = BigInt(options.startMs) * MS;
  return {
    traceId: options.traceId,
    spanId: options.spanId,
    parentSpanId: null,
    name: options.name ?? "span",
    startTimeUnixNano: start,
    endTimeUnixNano: start + BigInt(options.durationMs ?? 100) * MS,
    attributes: options.attributes ?? {},
    resource: options.resource ?? { "service.name": "support-bot" },
    statusCode: options.statusCode ?? 0,
    statusMessage: options.statusMessage ?? "",
  };
}

/** An AI SDK 5/6 tool definition as one element of `ai.prompt.tools`. */
export function aiSdkTool(name: string): string {
  return JSON.stringify({
    type: "function",
    name,
    description: `Does ${name}`,
    inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  });
}

/** An AI SDK 5/6 `ai.generateText.doGenerate` span offering `tools` and calling `calls`. */
export function aiSdkCall(
  options: Omit<SpanOptions, "name"> & {
    tools?: string[];
    /** Tool calls in the output; undefined: outputs not recorded. */
    calls?: { id: string; name: string }[];
    sessionId?: string;
    functionId?: string;
  },
): OtlpSpan {
  const attributes: Attributes = {
    "ai.model.id": "mock-model-id",
    "ai.operationId": "ai.generateText.doGenerate",
    ...(options.tools ? { "ai.prompt.tools": options.tools.map(aiSdkTool) } : {}),
    ...(options.calls === undefined
      ? {}
      : options.calls.length > 0
        ? {
            "ai.response.toolCalls": JSON.stringify(
              options.calls.map((c) => ({
                toolCallId: c.id,
                toolName: c.name,
                input: JSON.stringify({ q: "x" }),
              })),
            ),
            "ai.response.finishReason": "tool-calls",
          }
        : { "ai.response.text": "done", "ai.response.finishReason": "stop" }),
    ...(options.sessionId ? { "ai.telemetry.metadata.sessionId": options.sessionId } : {}),
    ...(options.functionId ? { "ai.telemetry.functionId": options.functionId } : {}),
    ...options.attributes,
  };
  return span({ ...options, name: "ai.generateText.doGenerate", attributes });
}

/** An AI SDK 5/6 `ai.toolCall` span. */
export function aiSdkToolRun(
  options: Omit<SpanOptions, "name"> & { tool: string; callId: string; sessionId?: string },
): OtlpSpan {
  return span({
    ...options,
    name: "ai.toolCall",
    attributes: {
      "ai.toolCall.name": options.tool,
      "ai.toolCall.id": options.callId,
      ...(options.sessionId ? { "ai.telemetry.metadata.sessionId": options.sessionId } : {}),
      ...options.attributes,
    },
  });
}

/** A GenAI semantic-conventions `chat` span (pydantic-ai's shape). */
export function genAiCall(
  options: Omit<SpanOptions, "name"> & {
    tools?: string[];
    calls?: { id: string; name: string }[];
    conversationId?: string;
    agentName?: string;
  },
): OtlpSpan {
  const attributes: Attributes = {
    "gen_ai.operation.name": "chat",
    "gen_ai.request.model": "gpt-test",
    ...(options.tools
      ? {
          "gen_ai.tool.definitions": JSON.stringify(
            options.tools.map((name) => ({
              type: "function",
              name,
              description: `Does ${name}`,
              parameters: { type: "object", properties: {} },
            })),
          ),
        }
      : {}),
    ...(options.calls === undefined
      ? {}
      : {
          "gen_ai.output.messages": JSON.stringify([
            {
              role: "assistant",
              parts: [
                { type: "text", content: "working on it" },
                ...options.calls.map((c) => ({
                  type: "tool_call",
                  id: c.id,
                  name: c.name,
                  arguments: { q: "x" },
                })),
              ],
              finish_reason: options.calls.length > 0 ? "tool_call" : "stop",
            },
          ]),
        }),
    ...(options.conversationId ? { "gen_ai.conversation.id": options.conversationId } : {}),
    ...(options.agentName ? { "gen_ai.agent.name": options.agentName } : {}),
    ...options.attributes,
  };
  return span({ ...options, name: "chat gpt-test", attributes });
}

/** A GenAI `execute_tool` span. */
export function genAiToolRun(
  options: Omit<SpanOptions, "name"> & { tool: string; callId: string },
): OtlpSpan {
  return span({
    ...options,
    name: `execute_tool ${options.tool}`,
    attributes: {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": options.tool,
      "gen_ai.tool.call.id": options.callId,
      ...options.attributes,
    },
  });
}
