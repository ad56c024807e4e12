import { describe, expect, it } from "vitest";
import { meanRatioInterval, proportionRatioInterval, toRelativeDifference } from "./ratio";

describe("proportionRatioInterval (Katz log method)", () => {
  it("matches SciPy's relative_risk", () => {
    // SciPy 1.17 `scipy.stats.contingency.relative_risk(20, 100, 10, 100).confidence_interval()`
    // (documented as the Katz et al. 1978 log method): (0.9865632067317821, 4.054479198804628).
    // By hand: se = √(1/20 − 1/100 + 1/10 − 1/100) = √0.13; 2·exp(±1.959964·0.360555).
    const interval = proportionRatioInterval(
      { successes: 20, trials: 100 },
      { successes: 10, trials: 100 },
    );
    expect(interval?.estimate).toBeCloseTo(2, 12);
    expect(interval?.lower).toBeCloseTo(0.9865632067317821, 12);
    expect(interval?.upper).toBeCloseTo(4.054479198804628, 12);
    // relative_risk(6, 30, 4, 60): (0.9155733099253576, 9.829906466729277).
    const second = proportionRatioInterval(
      { successes: 6, trials: 30 },
      { successes: 4, trials: 60 },
    );
    expect(second?.lower).toBeCloseTo(0.9155733099253576, 12);
    expect(second?.upper).toBeCloseTo(9.829906466729277, 12);
  });

  it("is undefined when either proportion is zero", () => {
    expect(
      proportionRatioInterval({ successes: 0, trials: 50 }, { successes: 3, trials: 50 }),
    ).toBeNull();
    expect(
      proportionRatioInterval({ successes: 3, trials: 50 }, { successes: 0, trials: 50 }),
    ).toBeNull();
  });
});

describe("meanRatioInterval (delta method on the log scale)", () => {
  it("follows the delta-method formula", () => {
    // By hand: Var(log x̄) ≈ s²/(n x̄²): 400/(100·100²) = 4e-4 and 100/(50·50²) = 8e-4;
    // ratio 2, 95% limits 2·exp(±1.959964·√1.2e-3) = 1.868717, 2.140506 (Python math).
    const interval = meanRatioInterval(
      { n: 100, mean: 100, variance: 400 },
      { n: 50, mean: 50, variance: 100 },
    );
    expect(interval?.estimate).toBe(2);
    expect(interval?.lower).toBeCloseTo(2 * Math.exp(-1.959963984540054 * Math.sqrt(1.2e-3)), 12);
    expect(interval?.lower).toBeCloseTo(1.868717, 6);
    expect(interval?.upper).toBeCloseTo(2.140506, 6);
  });

  it("has no interval when neither sample varies", () => {
    expect(
      meanRatioInterval({ n: 10, mean: 2, variance: 0 }, { n: 10, mean: 3, variance: 0 }),
    ).toBeNull();
  });

  it("needs positive means", () => {
    expect(
      meanRatioInterval({ n: 10, mean: 0, variance: 0 }, { n: 10, mean: 3, variance: 1 }),
    ).toBeNull();
  });
});

describe("toRelativeDifference", () => {
  it("shifts a ratio to a relative change", () => {
    expect(toRelativeDifference({ estimate: 1.5, lower: 1.2, upper: 1.9 })).toEqual({
      estimate: 0.5,
      lower: 0.19999999999999996,
      upper: 0.8999999999999999,
    });
  });
});
