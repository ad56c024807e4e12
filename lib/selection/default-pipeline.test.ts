import { describe, expect, it } from "vitest";
import { ToolCatalog } from "./catalog";
import {
  configVersion,
  defaultPipeline,
  prepareRouting,
  type RoutingConfig,
} from "./default-pipeline";
import { canonicalJson, fnv1a64Hex } from "./hash";

const hydrate = { name: "hydrate_context", description: "Load context." };
const search = { name: "search_orders", description: "Search.", safetyLevel: "read" };
const refund = { name: "refund_order", description: "Refund.", safetyLevel: "write" };
const wipe = { name: "wipe_account", description: "Wipe.", safetyLevel: "destructive" };
const tools = [hydrate, search, refund, wipe];

const config: RoutingConfig = {
  roleTools: {
    support: ["search_orders", "refund_order", "wipe_account"],
    billing: ["refund_order"],
  },
  alwaysInclude: ["hydrate_context"],
  triggerKeywords: { refund_order: ["refund"], wipe_account: ["delete"] },
  policy: { maxSafetyLevel: "write", budgetUsd: 1, categories: ["crm", "billing"] },
};

describe("defaultPipeline", () => {
  it("orders the stages intent → lazy → forced choice → role palette → policy → allowlist", () => {
    expect(defaultPipeline(config).stages.map((stage) => stage.name)).toEqual([
      "intent_routing",
      "lazy_routing",
      "forced_choice",
      "role_palette",
      "policy",
      "allowlist",
    ]);
  });

  it("changes nothing with an empty configuration", async () => {
    const result = await defaultPipeline().select(tools, { role: "support" });
    expect(result.tools).toEqual(tools);
    expect(result.trace.map((record) => record.action)).toEqual([
      "abstain",
      "abstain",
      "abstain",
      "abstain",
      "abstain",
      // The default always-include list applies; everything is already offered.
      "select",
    ]);
    expect(result.trace.every((record) => record.dropped.length === 0)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it("applies the static configuration and the per-turn inputs together", async () => {
    const pipeline = defaultPipeline({
      ...config,
      policy: { maxSafetyLevel: "read" },
      turn: { verdict: { label: "action", matchedToolKeywords: ["refund_order"] } },
    });
    const result = await pipeline.select(tools, { role: "support" });
    // intent drops wipe; the palette drops hydrate; the policy drops refund; allowlist re-adds hydrate.
    expect(result.tools).toEqual([hydrate, search]);
    expect(result.trace.map((record) => record.action)).toEqual([
      "select",
      "abstain",
      "abstain",
      "select",
      "select",
      "select",
    ]);
    expect(result.trace[5]?.added).toEqual(["hydrate_context"]);
  });

  it("applies lazy routing's allowed names from the turn inputs", async () => {
    const pipeline = defaultPipeline({ turn: { allowedNames: ["refund_order"] } });
    const result = await pipeline.select(tools);
    // The default always-include list re-adds hydrate_context.
    expect(result.tools).toEqual([hydrate, refund]);
  });

  it("uses a custom palette resolver and forced-choice resolver", async () => {
    const state = { tenant: "acme" };
    let seenState: unknown = null;
    const pipeline = defaultPipeline({
      alwaysInclude: [],
      paletteResolver: {
        resolve: (s, _role, all) => {
          seenState = s;
          return all.filter((tool) => tool === search);
        },
      },
      forcedChoiceResolver: { resolve: () => "refund_order" },
    });
    const result = await pipeline.select(tools, { state });
    expect(seenState).toBe(state);
    expect(result.tools).toEqual([search, refund]);
    expect(result.forcedChoice).toBe("refund_order");
    expect(result.warnings.map((warning) => warning.code)).toEqual(["forced_reinstated"]);
  });

  it("carries the configuration version", () => {
    expect(defaultPipeline(config).configVersion).toBe(configVersion(config));
  });
});

describe("prepareRouting", () => {
  const turns = [
    {},
    { verdict: { label: "action", matchedToolKeywords: ["refund_order"] } },
    { verdict: { label: "knowledge" } },
    { verdict: { label: "ambiguous" }, allowedNames: ["refund_order", "wipe_account"] },
    { allowedNames: ["nothing_offered"] },
  ];

  it("carries the configuration version, computed once", () => {
    const prepared = prepareRouting(config);
    expect(prepared.configVersion).toBe(configVersion(config));
    expect(prepared.pipeline().configVersion).toBe(prepared.configVersion);
    expect(prepared.pipeline(turns[1]).configVersion).toBe(prepared.configVersion);
  });

  it("selects exactly what defaultPipeline selects, turn by turn", async () => {
    for (const routing of [config, writable]) {
      const prepared = prepareRouting(routing);
      for (const turn of turns) {
        for (const role of ["support", "billing", "unmapped"]) {
          const context = { role, state: { forced_tool_choice: "wipe_account" } };
          const fresh = await defaultPipeline({ ...routing, turn }).select(tools, context);
          const reused = await prepared.pipeline(turn).select(tools, context);
          expect(reused).toEqual(fresh);
        }
      }
    }
  });

  // The same configuration without the category rule, which no tool here passes.
  const writable: RoutingConfig = { ...config, policy: { maxSafetyLevel: "write" } };

  it("keeps one turn's inputs out of the next turn's pipeline", async () => {
    const prepared = prepareRouting(writable);
    const knowledge = prepared.pipeline({ verdict: { label: "knowledge" } });
    const none = prepared.pipeline();
    expect((await knowledge.select(tools)).tools).toEqual([hydrate]);
    expect((await none.select(tools, { role: "unmapped" })).tools).toEqual([
      hydrate,
      search,
      refund,
    ]);
  });

  it("ignores a turn given inside the configuration (defaultPipeline passes it on)", async () => {
    const withTurn = { ...writable, turn: { verdict: { label: "knowledge" } } };
    expect((await prepareRouting(withTurn).pipeline().select(tools)).tools).toHaveLength(3);
    expect((await defaultPipeline(withTurn).select(tools)).tools).toEqual([hydrate]);
  });

  it("rejects an invalid policy when prepared, not per turn", () => {
    expect(() => prepareRouting({ policy: { maxTools: 0 } })).toThrow(/maxTools/);
    expect(() => prepareRouting({ policy: { budgetUsd: Number.NaN } })).toThrow(/budgetUsd/);
  });
});

describe("configVersion", () => {
  it('looks like "cfg_" and 16 hex digits', () => {
    expect(configVersion(config)).toMatch(/^cfg_[0-9a-f]{16}$/);
  });

  it("keeps the versions configurations already have (stored events carry them)", () => {
    const catalogued: RoutingConfig = {
      roleTools: { support: ["search_orders", "refund_order"] },
      alwaysInclude: ["hydrate_context"],
      triggerKeywords: { refund_order: ["refund"] },
      policy: { maxSafetyLevel: "write", budgetUsd: 1, categories: ["crm"] },
      catalog: new ToolCatalog([hydrate, search, refund]),
    };
    expect(configVersion(catalogued)).toBe("cfg_46bb5a655533e05a");
    expect(configVersion({})).toBe("cfg_f303727e492c57b9");
  });

  it("treats a role mapped to null like an unmapped role (both abstain)", () => {
    expect(configVersion({ ...config, roleTools: { ...config.roleTools, audit: null } })).toBe(
      configVersion(config),
    );
    expect(configVersion({ ...config, roleTools: { ...config.roleTools, audit: [] } })).not.toBe(
      configVersion(config),
    );
  });

  it("is stable under key reordering, at every level", () => {
    const reordered: RoutingConfig = {
      policy: { categories: ["crm", "billing"], budgetUsd: 1, maxSafetyLevel: "write" },
      triggerKeywords: { wipe_account: ["delete"], refund_order: ["refund"] },
      alwaysInclude: ["hydrate_context"],
      roleTools: {
        billing: ["refund_order"],
        support: ["search_orders", "refund_order", "wipe_account"],
      },
    };
    expect(configVersion(reordered)).toBe(configVersion(config));
  });

  it("is stable under reordering of name lists, which are sets", () => {
    const shuffled: RoutingConfig = {
      ...config,
      roleTools: {
        support: ["wipe_account", "search_orders", "refund_order"],
        billing: ["refund_order"],
      },
      policy: { ...config.policy, categories: ["billing", "crm", "crm"] },
    };
    expect(configVersion(shuffled)).toBe(configVersion(config));
  });

  it("ignores the per-turn inputs", () => {
    const withTurn = { ...config, turn: { verdict: { label: "knowledge" }, allowedNames: ["x"] } };
    expect(configVersion(withTurn)).toBe(configVersion(config));
  });

  it("treats explicit defaults like omitted settings", () => {
    expect(
      configVersion({ alwaysInclude: ["hydrate_context"], policy: { includeUnknownCost: true } }),
    ).toBe(configVersion({}));
  });

  it("changes when the configuration changes", () => {
    const base = configVersion(config);
    const variants: RoutingConfig[] = [
      { ...config, roleTools: { support: ["search_orders"] } },
      { ...config, alwaysInclude: [] },
      { ...config, triggerKeywords: {} },
      { ...config, policy: { ...config.policy, maxSafetyLevel: "read" } },
      { ...config, policy: { ...config.policy, budgetUsd: 2 } },
      { ...config, policy: { ...config.policy, agentVisibleOnly: true } },
      { ...config, policy: { ...config.policy, maxTools: 8 } },
      { ...config, policy: { ...config.policy, maxTools: 9 } },
      { ...config, forcedChoiceStateKey: "must_call" },
      { ...config, forcedChoiceResolver: { resolve: () => null } },
      { ...config, catalog: new ToolCatalog(tools) },
    ];
    const versions = new Set(variants.map(configVersion));
    expect(versions.size).toBe(variants.length);
    expect(versions.has(base)).toBe(false);
  });

  it("changes when catalogue metadata changes", () => {
    const before = configVersion({ catalog: new ToolCatalog([{ name: "a", costUsd: 1 }]) });
    const after = configVersion({ catalog: new ToolCatalog([{ name: "a", costUsd: 2 }]) });
    expect(before).not.toBe(after);
  });
});

describe("hashing", () => {
  it("computes FNV-1a 64 (reference vectors)", () => {
    expect(fnv1a64Hex("")).toBe("cbf29ce484222325");
    expect(fnv1a64Hex("a")).toBe("af63dc4c8601ec8c");
    expect(fnv1a64Hex("foobar")).toBe("85944171f73967e8");
  });

  it("agrees with a 64-bit BigInt FNV-1a on varied text, multi-byte UTF-8 included", () => {
    const reference = (text: string) => {
      let hash = 0xcbf29ce484222325n;
      for (const byte of new TextEncoder().encode(text)) {
        hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
      }
      return hash.toString(16).padStart(16, "0");
    };
    const samples = ["", "cfg", "ÿ", "é€𝄞", '{"policy":{"budgetUsd":0.05}}'];
    for (let i = 0; i < 300; i++) {
      samples.push(
        Array.from({ length: i % 50 }, (_, j) =>
          String.fromCodePoint(((i * 7919 + j * 104_729) % 0xd000) + 1),
        ).join(""),
      );
    }
    for (const text of samples) expect(fnv1a64Hex(text)).toBe(reference(text));
  });

  it("serialises objects with sorted keys and without undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: undefined } })).toBe('{"a":{"d":[2,1]},"b":1}');
    expect(canonicalJson(Number.NaN)).toBe("null");
  });
});
