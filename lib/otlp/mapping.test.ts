import { describe, expect, it } from "vitest";
import { decisionEvent } from "@/lib/telemetry/events";
import { routeTurnAttributes } from "@/lib/telemetry/span-attributes";
import {
  aiSdkCall,
  aiSdkToolRun,
  genAiCall,
  genAiToolRun,
  span,
  spanId,
  traceId,
} from "@/tests/support/otel-spans";
import { readOfferedTools } from "./attributes";
import {
  type MappedLlmCall,
  type MappedToolRun,
  mapSpan,
  paletteOf,
  type SpanMapping,
} from "./mapping";

const T = traceId("mapping");
const START = Date.UTC(2026, 10, 1, 12, 0, 0);

function llmCall(mapping: SpanMapping): MappedLlmCall {
  if (mapping.kind !== "llm_call")
    throw new Error(`expected an LLM call, got ${JSON.stringify(mapping)}`);
  return mapping;
}

function refusal(mapping: SpanMapping): string {
  if (mapping.kind !== "refused") throw new Error(`expected a refusal, got ${mapping.kind}`);
  return mapping.message;
}

describe("mapSpan: LLM calls of an unrouted agent", () => {
  it("derives an off decision (offered = selected) and its outcome from an AI SDK call", () => {
    const mapped = llmCall(
      mapSpan(
        aiSdkCall({
          traceId: T,
          spanId: spanId(1),
          startMs: START,
          tools: ["search_docs", "lookup_order"],
          calls: [{ id: "call-1", name: "lookup_order" }],
          functionId: "support-agent",
          sessionId: "session-9",
        }),
      ),
    );
    expect(mapped).toMatchObject({
      runId: "session-9",
      role: "support-agent",
      callIds: ["call-1"],
      timestamp: new Date(START).toISOString(),
    });
    expect(mapped.decision?.mode).toBe("off");
    expect(mapped.decision?.event).toMatchObject({
      event_id: `otel:${T}:${spanId(1)}`,
      run_id: "session-9",
      offered: ["search_docs", "lookup_order"],
      selected: ["search_docs", "lookup_order"],
      dropped_tokens: 0,
      model: "mock-model-id",
      agent: "support-agent",
    });
    expect(mapped.outcome).toMatchObject({
      event_id: `otel:${T}:${spanId(1)}:called`,
      called: ["lookup_order"],
    });
    expect(mapped.toolSizes.map((s) => s.tool)).toEqual(["search_docs", "lookup_order"]);
    expect(mapped.toolSizes[0]?.tokens).toBeGreaterThan(10);
  });

  it("reads a GenAI chat span: role from gen_ai.agent.name, run from gen_ai.conversation.id", () => {
    const mapped = llmCall(
      mapSpan(
        genAiCall({
          traceId: T,
          spanId: spanId(2),
          startMs: START,
          tools: ["a", "b"],
          calls: [],
          agentName: "triage",
          conversationId: "conv-1",
        }),
      ),
    );
    expect(mapped.role).toBe("triage");
    expect(mapped.runId).toBe("conv-1");
    expect(mapped.outcome?.called).toEqual([]);
  });

  it("falls back to service.name for the role and to the trace for the run", () => {
    const mapped = llmCall(
      mapSpan(genAiCall({ traceId: T, spanId: spanId(3), startMs: START, tools: ["a"] })),
    );
    expect(mapped.role).toBe("support-bot");
    expect(mapped.runId).toBe(T);
    expect(mapped.outcome).toBeNull(); // no output recorded: calls unknown
  });

  it("keeps an LLM call without a tool list, with no decision", () => {
    const mapped = llmCall(mapSpan(aiSdkCall({ traceId: T, spanId: spanId(4), startMs: START })));
    expect(mapped.decision).toBeNull();
    expect(mapped.outcome).toBeNull();
    expect(mapped.toolSizes).toEqual([]);
  });

  it("uses routelens.role before the agent name", () => {
    const mapped = llmCall(
      mapSpan(
        aiSdkCall({
          traceId: T,
          spanId: spanId(5),
          startMs: START,
          tools: ["a"],
          functionId: "agent",
          attributes: { "routelens.role": "billing" },
        }),
      ),
    );
    expect(mapped.role).toBe("billing");
    expect(mapped.decision?.mode).toBe("off");
  });
});

describe("mapSpan: routed agents", () => {
  it("builds the v1 decision from routelens.* attributes", () => {
    const mapped = llmCall(
      mapSpan(
        aiSdkCall({
          traceId: T,
          spanId: spanId(6),
          startMs: START,
          tools: ["a"],
          calls: [{ id: "c", name: "a" }],
          attributes: {
            "routelens.mode": "enforce",
            "routelens.role": "planner",
            "routelens.offered": ["a", "b", "c"],
            "routelens.selected": ["a"],
            "routelens.dropped_tokens": 120,
            "routelens.forced_choice": "a",
            "routelens.turn_hop_index": 1,
            "routelens.config_version": "cfg-7",
            "routelens.trace": JSON.stringify([
              {
                stage: "intent",
                action: "select",
                kept: ["a"],
                dropped: ["b", "c"],
                added: [],
                reinstated: [],
                forced_choice: null,
                detail: "",
                degraded: false,
              },
            ]),
            "routelens.warnings": JSON.stringify([{ code: "empty_palette", stage: "role" }]),
          },
        }),
      ),
    );
    expect(mapped.decision?.mode).toBe("enforce");
    expect(mapped.decision?.event).toMatchObject({
      mode: "enforce",
      role: "planner",
      offered: ["a", "b", "c"],
      selected: ["a"],
      dropped_tokens: 120,
      forced_choice: "a",
      turn_hop_index: 1,
      config_version: "cfg-7",
      warnings: [{ code: "empty_palette", stage: "role" }],
    });
    expect(mapped.decision?.event.trace).toHaveLength(1);
    expect(mapped.outcome?.called).toEqual(["a"]);
  });

  it("refuses routelens.mode off (not a wire mode) and a trace in the wrong shape, by attribute", () => {
    const base = { traceId: T, spanId: spanId(7), startMs: START, tools: ["a"] };
    expect(
      refusal(mapSpan(aiSdkCall({ ...base, attributes: { "routelens.mode": "off" } }))),
    ).toMatch(/: attribute routelens\.mode: /);
    expect(
      refusal(
        mapSpan(
          aiSdkCall({
            ...base,
            attributes: {
              "routelens.mode": "observe",
              "routelens.trace": JSON.stringify([{ stage: "x", action: "nope" }]),
            },
          }),
        ),
      ),
    ).toMatch(/: attribute routelens\.trace \(trace\[0\]\.action\): /);
  });
});

describe("mapSpan: what lib/telemetry writes is what is read", () => {
  it("reads routeTurnAttributes back into the same decision", () => {
    const event = decisionEvent({
      mode: "observe",
      role: "planner",
      offered: ["search_docs", "create_ticket", "refund_order"],
      selected: ["search_docs"],
      forced_choice: "search_docs",
      dropped_tokens: 37,
      turn_hop_index: 2,
      config_version: "cfg-9",
      warnings: [{ code: "forced_reinstated", stage: "policy", detail: "put back" }],
    });
    const mapped = llmCall(
      mapSpan(
        aiSdkCall({
          traceId: T,
          spanId: spanId(12),
          startMs: START,
          tools: event.offered,
          calls: [{ id: "c", name: "refund_order" }],
          attributes: routeTurnAttributes(event) as Record<string, string | number | string[]>,
        }),
      ),
    );
    const { event_id, timestamp, run_id, iteration, ...fields } = event;
    expect(mapped.decision?.mode).toBe("observe");
    expect(mapped.decision?.event).toMatchObject(fields);
    // The identity routeTurn computes: the selected tools and the forced choice.
    expect(mapped.decision?.event.palette_identity).toBe("search_docs\u0001!search_docs");
    expect(mapped.outcome?.called).toEqual(["refund_order"]);
  });
});

describe("mapSpan: tool runs", () => {
  it("reads an AI SDK tool run, and the status message of a failed one", () => {
    const ok = mapSpan(
      aiSdkToolRun({ traceId: T, spanId: spanId(8), startMs: START, tool: "a", callId: "c" }),
    );
    expect(ok).toMatchObject({
      kind: "tool_run",
      tool: "a",
      callId: "c",
      error: null,
      runId: null,
    });
    const failed = mapSpan(
      genAiToolRun({
        traceId: T,
        spanId: spanId(9),
        startMs: START,
        tool: "b",
        callId: "d",
        statusCode: 2,
        statusMessage: "timeout",
      }),
    ) as MappedToolRun;
    expect(failed).toMatchObject({ kind: "tool_run", tool: "b", error: "timeout" });
  });

  it("ignores spans of no family", () => {
    expect(
      mapSpan(span({ traceId: T, spanId: spanId(10), startMs: START, name: "GET /" })),
    ).toEqual({
      kind: "ignored",
    });
  });
});

describe("mapSpan: refusals name the span, the attribute and the rule", () => {
  const base = { traceId: T, spanId: spanId(11), startMs: START };

  it("refuses malformed tool definitions", () => {
    const message = refusal(
      mapSpan(genAiCall({ ...base, attributes: { "gen_ai.tool.definitions": "[{oops" } })),
    );
    expect(message).toMatch(
      new RegExp(
        `^span ${spanId(11)} \\(chat gpt-test\\): attribute gen_ai\\.tool\\.definitions: must be a JSON array of tool definitions \\(`,
      ),
    );
  });

  it("refuses a tool name longer than the stored limit (validation equals storage)", () => {
    const message = refusal(mapSpan(genAiCall({ ...base, tools: ["x".repeat(201)] })));
    expect(message).toContain(
      "attribute gen_ai.tool.definitions (offered[0]): at most 200 characters",
    );
  });

  it("refuses a start outside the timestamp window", () => {
    const message = refusal(
      mapSpan(genAiCall({ ...base, startMs: Date.UTC(1999, 0, 1), tools: ["a"] })),
    );
    expect(message).toContain("startTimeUnixNano: must not be before 2000-01-01T00:00:00Z");
  });

  it("refuses a run id longer than 200 characters", () => {
    const message = refusal(
      mapSpan(genAiCall({ ...base, tools: ["a"], conversationId: "r".repeat(201) })),
    );
    expect(message).toContain("conversation or session id");
    expect(message).toContain("at most 200 characters");
  });

  it("refuses malformed ids", () => {
    expect(refusal(mapSpan(genAiCall({ ...base, traceId: "XYZ", tools: ["a"] })))).toContain(
      "traceId: must be 32 lowercase hex digits",
    );
  });
});

describe("mapSpan: what is derived from a tool list is derived once per list", () => {
  const definitions = (tools: { name: string; description?: string }[]) =>
    JSON.stringify(tools.map((t) => ({ type: "function", parameters: { type: "object" }, ...t })));
  const call = (n: number, attributes: Record<string, string | string[]>) =>
    span({
      traceId: T,
      spanId: spanId(40 + n),
      startMs: START + n,
      name: "chat gpt-test",
      attributes: { "gen_ai.operation.name": "chat", ...attributes },
    });

  it("gives every span of one list the same result as a list read anew", () => {
    // "a" twice: both names offered, the last definition's size kept (as without the memo).
    const text = definitions([
      { name: "a" },
      { name: "b" },
      { name: "a", description: "a longer description of a" },
    ]);
    const first = llmCall(mapSpan(call(1, { "gen_ai.tool.definitions": text })));
    const second = llmCall(mapSpan(call(2, { "gen_ai.tool.definitions": text })));
    const sizeOf = (definition: object) => Math.ceil(JSON.stringify(definition).length / 4);
    const parsed = JSON.parse(text) as object[];
    const expected = [
      { tool: "a", tokens: sizeOf(parsed[2] as object) },
      { tool: "b", tokens: sizeOf(parsed[1] as object) },
    ];
    for (const mapped of [first, second]) {
      expect(mapped.toolSizes).toEqual(expected);
      expect(mapped.decision?.event.offered).toEqual(["a", "b", "a"]);
      expect(mapped.decision?.event.selected).toEqual(["a", "b", "a"]);
    }
    // Shared, and frozen so no span's rows can change another's.
    expect(second.toolSizes).toBe(first.toolSizes);
    expect(second.decision?.event.offered).toBe(first.decision?.event.offered);
    expect(Object.isFrozen(first.decision?.event.offered)).toBe(true);
    // The same list read afresh (a copy is never memoised) derives an equal palette.
    const tools = readOfferedTools({ "gen_ai.tool.definitions": text })?.tools ?? [];
    const fresh = paletteOf([...tools]);
    expect(fresh).toEqual(paletteOf(tools));
    expect(fresh).not.toBe(paletteOf(tools));
  });

  it("refuses a list with an unstorable tool name on every span, naming the span's attribute", () => {
    const routed = {
      "routelens.mode": "enforce",
      "routelens.offered": ["a"],
      "routelens.selected": ["a"],
    };
    const text = definitions([{ name: "a" }, { name: "x".repeat(201) }]);
    for (let n = 0; n < 2; n++) {
      expect(refusal(mapSpan(call(n, { ...routed, "gen_ai.tool.definitions": text })))).toContain(
        "gen_ai.tool.definitions: at most 200 characters",
      );
    }
    const elements = [JSON.stringify({ name: "a" }), JSON.stringify({ name: "b\u0000" })];
    for (let n = 0; n < 2; n++) {
      expect(refusal(mapSpan(call(n, { ...routed, "ai.prompt.tools": elements })))).toContain(
        "ai.prompt.tools: must be valid Unicode text without NUL characters",
      );
    }
  });
});
