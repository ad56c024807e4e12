import { describe, expect, it } from "vitest";
import { ToolCatalog } from "../catalog";
import { ContractViolationError } from "../errors";
import type { StageContext } from "../stage";
import type { Tool } from "../types";
import { PolicyStage, type PolicyStageOptions, SAFETY_LEVELS, safetyRank } from "./policy";

const lookup = { name: "lookup", safetyLevel: "read", costUsd: 0, category: "crm" };
const update = { name: "update", safetyLevel: "write", costUsd: 0.05, category: "crm" };
const wipe = { name: "wipe", safetyLevel: "destructive", costUsd: 0.01, category: "admin" };
const paid = { name: "paid", costUsd: 2, requiredCapability: "billing", category: "billing" };
const internal = { name: "internal", visibility: "hidden" };
const plain = { name: "plain" };
const registry = [lookup, update, wipe, paid, internal, plain];
const catalog = new ToolCatalog(registry);

function run(
  options: PolicyStageOptions,
  tools: readonly Tool[] = registry,
  forcedChoice: string | null = null,
) {
  const ctx: StageContext = {
    state: {},
    messages: [],
    role: "action",
    query: "",
    inputTools: tools,
    forcedChoice,
  };
  return new PolicyStage({ catalog, ...options }).apply(tools, ctx);
}

describe("PolicyStage", () => {
  it("abstains when no policy is configured", () => {
    expect(run({}).tools).toBeNull();
  });

  it("orders safety levels read < write < destructive and accepts numeric ranks", () => {
    expect(SAFETY_LEVELS).toEqual(["read", "write", "destructive"]);
    expect(safetyRank("read")).toBe(0);
    expect(safetyRank("write")).toBe(1);
    expect(safetyRank("destructive")).toBe(2);
    expect(safetyRank(1.5)).toBe(1.5);
    expect(safetyRank("lethal")).toBeNull();
  });

  it("drops tools above the safety ceiling and keeps tools with no declared level", () => {
    expect(run({ maxSafetyLevel: "write" }).tools).toEqual([lookup, update, paid, internal, plain]);
    expect(run({ maxSafetyLevel: 0 }).tools).toEqual([lookup, paid, internal, plain]);
  });

  it("drops a catalogued tool whose safety level it cannot rank", () => {
    const odd = { name: "odd", safetyLevel: "lethal" };
    const stage = new PolicyStage({ catalog: new ToolCatalog([odd]), maxSafetyLevel: 2 });
    const ctx: StageContext = {
      state: {},
      messages: [],
      role: "",
      query: "",
      inputTools: [odd],
      forcedChoice: null,
    };
    expect(stage.apply([odd], ctx).tools).toEqual([]);
  });

  it("rejects an unknown safety ceiling at construction", () => {
    expect(() => new PolicyStage({ catalog, maxSafetyLevel: "lethal" as "read" })).toThrow(
      ContractViolationError,
    );
  });

  it("drops tools over budget; includeUnknownCost decides tools with unknown cost", () => {
    expect(run({ budgetUsd: 0.02 }).tools).toEqual([lookup, wipe, internal, plain]);
    expect(run({ budgetUsd: 0.02, includeUnknownCost: false }).tools).toEqual([lookup, wipe]);
  });

  it("drops tools requiring a capability that is not available", () => {
    expect(run({ availableCapabilities: [] }).tools).toEqual([
      lookup,
      update,
      wipe,
      internal,
      plain,
    ]);
    expect(run({ availableCapabilities: new Set(["billing"]) }).tools).toEqual(registry);
  });

  it("keeps only agent-visible tools when agentVisibleOnly (visibility defaults to agent)", () => {
    expect(run({ agentVisibleOnly: true }).tools).toEqual([lookup, update, wipe, paid, plain]);
  });

  it("keeps only tools in the allowed categories", () => {
    expect(run({ categories: ["crm"] }).tools).toEqual([lookup, update]);
  });

  it("always keeps a tool unknown to the catalogue", () => {
    const stranger = { name: "stranger", safetyLevel: "destructive", visibility: "hidden" };
    const unnamed = { description: "no name" };
    const outcome = run(
      { maxSafetyLevel: "read", agentVisibleOnly: true, categories: ["none"], budgetUsd: 0 },
      [wipe, stranger, unnamed],
    );
    expect(outcome.tools).toEqual([stranger, unnamed]);
    expect(outcome.detail).toContain("kept unknown to the catalogue: stranger");
  });

  it("reads metadata from the input tools when it has no catalogue", () => {
    const stage = new PolicyStage({ maxSafetyLevel: "read" });
    const ctx: StageContext = {
      state: {},
      messages: [],
      role: "",
      query: "",
      inputTools: registry,
      forcedChoice: null,
    };
    expect(stage.apply([lookup, update], ctx).tools).toEqual([lookup]);
  });

  it("caps the number of tools after the other criteria, keeping the offered order", () => {
    const outcome = run({ maxTools: 2 });
    expect(outcome.tools).toEqual([lookup, update]);
    expect(outcome.detail).toContain("capped at 2 tools: dropped wipe, paid, internal, plain");
    expect(run({ maxTools: 2, maxSafetyLevel: "read" }).tools).toEqual([lookup, paid]);
  });

  it("counts the forced tool first when it is among the tools", () => {
    expect(run({ maxTools: 2 }, registry, "plain").tools).toEqual([lookup, plain]);
    expect(run({ maxTools: 1 }, registry, "plain").tools).toEqual([plain]);
    // A forced tool the other criteria denied is not brought back by the cap.
    expect(run({ maxTools: 2, maxSafetyLevel: "read" }, registry, "wipe").tools).toEqual([
      lookup,
      paid,
    ]);
  });

  it("counts tools unknown to the catalogue, and applies on its own", () => {
    const stranger = { name: "stranger" };
    expect(run({ maxTools: 1 }, [stranger, lookup]).tools).toEqual([stranger]);
    const under = run({ maxTools: 10 });
    expect(under.tools).toEqual(registry);
    expect(under.detail).toBe("nothing denied");
  });

  it("rejects a cap that is not a whole number of at least 1 at construction", () => {
    for (const maxTools of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new PolicyStage({ catalog, maxTools })).toThrow(ContractViolationError);
    }
  });

  it("says why each tool was denied", () => {
    const detail = run({ maxSafetyLevel: "read", budgetUsd: 1 }).detail;
    expect(detail).toContain("update (safety write above read)");
    expect(detail).toContain("paid (cost 2 over budget 1)");
  });
});

describe("ToolCatalog", () => {
  it("reads metadata structurally, with defaults for what is missing", () => {
    expect(catalog.get("plain")).toEqual({
      name: "plain",
      description: "",
      visibility: "agent",
      costUsd: null,
      safetyLevel: null,
      requiredCapability: null,
      category: null,
    });
    expect(catalog.get("paid")?.costUsd).toBe(2);
    expect(catalog.get("nope")).toBeNull();
    expect(catalog.size).toBe(registry.length);
  });

  it("skips unnamed tools and keeps the first of two tools sharing a name", () => {
    const first = { name: "dup", category: "one" };
    const second = { name: "dup", category: "two" };
    const twice = new ToolCatalog([first, { description: "x" }, second]);
    expect(twice.size).toBe(1);
    expect(twice.lookup(second)?.category).toBe("one");
  });
});
