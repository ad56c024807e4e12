import { describe, expect, it } from "vitest";
import { prepareConfigView } from "./config-view";

describe("prepareConfigView", () => {
  it("shows palettes, keywords and policy sorted, abstaining roles as null", () => {
    const view = prepareConfigView({
      roleTools: { reflection: null, action: ["b", "a"] },
      triggerKeywords: { z_tool: ["zz"], a_tool: ["aa", "ab"] },
      policy: { maxSafetyLevel: "write", budgetUsd: 0.05, categories: ["x", "y"] },
      catalog: [{ name: "a", description: "A tool.", costUsd: 0.01 }, { description: "nameless" }],
      lazyRouting: ["a"],
    });
    expect(view.palettes).toEqual([
      { role: "action", names: ["b", "a"] },
      { role: "reflection", names: null },
    ]);
    expect(view.alwaysInclude).toBeNull();
    expect(view.keywords.map((k) => k.tool)).toEqual(["a_tool", "z_tool"]);
    expect(view.policy).toEqual([
      { field: "budgetUsd", value: "0.05" },
      { field: "categories", value: "x, y" },
      { field: "maxSafetyLevel", value: "write" },
    ]);
    expect(view.catalog).toEqual([
      {
        name: "a",
        description: "A tool.",
        visibility: "agent",
        costUsd: "0.01",
        safetyLevel: "",
        requiredCapability: "",
        category: "",
      },
    ]);
    expect(view.other).toEqual([
      { field: "lazyRouting", label: "Lazy routing", json: '[\n  "a"\n]' },
    ]);
  });

  it("shows nothing rather than failing on a value that is not a config", () => {
    expect(prepareConfigView("nonsense")).toEqual({
      palettes: [],
      alwaysInclude: null,
      keywords: [],
      policy: [],
      catalog: [],
      other: [],
    });
  });
});
