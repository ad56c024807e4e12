import { describe, expect, it } from "vitest";
import { parseSearchParams, runsSearchSchema } from "@/lib/schemas/dashboard";
import {
  describeCondition,
  describeLastValue,
  describeRuleState,
  formatWindow,
  prepareRuleView,
  prepareRuleViews,
  type RuleWithState,
  ruleRunsHref,
} from "./rule-view";

const NOW = new Date("2026-03-01T12:00:30Z");

function rule(overrides: Partial<RuleWithState> = {}): RuleWithState {
  return {
    id: "8f1c7a3e-7f57-4c2c-9a54-3f4e0c7a1b20",
    tenant: "acme",
    name: "Harmful drops",
    role: "support",
    mode: "enforce",
    metric: "harmful-drop-rate",
    windowMinutes: 15,
    comparison: "gt",
    threshold: 5,
    minSample: 100,
    mutedUntil: null,
    state: {
      state: "firing",
      lastValue: 7.25,
      lastSample: 312,
      belowMinSample: false,
      since: new Date("2026-03-01T11:42:00Z"),
      lastEvaluatedMinute: new Date("2026-03-01T11:59:00Z"),
    },
    ...overrides,
  };
}

describe("rule descriptions", () => {
  it("words the condition with the metric's unit, the window and the minimum sample", () => {
    expect(describeCondition(rule())).toBe("above 5.0 % over 15 min (at least 100 outcomes)");
    expect(
      describeCondition(
        rule({
          metric: "decisions",
          comparison: "lt",
          threshold: 10,
          windowMinutes: 120,
          minSample: 0,
        }),
      ),
    ).toBe("below 10 decisions over 2 h");
  });

  it("formats windows in hours when they are whole hours", () => {
    expect([5, 60, 90, 1440].map(formatWindow)).toEqual(["5 min", "1 h", "90 min", "24 h"]);
  });

  it("gives the last value over its sample, or says why there is none", () => {
    expect(describeLastValue(rule())).toBe("7.3 % over 312 outcomes");
    expect(describeLastValue(rule({ state: null }))).toBe("not evaluated yet");
    const empty = rule();
    if (empty.state) empty.state = { ...empty.state, lastValue: null, lastSample: 0 };
    expect(describeLastValue(empty)).toBe("no value: 0 outcomes");
    const small = rule();
    if (small.state) small.state = { ...small.state, belowMinSample: true, lastSample: 12 };
    expect(describeLastValue(small)).toBe(
      "7.3 % over 12 outcomes (below the minimum sample: cannot fire)",
    );
  });

  it("says firing since, ok since, not evaluated yet, and muted until only while in the future", () => {
    expect(describeRuleState(rule(), NOW)).toEqual({
      key: "firing",
      since: "2026-03-01T11:42:00.000Z",
      mutedUntil: null,
    });
    expect(describeRuleState(rule({ state: null }), NOW).key).toBe("pending");
    const muted = describeRuleState(rule({ mutedUntil: new Date("2026-03-01T13:00:00Z") }), NOW);
    expect(muted.mutedUntil).toBe("2026-03-01T13:00:00.000Z");
    expect(
      describeRuleState(rule({ mutedUntil: new Date("2026-03-01T11:00:00Z") }), NOW).mutedUntil,
    ).toBeNull();
  });
});

describe("links", () => {
  it("links to the runs of the rule's tenant, role and mode over its window, with harmful drops only", () => {
    const href = ruleRunsHref(rule(), new Date("2026-03-01T12:00:00Z"));
    const url = new URL(href, "http://routelens.test");
    expect(url.pathname).toBe("/runs");
    const search = parseSearchParams(runsSearchSchema, url.searchParams);
    expect(search).toMatchObject({
      range: "custom",
      from: "2026-03-01T11:45:00.000Z",
      to: "2026-03-01T12:00:00.000Z",
      tenant: "acme",
      role: "support",
      mode: "enforce",
      harmful: true,
      warnings: false,
    });
  });

  it("leaves the tenant out for a rule over every tenant, and a mode the runs page does not know", () => {
    const url = new URL(
      ruleRunsHref(rule({ tenant: null, mode: "off", metric: "stage-error-rate" }), NOW),
      "http://x",
    );
    expect(url.searchParams.has("tenant")).toBe(false);
    expect(url.searchParams.has("mode")).toBe(false);
    expect(url.searchParams.get("warnings")).toBe("1");
  });
});

describe("prepareRuleViews", () => {
  it("puts firing rules first and keeps the given order otherwise", () => {
    const ok = rule({ id: "a", name: "A" });
    if (ok.state) ok.state = { ...ok.state, state: "ok" };
    const pending = rule({ id: "b", name: "B", state: null });
    const firing = rule({ id: "c", name: "C" });
    expect(prepareRuleViews([ok, pending, firing], NOW).map((view) => view.name)).toEqual([
      "C",
      "B",
      "A",
    ]);
  });

  it("describes a rule over every tenant as such and links to its page", () => {
    const view = prepareRuleView(rule({ tenant: null }), NOW);
    expect(view.tenantLabel).toBe("all tenants");
    expect(view.href).toBe("/alerts/8f1c7a3e-7f57-4c2c-9a54-3f4e0c7a1b20");
    expect(view.metricLabel).toBe("harmful-drop rate");
  });
});
