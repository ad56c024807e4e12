import { describe, expect, it } from "vitest";
import { eventSchema } from "@/lib/schemas/events";
import { decisionEvent, stageRecord } from "@/lib/telemetry/events";
import { boundedIssues } from "./bounded-issues";

const numbers = (n: number) => Array.from({ length: n }, (_, i) => i);
const names = (n: number) => Array.from({ length: n }, (_, i) => `tool_${i}`);

describe("boundedIssues", () => {
  it("finds nothing in a valid event", () => {
    expect(boundedIssues(eventSchema, decisionEvent({ offered: names(500) }), 5)).toEqual([]);
  });

  it("stops at the limit in 1,000-item lists of the wrong type", () => {
    const event = decisionEvent({ trace: [] });
    const bad = { ...event, offered: numbers(1000), selected: numbers(1000) };
    const issues = boundedIssues(eventSchema, bad, 5);
    // Both fields are named before a fifth issue of either.
    expect(issues.map((issue) => issue.path)).toEqual([
      ["offered", 0],
      ["offered", 1],
      ["offered", 2],
      ["offered", 3],
      ["selected", 0],
    ]);
    expect(issues[0]?.message).toMatch(/expected string/);
  });

  it("finds a bad item past the first ones, with its full path", () => {
    const event = decisionEvent({ offered: names(600), selected: [], trace: [] });
    const bad = { ...event, offered: [...names(300), 7, ...names(299)] };
    const issues = boundedIssues(eventSchema, bad, 5);
    expect(issues.map((issue) => issue.path)).toEqual([["offered", 300]]);
  });

  it("finds a bad item nested in an item past the first ones", () => {
    const trace = Array.from({ length: 40 }, (_, i) => stageRecord({ stage: `s${i}` }));
    const bad = {
      ...decisionEvent({ trace }),
      trace: trace.map((record, i) =>
        i === 30 ? { ...record, kept: [...names(20), null, ...names(20)] } : record,
      ),
    };
    const issues = boundedIssues(eventSchema, bad, 5);
    expect(issues.map((issue) => issue.path)).toEqual([["trace", 30, "kept", 20]]);
  });

  it("refuses values nested 20,000 deep without exhausting the stack", () => {
    let deep: unknown = [];
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const unknownField = { ...decisionEvent(), surprise: deep };
    expect(boundedIssues(eventSchema, unknownField, 5)).toMatchObject([
      { code: "unrecognized_keys", keys: ["surprise"], path: [] },
    ]);
    const deepList = { ...decisionEvent({ trace: [] }), offered: deep };
    const issues = boundedIssues(eventSchema, deepList, 5);
    expect(issues.map((issue) => issue.path)).toEqual([["offered", 0]]);
    expect(issues[0]?.message).toMatch(/expected string/);
  });

  it("reports whole-list and whole-event rules that no single item breaks", () => {
    const tooMany = decisionEvent({ offered: names(1001), selected: [], trace: [] });
    expect(boundedIssues(eventSchema, tooMany, 5).map((issue) => issue.message)).toEqual([
      "at most 1000 tool names",
    ]);
    const nulLate = decisionEvent({
      offered: [...names(20), "a\u0000b"],
      selected: [],
      trace: [],
    });
    expect(boundedIssues(eventSchema, nulLate, 5).map((issue) => issue.path)).toEqual([
      ["offered", 20],
    ]);
  });

  it("names a list past its length limit next to other bad fields", () => {
    const bad = {
      ...decisionEvent({ trace: [] }),
      event_id: "",
      warnings: Array.from({ length: 65 }, () => ({ code: "empty_palette" })),
      offered: numbers(20),
    };
    const messages = boundedIssues(eventSchema, bad, 5).map(
      (issue) => `${issue.path.join(".")}: ${issue.message}`,
    );
    expect(messages).toContain("event_id: must not be empty");
    expect(messages).toContain("warnings: at most 64 warnings");
    expect(messages.some((m) => m.startsWith("offered.0:"))).toBe(true);
  });

  it("agrees with zod on which events are valid", () => {
    const cases: unknown[] = [
      decisionEvent(),
      { ...decisionEvent(), extra: 1 },
      { ...decisionEvent(), offered: [...names(9), ""] },
      { ...decisionEvent(), warnings: Array.from({ length: 65 }, () => ({ code: "x" })) },
      { type: "tool_call_outcome" },
      null,
      [],
    ];
    for (const value of cases) {
      expect(boundedIssues(eventSchema, value, 5).length === 0).toBe(
        eventSchema.safeParse(value).success,
      );
    }
  });
});
