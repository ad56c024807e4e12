/**
 * The mapping against what the real exporters send: the OTLP/HTTP JSON bodies of a Vercel AI
 * SDK agent (five tools, three steps: search_orders, refund_order, answer) captured in
 * tests/fixtures/otlp, decoded by the endpoint's decoder.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decodeTraceExport } from "./decode";
import { joinToolRuns } from "./join-tool-runs";
import { type MappedLlmCall, type MappedToolRun, mapSpan } from "./mapping";

const TOOLS = ["search_orders", "refund_order", "create_ticket", "lookup_customer", "send_email"];

function mapFixture(name: string) {
  const body = readFileSync(new URL(`../../tests/fixtures/otlp/${name}.json`, import.meta.url));
  const mapped = decodeTraceExport(new Uint8Array(body), "json").map(mapSpan);
  expect(mapped.filter((m) => m.kind === "refused")).toEqual([]);
  const calls = mapped
    .filter((m): m is MappedLlmCall => m.kind === "llm_call")
    .sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0));
  const toolRuns = mapped.filter((m): m is MappedToolRun => m.kind === "tool_run");
  return { calls, toolRuns };
}

describe.each([
  ["ai-sdk-genai", "routelens-test-agent"],
  ["ai-sdk-legacy", "support-agent"],
])("mapping %s (recordInputs on)", (fixture, role) => {
  it("finds three LLM calls offering the five tools, the two calls in order, and the joined tool runs", () => {
    const { calls, toolRuns } = mapFixture(fixture);
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.decision?.mode).toBe("off");
      expect([...(call.decision?.event.offered ?? [])].sort()).toEqual([...TOOLS].sort());
      expect(call.decision?.event.selected).toEqual(call.decision?.event.offered);
      expect(call.role).toBe(role);
      expect(call.runId).toBe(call.traceId);
      expect(call.decision?.event.model).toBe("mock-model-1");
      expect(call.toolSizes).toHaveLength(5);
    }
    expect(calls.map((c) => c.outcome?.called)).toEqual([["search_orders"], ["refund_order"], []]);

    const joined = joinToolRuns(calls, toolRuns);
    expect(
      joined
        .map((j) => [j.toolRun.tool, calls.indexOf(j.call as MappedLlmCall), j.joinedBy])
        .sort(),
    ).toEqual([
      ["refund_order", 1, "call_id"],
      ["search_orders", 0, "call_id"],
    ]);
  });
});

describe.each(["ai-sdk-genai-no-inputs", "ai-sdk-legacy-no-inputs"])(
  "mapping %s (recordInputs off)",
  (fixture) => {
    it("keeps the three LLM calls without a tool list: no decision, still the call ids", () => {
      const { calls, toolRuns } = mapFixture(fixture);
      expect(calls).toHaveLength(3);
      expect(calls.map((c) => c.decision)).toEqual([null, null, null]);
      expect(calls.map((c) => c.callIds)).toEqual([["call_search_1"], ["call_refund_2"], []]);
      expect(toolRuns.map((t) => t.callId).sort()).toEqual(["call_refund_2", "call_search_1"]);
    });
  },
);
