import { describe, expect, it } from "vitest";
import { routingConfigJsonSchemaDocument } from "./json-schema";
import { ROUTING_CONFIG_LIMITS, routingConfigJsonSchema } from "./routing-config";

/** Every rejection as "path: message". */
function issues(value: unknown): string[] {
  const result = routingConfigJsonSchema.safeParse(value);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

const valid = {
  roleTools: { action: ["search_orders", "refund_order"], reflection: null, audit: [] },
  alwaysInclude: ["hydrate_context"],
  triggerKeywords: { refund_order: ["refund", "money back"] },
  forcedChoiceStateKey: "forced_tool_choice",
  policy: {
    maxSafetyLevel: "write",
    budgetUsd: 0.05,
    includeUnknownCost: true,
    availableCapabilities: ["payments"],
    agentVisibleOnly: false,
    categories: null,
    maxTools: 12,
  },
  catalog: [
    { name: "search_orders", description: "Find orders.", safetyLevel: "read", costUsd: 0 },
    { name: "refund_order", safetyLevel: 1, category: "billing", requiredCapability: null },
  ],
};

describe("routingConfigJsonSchema", () => {
  it("accepts a full configuration, an empty one and nulls where the core abstains", () => {
    expect(issues(valid)).toEqual([]);
    expect(issues({})).toEqual([]);
    expect(issues({ policy: null, catalog: null })).toEqual([]);
  });

  it("refuses unknown fields at every level, naming them", () => {
    expect(
      issues({
        lazyRouting: ["x"],
        policy: { maxTool: 3 },
        catalog: [{ name: "a", schema: {} }],
      }),
    ).toEqual([
      "policy: unknown field(s) maxTool (not in the routing configuration format)",
      "catalog.0: unknown field(s) schema (not in the routing configuration format)",
      ": unknown field(s) lazyRouting (not in the routing configuration format)",
    ]);
  });

  it("names the field and the rule for wrong values", () => {
    expect(
      issues({
        roleTools: { action: "search_orders", "": ["x"] },
        alwaysInclude: [""],
        triggerKeywords: { refund_order: [1] },
        policy: {
          maxSafetyLevel: "lethal",
          budgetUsd: -1,
          maxTools: 0,
          agentVisibleOnly: "yes",
        },
        catalog: [{ name: "a", costUsd: Number.POSITIVE_INFINITY }, {}],
      }),
    ).toEqual(
      expect.arrayContaining([
        "roleTools.action: expected an array of tool names",
        "roleTools.: each role must be 1 to 200 characters of storable text",
        "alwaysInclude.0: must not be empty",
        "triggerKeywords.refund_order.0: expected a keyword (a string)",
        "policy.maxSafetyLevel: expected one of read, write, destructive or a number",
        "policy.budgetUsd: must be >= 0",
        "policy.maxTools: must be >= 1",
        "policy.agentVisibleOnly: expected true or false",
        "catalog.0.costUsd: expected a cost in US dollars (a finite number)",
        "catalog.1.name: expected a tool name (a string)",
      ]),
    );
    expect(issues({ catalog: [{ name: "a" }, { name: "b" }, { name: "a" }] })).toEqual([
      "catalog.2.name: duplicate tool name a: each tool has one entry",
    ]);
    expect(issues({ policy: { maxTools: 2.5 } })).toEqual([
      "policy.maxTools: expected a whole number",
    ]);
  });

  it("bounds names, lists and maps", () => {
    const long = "x".repeat(ROUTING_CONFIG_LIMITS.name + 1);
    expect(issues({ alwaysInclude: [long] })).toEqual(["alwaysInclude.0: at most 200 characters"]);
    const tooMany = Array.from(
      { length: ROUTING_CONFIG_LIMITS.namesPerList + 1 },
      (_, i) => `t${i}`,
    );
    expect(issues({ alwaysInclude: tooMany })).toEqual(["alwaysInclude: at most 1000 tool names"]);
    const roles = Object.fromEntries(
      Array.from({ length: ROUTING_CONFIG_LIMITS.roles + 1 }, (_, i) => [`role${i}`, null]),
    );
    expect(issues({ roleTools: roles })).toEqual(["roleTools: at most 100 entries"]);
    const keywords = Array.from({ length: ROUTING_CONFIG_LIMITS.keywordsPerTool + 1 }, () => "k");
    expect(issues({ triggerKeywords: { a: keywords } })).toEqual([
      "triggerKeywords.a: at most 100 keywords",
    ]);
    expect(issues({ policy: { maxTools: ROUTING_CONFIG_LIMITS.maxTools + 1 } })).toEqual([
      "policy.maxTools: at most 1000",
    ]);
  });

  it("refuses a configuration over 1 MiB as JSON even when every part is in bounds", () => {
    const description = "d".repeat(ROUTING_CONFIG_LIMITS.description);
    const catalog = Array.from({ length: 300 }, (_, i) => ({ name: `tool_${i}`, description }));
    const found = issues({ catalog });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^: at most 1048576 bytes as JSON \(this one is \d+\)$/);
    expect(issues({ catalog: catalog.slice(0, 200) })).toEqual([]);
  });

  it("refuses text PostgreSQL cannot store", () => {
    expect(issues({ alwaysInclude: ["a\u0000b"] })).toEqual([
      "alwaysInclude.0: must be valid Unicode text without NUL (\\u0000) characters",
    ]);
    expect(issues({ catalog: [{ name: "a", description: "half \uD800" }] })).toEqual([
      "catalog.0.description: must be valid Unicode text without NUL (\\u0000) characters",
    ]);
  });
});

describe("routingConfigJsonSchemaDocument", () => {
  it("publishes the fields, their bounds and the strictness as JSON Schema", () => {
    const document = routingConfigJsonSchemaDocument() as {
      title: string;
      additionalProperties: boolean;
      properties: Record<
        string,
        { anyOf?: { properties?: Record<string, { anyOf?: unknown[] }> }[] }
      >;
    };
    expect(document.title).toBe("Routelens routing configuration");
    expect(document.additionalProperties).toBe(false);
    expect(Object.keys(document.properties).sort()).toEqual([
      "alwaysInclude",
      "catalog",
      "forcedChoiceStateKey",
      "policy",
      "roleTools",
      "triggerKeywords",
    ]);
    const policy = document.properties.policy?.anyOf?.[0]?.properties ?? {};
    expect(policy.maxTools?.anyOf).toContainEqual({ type: "integer", minimum: 1, maximum: 1000 });
  });
});
