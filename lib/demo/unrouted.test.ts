import { describe, expect, it } from "vitest";
import { mapSpan } from "@/lib/otlp/mapping";
import { UNROUTED_DEMO_AGENT, unroutedDemoRuns } from "./unrouted";

const HOUR = 3_600_000;
const now = Date.UTC(2026, 10, 30, 12);

describe("unroutedDemoRuns", () => {
  const runs = unroutedDemoRuns(now - 24 * HOUR, now, 7);
  const mapped = runs.flat().map(mapSpan);

  it("is reproducible for a seed and about three runs an hour", () => {
    expect(unroutedDemoRuns(now - 24 * HOUR, now, 7)).toEqual(runs);
    expect(runs.length).toBeGreaterThan(40);
    expect(runs.length).toBeLessThan(110);
  });

  it("maps to mode-off calls of the triage agent and their tool runs, none refused", () => {
    const kinds = new Set(mapped.map((m) => m.kind));
    expect(kinds).toEqual(new Set(["llm_call", "tool_run"]));
    const calls = mapped.flatMap((m) => (m.kind === "llm_call" ? [m] : []));
    const withTools = calls.filter((call) => call.decision !== null);
    expect(withTools.length).toBeGreaterThan(calls.length * 0.8);
    for (const call of withTools) {
      expect(call.decision?.mode).toBe("off");
      expect(call.role).toBe(UNROUTED_DEMO_AGENT);
      expect(call.decision?.event.offered).toHaveLength(12);
    }
    // Some calls come from an instance that records no tool list (the Tools view's hint).
    expect(calls.some((call) => call.decision === null)).toBe(true);
  });

  it("never calls some tools, whose offers are the context tax", () => {
    const called = new Set(
      mapped.flatMap((m) => (m.kind === "llm_call" ? (m.outcome?.called ?? []) : [])),
    );
    expect(called.has("search_kb")).toBe(true);
    expect(called.has("delete_account")).toBe(false);
    expect(called.has("export_customer_data")).toBe(false);
    const runs = mapped.flatMap((m) => (m.kind === "tool_run" ? [m] : []));
    expect(runs.every((run) => run.tool !== null && run.callId !== null)).toBe(true);
    expect(runs.some((run) => run.error !== null)).toBe(true);
  });
});
