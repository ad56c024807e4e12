import { describe, expect, it, vi } from "vitest";
import {
  DEFAULT_ALWAYS_INCLUDE,
  type IntentDomain,
  IntentRoutingStage,
  narrowToolsForIntent,
} from "./intent-routing";

const hydrate = { name: "hydrate_context", description: "Load context." };
const search = { name: "search_orders", description: "Search orders." };
const refund = { name: "refund_order", description: "Refund an order." };
const weather = { name: "get_weather", description: "Weather, no keywords declared." };
const unnamed = { description: "A tool without a name." };
const tools = [hydrate, search, refund, weather];

const triggerKeywords = {
  search_orders: ["order", "find"],
  refund_order: ["refund"],
  hydrate_context: ["context"],
};
const domain: IntentDomain = { toolTriggerKeywords: triggerKeywords };

describe("IntentRoutingStage decision matrix", () => {
  it("abstains with no verdict (a noisy signal must not cost recall)", () => {
    const outcome = new IntentRoutingStage({ triggerKeywords }).decide(tools);
    expect(outcome.tools).toBeNull();
    expect(outcome.detail).toBe("no actionable verdict");
  });

  it("abstains on an ambiguous verdict", () => {
    const stage = new IntentRoutingStage({
      verdict: { label: "ambiguous", matchedToolKeywords: ["refund_order"] },
      triggerKeywords,
    });
    expect(stage.decide(tools).tools).toBeNull();
  });

  it("abstains when there are no candidate tools", () => {
    const stage = new IntentRoutingStage({ verdict: { label: "action" } });
    const outcome = stage.decide([]);
    expect(outcome.tools).toBeNull();
    expect(outcome.detail).toBe("no candidate tools");
  });

  it("keeps only the always-include names on a knowledge turn", () => {
    const stage = new IntentRoutingStage({ verdict: { label: "knowledge" }, triggerKeywords });
    expect(stage.decide(tools).tools).toEqual([hydrate]);
  });

  it("keeps unnamed tools on a knowledge turn (a name-keyed rule cannot gate them)", () => {
    const stage = new IntentRoutingStage({ verdict: { label: "knowledge" } });
    expect(stage.decide([unnamed, search, hydrate]).tools).toEqual([unnamed, hydrate]);
  });

  it("keeps matched tools, tools with no trigger keywords and always-include on an action turn", () => {
    const stage = new IntentRoutingStage({
      verdict: { label: "action", matchedToolKeywords: ["refund_order"] },
      triggerKeywords,
    });
    expect(stage.decide(tools).tools).toEqual([hydrate, refund, weather]);
  });

  it("treats an empty trigger keyword list like an absent one (always kept)", () => {
    const stage = new IntentRoutingStage({
      verdict: { label: "action", matchedToolKeywords: [] },
      triggerKeywords: { ...triggerKeywords, refund_order: [] },
      alwaysInclude: [],
    });
    expect(stage.decide(tools).tools).toEqual([refund, weather]);
  });

  it("handles an unknown label like an action turn", () => {
    const stage = new IntentRoutingStage({
      verdict: { label: "chitchat", matchedToolKeywords: ["search_orders"] },
      triggerKeywords,
    });
    const outcome = stage.decide(tools);
    expect(outcome.tools).toEqual([hydrate, search, weather]);
    expect(outcome.detail).toBe("chitchat turn: keyword intersection");
  });

  it("defaults always-include to hydrate_context", () => {
    expect(DEFAULT_ALWAYS_INCLUDE).toEqual(["hydrate_context"]);
    const stage = new IntentRoutingStage({ verdict: { label: "knowledge" } });
    expect(stage.decide(tools).tools).toEqual([hydrate]);
  });

  it("returns the very input objects in input order", () => {
    const stage = new IntentRoutingStage({
      verdict: { label: "action", matchedToolKeywords: ["refund_order", "search_orders"] },
      triggerKeywords,
    });
    const selected = stage.decide(tools).tools ?? [];
    expect(selected).toHaveLength(4);
    selected.forEach((tool, index) => {
      expect(tool).toBe(tools[index]);
    });
  });
});

describe("narrowToolsForIntent decision matrix", () => {
  it("returns [] for an empty tool list", () => {
    expect(narrowToolsForIntent({ label: "action" }, [], domain)).toEqual([]);
  });

  it("returns every tool unchanged (a new list) for no verdict or an ambiguous one", () => {
    for (const verdict of [null, undefined, { label: "ambiguous" }]) {
      const result = narrowToolsForIntent(verdict, tools, domain);
      expect(result).toEqual(tools);
      expect(result).not.toBe(tools);
    }
  });

  it("returns only the always-include tools that exist on a knowledge turn", () => {
    expect(narrowToolsForIntent({ label: "knowledge" }, tools, domain)).toEqual([hydrate]);
    expect(
      narrowToolsForIntent({ label: "knowledge" }, tools, domain, { alwaysInclude: ["nope"] }),
    ).toEqual([]);
  });

  it("keeps matched, undeclared and always-include tools on an action turn, in input order", () => {
    const result = narrowToolsForIntent(
      { label: "action", matchedToolKeywords: ["search_orders"] },
      tools,
      domain,
    );
    expect(result).toEqual([hydrate, search, weather]);
    expect(result[1]).toBe(search);
  });

  it("treats a null domain as no trigger keywords declared (every tool kept on action)", () => {
    expect(narrowToolsForIntent({ label: "action" }, tools, null)).toEqual(tools);
  });

  it("accepts a custom always-include list", () => {
    const result = narrowToolsForIntent({ label: "knowledge" }, tools, domain, {
      alwaysInclude: ["get_weather", ""],
    });
    expect(result).toEqual([weather]);
  });
});

describe("narrowToolsForIntent and IntentRoutingStage share one implementation", () => {
  it("narrowToolsForIntent calls IntentRoutingStage.decide", () => {
    const decide = vi.spyOn(IntentRoutingStage.prototype, "decide");
    try {
      narrowToolsForIntent({ label: "knowledge" }, tools, domain);
      expect(decide).toHaveBeenCalledTimes(1);
      expect(decide).toHaveBeenCalledWith(tools);
    } finally {
      decide.mockRestore();
    }
  });

  it("gives identical results over the whole matrix (where the stage selects)", () => {
    const verdicts = [
      null,
      { label: "ambiguous" },
      { label: "knowledge" },
      { label: "action" },
      { label: "action", matchedToolKeywords: ["refund_order"] },
      { label: "action", matchedToolKeywords: ["search_orders", "missing_tool"] },
    ];
    const toolLists = [[], tools, [unnamed, ...tools], [search, refund]];
    const alwaysLists = [undefined, [], ["get_weather", "refund_order"]];
    for (const verdict of verdicts) {
      for (const list of toolLists) {
        for (const alwaysInclude of alwaysLists) {
          const fn = narrowToolsForIntent(verdict, list, domain, { alwaysInclude });
          const outcome = new IntentRoutingStage({
            verdict,
            triggerKeywords,
            alwaysInclude,
          }).decide(list);
          // The stage abstains exactly where the function falls back to every tool.
          expect(fn).toEqual(outcome.tools ?? [...list]);
        }
      }
    }
  });
});
