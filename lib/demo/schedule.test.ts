import { describe, expect, it } from "vitest";
import { DEMO_PROFILES } from "./profiles";
import { analyticsProfile } from "./profiles/analytics";
import { supportProfile } from "./profiles/support";
import { activity, dailyShape, planRuns } from "./schedule";

const DAY = 86_400_000;
// A Monday, 00:00 UTC.
const MONDAY = Date.parse("2026-03-02T00:00:00Z");

describe("dailyShape", () => {
  it("is busy in office hours and quiet at night", () => {
    expect(dailyShape(11)).toBeGreaterThan(5 * dailyShape(3));
    expect(dailyShape(15.5)).toBeGreaterThan(5 * dailyShape(3));
    expect(dailyShape(13)).toBeLessThan(dailyShape(11));
  });
});

describe("activity", () => {
  it("follows the tenant's local time", () => {
    // Support is UTC-5: 16:00 UTC is 11:00 local (peak), 08:00 UTC is 03:00 local.
    expect(activity(supportProfile, MONDAY + 16 * 3_600_000, 1)).toBeGreaterThan(
      5 * activity(supportProfile, MONDAY + 8 * 3_600_000, 1),
    );
  });

  it("averages about 1 over a week", () => {
    let sum = 0;
    const steps = 7 * 24 * 4;
    for (let i = 0; i < steps; i++) sum += activity(analyticsProfile, MONDAY + i * 900_000, 5);
    expect(sum / steps).toBeGreaterThan(0.9);
    expect(sum / steps).toBeLessThan(1.1);
  });

  it("drops at weekends", () => {
    const saturdayNoon = MONDAY + 5 * DAY + 12 * 3_600_000;
    const mondayNoon = MONDAY + 12 * 3_600_000;
    expect(activity(analyticsProfile, saturdayNoon, 5)).toBeLessThan(
      0.4 * activity(analyticsProfile, mondayNoon, 5),
    );
  });
});

describe("planRuns", () => {
  const options = {
    profiles: DEMO_PROFILES,
    from: new Date(MONDAY),
    to: new Date(MONDAY + 7 * DAY),
    seed: 7,
    decisionsPerDay: 16_000,
  };

  it("plans a week of runs inside the window, oldest first, reproducibly", () => {
    const plans = planRuns(options);
    expect(planRuns(options)).toEqual(plans);
    for (const plan of plans) {
      expect(plan.start).toBeGreaterThanOrEqual(MONDAY);
      expect(plan.start).toBeLessThan(MONDAY + 7 * DAY);
    }
    expect(plans.map((p) => p.start)).toEqual([...plans.map((p) => p.start)].sort((a, b) => a - b));
    const decisions = plans.reduce((sum, p) => sum + p.profile.meanDecisionsPerRun, 0);
    expect(decisions).toBeGreaterThan(0.9 * 7 * 16_000);
    expect(decisions).toBeLessThan(1.1 * 7 * 16_000);
  });

  it("plans the same runs for an hour whatever window contains it", () => {
    const all = planRuns(options);
    const from = MONDAY + 2 * DAY + 30 * 60_000;
    const to = MONDAY + 2 * DAY + 3 * 3_600_000;
    const part = planRuns({ ...options, from: new Date(from), to: new Date(to) });
    expect(part.length).toBeGreaterThan(0);
    expect(part).toEqual(all.filter((p) => p.start >= from && p.start < to));
  });

  it("shares the volume by the tenants' shares", () => {
    const plans = planRuns(options);
    const decisionsOf = (key: string) =>
      plans
        .filter((p) => p.profile.key === key)
        .reduce((s, p) => s + p.profile.meanDecisionsPerRun, 0);
    const total = decisionsOf("pricing") + decisionsOf("support") + decisionsOf("analytics");
    expect(decisionsOf("support") / total).toBeCloseTo(supportProfile.share, 1);
  });
});
