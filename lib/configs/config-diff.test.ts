import { describe, expect, it } from "vitest";
import { describeConfigChange, diffRoutingConfigs } from "./config-diff";

const base = {
  roleTools: {
    action: ["hydrate_context", "lookup_order", "issue_refund"],
    reasoning: ["hydrate_context", "search_kb"],
    reflection: null,
  },
  alwaysInclude: ["hydrate_context"],
  triggerKeywords: { track_shipment: ["track", "tracking"] },
  policy: { maxSafetyLevel: "write", budgetUsd: 0.05 },
  catalog: [
    { name: "issue_refund", description: "Refund an order.", safetyLevel: "write", costUsd: 0.01 },
    { name: "lookup_order", description: "Find an order.", safetyLevel: "read" },
  ],
};

function lines(before: unknown, after: unknown): string[] {
  return diffRoutingConfigs(before, after).flatMap((section) =>
    section.changes.map((change) => `${section.label} | ${describeConfigChange(change)}`),
  );
}

describe("diffRoutingConfigs", () => {
  it("finds nothing between a config and itself, whatever the key and list order", () => {
    const shuffled = {
      catalog: [...base.catalog].reverse(),
      policy: { budgetUsd: 0.05, maxSafetyLevel: "write" },
      triggerKeywords: { track_shipment: ["tracking", "track"] },
      alwaysInclude: ["hydrate_context"],
      roleTools: {
        reflection: null,
        reasoning: ["search_kb", "hydrate_context"],
        action: ["issue_refund", "lookup_order", "hydrate_context"],
      },
    };
    expect(diffRoutingConfigs(base, shuffled)).toEqual([]);
  });

  it("names the palette names a role gained and lost, and roles added or removed", () => {
    const after = {
      ...base,
      roleTools: {
        action: ["hydrate_context", "lookup_order", "reship_order", "issue_store_credit"],
        reasoning: base.roleTools.reasoning,
        reflection: null,
        triage: ["search_kb"],
      },
    };
    expect(lines(base, after)).toEqual([
      "Palettes per role | action: + issue_store_credit, reship_order; − issue_refund",
      "Palettes per role | triage added (search_kb)",
    ]);
    const dropped = { ...base, roleTools: { action: base.roleTools.action, reflection: null } };
    expect(lines(base, dropped)).toEqual([
      "Palettes per role | reasoning removed (hydrate_context, search_kb)",
    ]);
  });

  it("tells an abstaining palette from an empty one", () => {
    const after = { ...base, roleTools: { ...base.roleTools, reflection: [] } };
    expect(lines(base, after)).toEqual(["Palettes per role | reflection: abstains → no names"]);
  });

  it("reads keywords per tool and always-include names as sets", () => {
    const after = {
      ...base,
      alwaysInclude: ["hydrate_context", "search_kb"],
      triggerKeywords: {
        track_shipment: ["track", "package", "parcel"],
        reship_order: ["replacement"],
      },
    };
    expect(lines(base, after)).toEqual([
      "Always included | + search_kb",
      "Trigger keywords | reship_order added (replacement)",
      "Trigger keywords | track_shipment: + package, parcel; − tracking",
    ]);
  });

  it("shows policy fields before and after, including ones set or cleared", () => {
    const after = {
      ...base,
      policy: { maxSafetyLevel: "destructive", availableCapabilities: ["payments"] },
    };
    expect(lines(base, after)).toEqual([
      "Policy | availableCapabilities: none → payments",
      "Policy | budgetUsd: 0.05 → none",
      "Policy | maxSafetyLevel: write → destructive",
    ]);
    expect(lines({ ...base, policy: null }, base)).toEqual([
      "Policy | budgetUsd: none → 0.05",
      "Policy | maxSafetyLevel: none → write",
    ]);
  });

  it("lists catalogue entries added, removed and changed field by field", () => {
    const after = {
      ...base,
      catalog: [
        { name: "issue_refund", description: "Refund an order.", safetyLevel: "destructive" },
        { name: "send_email", description: "Email the customer.", category: "messaging" },
      ],
    };
    expect(lines(base, after)).toEqual([
      "Catalogue | issue_refund.costUsd: 0.01 → none",
      "Catalogue | issue_refund.safetyLevel: write → destructive",
      "Catalogue | lookup_order removed (safetyLevel read)",
      "Catalogue | send_email added (category messaging)",
    ]);
  });

  it("reads a first version as everything added, sections in the pages' order", () => {
    const sections = diffRoutingConfigs(null, base);
    expect(sections.map((section) => section.field)).toEqual([
      "roleTools",
      "alwaysInclude",
      "triggerKeywords",
      "policy",
      "catalog",
    ]);
    expect(lines(null, { alwaysInclude: ["a", "b"] })).toEqual(["Always included | + a, b"]);
  });

  it("still reports a field it has no words for, by its shape", () => {
    expect(lines({ lazyRouting: ["a"] }, { lazyRouting: ["b"] })).toEqual([
      "Lazy routing | + b; − a",
    ]);
    expect(lines({ format: 1 }, { format: 2 })).toEqual(["format | 1 → 2"]);
  });
});
