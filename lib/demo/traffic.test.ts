import { describe, expect, it } from "vitest";
import { DEMO_PROFILES } from "./profiles";
import { DemoTraffic } from "./traffic";

const NOW = Date.parse("2026-03-09T15:00:00Z");
const story = { from: new Date(NOW - 7 * 86_400_000), to: new Date(NOW) };

describe("DemoTraffic", () => {
  const traffic = new DemoTraffic({ profiles: DEMO_PROFILES, story, seed: 3 });

  it("plans runs for every tenant and estimates their decisions", () => {
    const plans = traffic.plan(new Date(NOW - 3_600_000), new Date(NOW));
    expect(new Set(plans.map((p) => p.profile.tenantId))).toEqual(
      new Set(["demo-pricing", "demo-support", "demo-analytics"]),
    );
    const estimate = traffic.estimateDecisions(plans);
    expect(estimate).toBeGreaterThan(plans.length * 3);
  });

  it("leaves out events after notAfter (a run still going on)", async () => {
    const plan = traffic.plan(new Date(NOW - 3_600_000), new Date(NOW)).at(-1);
    if (!plan) throw new Error("no run planned");
    const whole = await traffic.simulate(plan);
    const cut = await traffic.simulate(plan, { notAfter: plan.start + 2_000 });
    expect(cut.events.length).toBeLessThan(whole.events.length);
    expect(cut.events).toEqual(whole.events.slice(0, cut.events.length));
    for (const event of cut.events)
      expect(Date.parse(event.timestamp)).toBeLessThanOrEqual(plan.start + 2_000);
    expect(cut.decisions).toBe(cut.events.filter((e) => e.type === "tool_routing_decision").length);
  });

  it("refuses a tenant it does not simulate", () => {
    const supportOnly = new DemoTraffic({ profiles: DEMO_PROFILES.slice(1, 2), story });
    expect(() => supportOnly.tenant("demo-pricing")).toThrow(/not a demo tenant/);
  });
});
