import { describe, expect, it } from "vitest";
import { type RoutingConfigJson, routingConfigJsonSchema } from "@/lib/schemas/routing-config";
import { ToolCatalog } from "./catalog";
import { routingConfigFromJson, routingConfigToJson } from "./config-json";
import { configVersion, prepareRouting, type RoutingConfig } from "./default-pipeline";
import { ContractViolationError } from "./errors";

const tools = [
  { name: "hydrate_context", description: "Load the customer's context.", safetyLevel: "read" },
  { name: "search_orders", description: "Find orders.", safetyLevel: "read", category: "orders" },
  {
    name: "refund_order",
    description: "Refund an order.",
    safetyLevel: "write",
    costUsd: 0.02,
    category: "billing",
    requiredCapability: "payments",
  },
  { name: "wipe_account", description: "Wipe.", safetyLevel: "destructive", visibility: "hidden" },
  { name: "escalate", description: "Hand over to a person.", safetyLevel: 1 },
];

/** Configurations written in code, from the smallest to one with every setting. */
const inCode: Record<string, RoutingConfig> = {
  empty: {},
  palettes: {
    roleTools: { action: ["search_orders", "refund_order"], reflection: null, audit: [] },
  },
  keywords: {
    alwaysInclude: ["hydrate_context", "escalate"],
    triggerKeywords: { refund_order: ["refund", "money back"], wipe_account: ["delete"] },
  },
  everything: {
    roleTools: {
      action: ["search_orders", "refund_order", "escalate"],
      reasoning: ["search_orders"],
    },
    alwaysInclude: ["hydrate_context"],
    triggerKeywords: { refund_order: ["refund"] },
    forcedChoiceStateKey: "must_call",
    policy: {
      maxSafetyLevel: "write",
      budgetUsd: 0.05,
      includeUnknownCost: false,
      availableCapabilities: ["payments"],
      agentVisibleOnly: true,
      categories: ["orders", "billing"],
      maxTools: 3,
    },
    catalog: new ToolCatalog(tools),
  },
  numericCeiling: { policy: { maxSafetyLevel: 1, budgetUsd: null, categories: null } },
};

describe("routingConfigToJson / routingConfigFromJson", () => {
  for (const [name, config] of Object.entries(inCode)) {
    it(`keeps the version of a configuration written in code (${name})`, () => {
      const json = routingConfigToJson(config);
      // The JSON form is valid, survives a trip through text, and has the same version.
      const parsed = routingConfigJsonSchema.parse(JSON.parse(JSON.stringify(json)));
      expect(configVersion(routingConfigFromJson(parsed))).toBe(configVersion(config));
      expect(routingConfigToJson(routingConfigFromJson(parsed))).toEqual(json);
    });
  }

  it("gives a hand-written JSON form the version of the same configuration in code", () => {
    const json: RoutingConfigJson = {
      // Keys and name lists in another order than in code: neither matters.
      policy: { maxTools: 3, categories: ["billing", "orders"], maxSafetyLevel: "write" },
      catalog: [
        { name: "escalate", description: "Hand over to a person.", safetyLevel: 1 },
        {
          name: "refund_order",
          description: "Refund an order.",
          safetyLevel: "write",
          costUsd: 0.02,
          category: "billing",
          requiredCapability: "payments",
        },
        {
          name: "wipe_account",
          description: "Wipe.",
          safetyLevel: "destructive",
          visibility: "hidden",
        },
        {
          name: "search_orders",
          description: "Find orders.",
          safetyLevel: "read",
          category: "orders",
        },
        {
          name: "hydrate_context",
          description: "Load the customer's context.",
          safetyLevel: "read",
        },
      ],
      triggerKeywords: { refund_order: ["refund"] },
      roleTools: {
        reasoning: ["search_orders"],
        action: ["escalate", "refund_order", "search_orders"],
      },
    };
    const code: RoutingConfig = {
      roleTools: {
        action: ["search_orders", "refund_order", "escalate"],
        reasoning: ["search_orders"],
      },
      triggerKeywords: { refund_order: ["refund"] },
      policy: { maxSafetyLevel: "write", categories: ["orders", "billing"], maxTools: 3 },
      catalog: new ToolCatalog(tools),
    };
    expect(routingConfigJsonSchema.safeParse(json).success).toBe(true);
    expect(configVersion(routingConfigFromJson(json))).toBe(configVersion(code));
    // And a real difference still shows.
    const other = { ...json, policy: { ...json.policy, maxTools: 4 } };
    expect(configVersion(routingConfigFromJson(other))).not.toBe(configVersion(code));
  });

  it("selects the same tools from the JSON form as from the configuration in code", async () => {
    const config = inCode.everything as RoutingConfig;
    const fromJson = prepareRouting(routingConfigFromJson(routingConfigToJson(config)));
    const fromCode = prepareRouting(config);
    const turns = [{}, { verdict: { label: "action", matchedToolKeywords: ["refund_order"] } }];
    for (const turn of turns) {
      for (const role of ["action", "reasoning", "reflection"]) {
        const context = { role, state: { must_call: "escalate" } };
        const a = await fromJson.pipeline(turn).select(tools, context);
        const b = await fromCode.pipeline(turn).select(tools, context);
        expect(a).toEqual(b);
      }
    }
  });

  it("reads the catalogue from the JSON form with the catalogue's defaults", () => {
    const config = routingConfigFromJson({ catalog: [{ name: "lookup" }] });
    expect(config.catalog?.get("lookup")).toEqual({
      name: "lookup",
      description: "",
      visibility: "agent",
      costUsd: null,
      safetyLevel: null,
      requiredCapability: null,
      category: null,
    });
    expect(configVersion(config)).toBe(
      configVersion({ catalog: new ToolCatalog([{ name: "lookup" }]) }),
    );
  });

  it("refuses a configuration with custom resolvers, naming them", () => {
    const palette = { resolve: () => null };
    const forced = { resolve: () => null };
    expect(() => routingConfigToJson({ paletteResolver: palette })).toThrow(ContractViolationError);
    expect(() => routingConfigToJson({ paletteResolver: palette })).toThrow(/paletteResolver/);
    expect(() =>
      routingConfigToJson({ paletteResolver: palette, forcedChoiceResolver: forced }),
    ).toThrow(/paletteResolver and forcedChoiceResolver/);
  });

  it("leaves the per-turn inputs out", () => {
    const json = routingConfigToJson({ turn: { verdict: { label: "knowledge" } } });
    expect(json).toEqual({});
  });
});
