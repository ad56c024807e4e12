import { describe, expect, it } from "vitest";
import { buildWaterfall, classifyCalledTools, prepareIteration, prepareRunTrace } from "./trace";
import type { DecisionRecord, OutcomeRecord } from "./types";
import { describeUnroutedCall } from "./unrouted-call";

function stage(
  name: string,
  action: string,
  lists: { kept?: string[]; dropped?: string[]; added?: string[]; reinstated?: string[] } = {},
  extra: Record<string, unknown> = {},
) {
  return {
    stage: name,
    action,
    kept: lists.kept ?? [],
    dropped: lists.dropped ?? [],
    added: lists.added ?? [],
    reinstated: lists.reinstated ?? [],
    forced_choice: null,
    detail: "",
    degraded: false,
    ...extra,
  };
}

function decision(overrides: Partial<DecisionRecord> = {}): DecisionRecord {
  return {
    id: 1,
    iteration: 0,
    ts: "2026-03-10T10:00:00.000Z",
    role: "action",
    mode: "observe",
    turnHopIndex: 0,
    model: "model-x",
    agent: null,
    forcedChoice: "lookup",
    configVersion: "cfg1",
    intent: { label: "action", matched_tool_keywords: [] },
    offered: ["lookup", "search", "email", "delete"],
    selected: ["lookup", "search"],
    dropped: ["email", "delete"],
    droppedTokens: 40,
    reinstatements: 1,
    emptyPaletteWarnings: 1,
    stageErrors: 0,
    trace: [
      stage("intent", "select", {
        kept: ["search", "email"],
        dropped: ["lookup", "delete"],
        reinstated: ["lookup"],
      }),
      stage(
        "role_palette",
        "abstain",
        { kept: ["lookup", "search", "email"] },
        { detail: "empty palette" },
      ),
      stage("policy", "select", { kept: ["lookup", "search"], dropped: ["email"] }),
    ],
    warnings: [
      { code: "forced_reinstated", stage: "intent", detail: "forced tool lookup was put back" },
      { code: "empty_palette", stage: "role_palette" },
    ],
    hasOutcome: true,
    called: ["search", "email"],
    harmfulTools: ["email"],
    ...overrides,
  };
}

describe("buildWaterfall", () => {
  it("goes offered → each stage → selected with the change at each step", () => {
    const steps = buildWaterfall(
      4,
      [
        { stage: "intent", action: "select", sizeAfter: 3 },
        { stage: "policy", action: "select", sizeAfter: 2 },
      ],
      2,
    );
    expect(steps.map((s) => [s.label, s.size, s.delta])).toEqual([
      ["offered", 4, 0],
      ["intent", 3, -1],
      ["policy", 2, -1],
      ["selected", 2, 0],
    ]);
  });
});

describe("classifyCalledTools", () => {
  it("flags called tools that were offered but not selected as harmful drops", () => {
    expect(classifyCalledTools(["a", "b", "zzz"], ["a", "b"], ["a"], [])).toEqual([
      { name: "a", harmful: false, notOffered: false },
      { name: "b", harmful: true, notOffered: false },
      { name: "zzz", harmful: false, notOffered: true },
    ]);
  });
});

describe("prepareIteration", () => {
  const view = prepareIteration(decision());

  it("computes the palette size after each stage as kept + added + reinstated", () => {
    expect(view.stages.map((s) => [s.stage, s.sizeBefore, s.sizeAfter])).toEqual([
      ["intent", 4, 3],
      ["role_palette", 3, 3],
      ["policy", 3, 2],
    ]);
    expect(view.waterfall.map((s) => s.size)).toEqual([4, 3, 3, 2, 2]);
  });

  it("flags the reinstatement, the empty palette and the harmful drop", () => {
    expect(view.flags).toEqual({
      reinstatement: true,
      emptyPalette: true,
      stageError: false,
      harmfulDrop: true,
    });
    expect(view.hasIssues).toBe(true);
    expect(view.harmfulTools).toEqual(["email"]);
    expect(view.outcome.called).toEqual([
      { name: "search", harmful: false, notOffered: false },
      { name: "email", harmful: true, notOffered: false },
    ]);
  });

  it("attaches warnings to the stage they name and labels them", () => {
    expect(view.stages[0]?.warnings.map((w) => w.label)).toEqual(["Forced tool reinstated"]);
    expect(view.stages[1]?.warnings.map((w) => w.kind)).toEqual(["empty_palette"]);
    expect(view.intentLabel).toBe("action");
  });

  it("marks error stages and keeps unknown warning codes", () => {
    const errored = prepareIteration(
      decision({
        reinstatements: 0,
        emptyPaletteWarnings: 0,
        stageErrors: 1,
        harmfulTools: [],
        called: [],
        trace: [stage("lazy", "error", { kept: ["lookup", "search", "email", "delete"] })],
        warnings: [{ code: "stage_error", stage: "lazy", detail: "boom" }, { code: "custom_code" }],
      }),
    );
    expect(errored.stages[0]?.isError).toBe(true);
    expect(errored.flags).toMatchObject({
      stageError: true,
      harmfulDrop: false,
      reinstatement: false,
    });
    expect(errored.warnings.map((w) => [w.kind, w.label])).toEqual([
      ["stage_error", "Stage error"],
      ["other", "custom_code"],
    ]);
    expect(errored.outcome).toEqual({ reported: true, called: [], errors: [] });
  });

  it("reads a damaged trace leniently and says so", () => {
    const damaged = prepareIteration(
      decision({ trace: [stage("intent", "select", { kept: ["a"] }), 42, { kept: "x" }] }),
    );
    expect(damaged.traceReadable).toBe(false);
    expect(damaged.stages).toHaveLength(2);
    expect(damaged.stages[1]).toMatchObject({ stage: "(unnamed stage)", kept: [] });
    expect(prepareIteration(decision({ trace: null })).traceReadable).toBe(false);
  });

  it("keeps hostile names as plain strings", () => {
    const name = '<img src=x onerror="alert(1)">';
    const hostile = prepareIteration(
      decision({ offered: [name], selected: [], called: [name], harmfulTools: [name] }),
    );
    expect(hostile.outcome.called[0]?.name).toBe(name);
  });

  it("uses unjoined outcomes when the decision has none", () => {
    const outcome: OutcomeRecord = {
      iteration: 0,
      ts: "2026-03-10T10:00:01.000Z",
      role: "action",
      called: ["delete"],
      error: "tool failed",
      joined: false,
    };
    const view2 = prepareIteration(decision({ hasOutcome: false, called: [], harmfulTools: [] }), [
      outcome,
    ]);
    expect(view2.outcome.reported).toBe(true);
    expect(view2.outcome.called).toEqual([{ name: "delete", harmful: true, notOffered: false }]);
    expect(view2.outcome.errors).toEqual(["tool failed"]);
  });

  it("reports no outcome when none was stored", () => {
    const silent = prepareIteration(decision({ hasOutcome: false, called: [], harmfulTools: [] }));
    expect(silent.outcome.reported).toBe(false);
    expect(silent.flags.harmfulDrop).toBe(false);
  });
});

describe("prepareRunTrace", () => {
  it("matches outcomes to decisions by iteration", () => {
    const views = prepareRunTrace(
      [
        decision({ id: 1, iteration: 0, hasOutcome: false, called: [], harmfulTools: [] }),
        decision({ id: 2, iteration: 1, hasOutcome: false, called: [], harmfulTools: [] }),
      ],
      [
        {
          iteration: 1,
          ts: "2026-03-10T10:00:02.000Z",
          role: "action",
          called: ["search"],
          error: null,
          joined: false,
        },
      ],
    );
    expect(views.map((v) => v.outcome.reported)).toEqual([false, true]);
    expect(views.map((v) => v.anchor)).toEqual(["iteration-0", "iteration-1"]);
  });
});

describe("a call of an agent that routes nothing (mode off)", () => {
  const off = (overrides: Partial<DecisionRecord> = {}) =>
    decision({
      mode: "off",
      forcedChoice: null,
      offered: ["search_docs", "create_ticket", "escalate"],
      selected: ["search_docs", "create_ticket", "escalate"],
      dropped: [],
      droppedTokens: 0,
      reinstatements: 0,
      emptyPaletteWarnings: 0,
      trace: [],
      warnings: [],
      hasOutcome: false,
      called: [],
      harmfulTools: [],
      ...overrides,
    });

  it("reads as offered N tools, called the tools the model called", () => {
    const view = prepareIteration(off({ hasOutcome: true, called: ["search_docs", "escalate"] }));
    expect(view.unrouted).toBe(true);
    expect(view.hasIssues).toBe(false);
    expect(describeUnroutedCall(view).text).toBe("Offered 3 tools, called search_docs, escalate");
  });

  it("says no tool when the model called none, and calls not recorded without an outcome", () => {
    expect(describeUnroutedCall(prepareIteration(off({ hasOutcome: true }))).text).toBe(
      "Offered 3 tools, called no tool",
    );
    const unknown = describeUnroutedCall(prepareIteration(off()));
    expect(unknown).toEqual({
      offered: "Offered 3 tools",
      called: null,
      text: "Offered 3 tools; calls not recorded",
    });
  });

  it("carries the tool runs joined to its decision", () => {
    const run = {
      key: "t:s",
      name: "search_docs",
      named: true,
      durationMs: 12,
      error: null,
      joinedBy: "call_id" as const,
    };
    const [view, other] = prepareRunTrace(
      [off({ id: 5 }), off({ id: 6, iteration: 1 })],
      [],
      new Map([[5, [run]]]),
    );
    expect(view?.toolRuns).toEqual([run]);
    expect(other?.toolRuns).toEqual([]);
  });
});
