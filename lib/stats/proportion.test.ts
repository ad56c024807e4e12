import { describe, expect, it } from "vitest";
import { minimumTrialsForUpperBound, newcombeInterval, wilsonInterval } from "./proportion";

describe("wilsonInterval", () => {
  /**
   * Newcombe RG. Two-sided confidence intervals for the single proportion: comparison of seven
   * methods. Stat Med 1998;17:857–872, Table I, method 3 (score interval without continuity
   * correction), to 4 decimals. The same limits come out of R `prop.test(x, n, correct = FALSE)`
   * and SciPy `binomtest(x, n).proportion_ci(method = "wilson")`, whose full-precision values
   * are checked as well.
   */
  it.each([
    { x: 81, n: 263, lower: 0.2553, upper: 0.3662, lowerExact: 0.2552885198782742 },
    { x: 15, n: 148, lower: 0.0624, upper: 0.1605, lowerExact: 0.06238639953073629 },
    { x: 0, n: 20, lower: 0, upper: 0.1611, lowerExact: 0 },
    { x: 1, n: 29, lower: 0.0061, upper: 0.1718, lowerExact: 0.006113214292762667 },
  ])("reproduces Newcombe (1998) Table I for $x/$n", ({ x, n, lower, upper, lowerExact }) => {
    const interval = wilsonInterval({ successes: x, trials: n });
    expect(interval?.estimate).toBe(x / n);
    expect(interval?.lower).toBeCloseTo(lower, 4);
    expect(interval?.upper).toBeCloseTo(upper, 4);
    expect(interval?.lower).toBeCloseTo(lowerExact, 12);
  });

  it("reaches the boundaries exactly", () => {
    expect(wilsonInterval({ successes: 0, trials: 5 })?.lower).toBe(0);
    expect(wilsonInterval({ successes: 5, trials: 5 })?.upper).toBe(1);
  });

  it("has no interval for an empty sample", () => {
    expect(wilsonInterval({ successes: 0, trials: 0 })).toBeNull();
  });

  it("rejects impossible counts", () => {
    expect(() => wilsonInterval({ successes: 3, trials: 2 })).toThrow(RangeError);
    expect(() => wilsonInterval({ successes: 1.5, trials: 2 })).toThrow(RangeError);
  });
});

describe("newcombeInterval", () => {
  /**
   * The eight worked examples (a)–(h) of Newcombe RG. Interval estimation for the difference
   * between independent proportions: comparison of eleven methods. Stat Med 1998;17:873–890,
   * Table II, method 10 (hybrid score interval). Expected limits, to 4 decimals, were computed
   * separately in Python from SciPy's Wilson limits
   * (`binomtest(x, n).proportion_ci(method="wilson")`) with the method-10 formula; they agree
   * with the method-10 column of that table (e.g. (a) 0.0524 to 0.3339, (h) 0.6075 to 1).
   */
  it.each([
    { label: "a", x1: 56, n1: 70, x2: 48, n2: 80, lower: 0.0524, upper: 0.3339 },
    { label: "b", x1: 9, n1: 10, x2: 3, n2: 10, lower: 0.1705, upper: 0.809 },
    { label: "c", x1: 6, n1: 7, x2: 2, n2: 7, lower: 0.0582, upper: 0.8062 },
    { label: "d", x1: 5, n1: 56, x2: 0, n2: 29, lower: -0.0381, upper: 0.1926 },
    { label: "e", x1: 0, n1: 10, x2: 0, n2: 20, lower: -0.1611, upper: 0.2775 },
    { label: "f", x1: 0, n1: 10, x2: 0, n2: 10, lower: -0.2775, upper: 0.2775 },
    { label: "g", x1: 10, n1: 10, x2: 0, n2: 20, lower: 0.6791, upper: 1 },
    { label: "h", x1: 10, n1: 10, x2: 0, n2: 10, lower: 0.6075, upper: 1 },
  ])("reproduces Newcombe (1998) Table II example ($label)", ({ x1, n1, x2, n2, lower, upper }) => {
    const interval = newcombeInterval({ successes: x1, trials: n1 }, { successes: x2, trials: n2 });
    expect(interval?.estimate).toBeCloseTo(x1 / n1 - x2 / n2, 12);
    expect(interval?.lower).toBeCloseTo(lower, 4);
    expect(interval?.upper).toBeCloseTo(upper, 4);
  });

  it("matches the full-precision Python reference for example (a)", () => {
    const interval = newcombeInterval({ successes: 56, trials: 70 }, { successes: 48, trials: 80 });
    expect(interval?.lower).toBeCloseTo(0.05243147240236498, 12);
    expect(interval?.upper).toBeCloseTo(0.333872654036906, 12);
  });

  it("is antisymmetric in its arguments", () => {
    const ab = newcombeInterval({ successes: 4, trials: 60 }, { successes: 1, trials: 30 });
    const ba = newcombeInterval({ successes: 1, trials: 30 }, { successes: 4, trials: 60 });
    expect(ba?.lower).toBeCloseTo(-(ab?.upper ?? 0), 12);
    expect(ba?.upper).toBeCloseTo(-(ab?.lower ?? 0), 12);
  });

  it("has no interval when a sample is empty", () => {
    expect(newcombeInterval({ successes: 0, trials: 0 }, { successes: 1, trials: 2 })).toBeNull();
  });
});

describe("minimumTrialsForUpperBound", () => {
  it("is the first n whose zero-success Wilson upper limit is under the threshold", () => {
    // z = 1.959964: z²·0.99/0.01 = 380.30, so n = 381 (upper limit of 0/381 is 0.99819%,
    // of 0/380 is 1.00079%: values from the Python reference above).
    expect(minimumTrialsForUpperBound(0.01)).toBe(381);
    expect(wilsonInterval({ successes: 0, trials: 381 })?.upper).toBeCloseTo(
      0.009981925628454557,
      14,
    );
    expect(wilsonInterval({ successes: 0, trials: 380 })?.upper).toBeCloseTo(
      0.010007930963206886,
      14,
    );
    for (const threshold of [0.001, 0.005, 0.02, 0.05, 0.1]) {
      const n = minimumTrialsForUpperBound(threshold);
      expect(wilsonInterval({ successes: 0, trials: n })?.upper).toBeLessThan(threshold);
      expect(wilsonInterval({ successes: 0, trials: n - 1 })?.upper).toBeGreaterThanOrEqual(
        threshold,
      );
    }
  });

  it("rejects thresholds outside (0, 1)", () => {
    expect(() => minimumTrialsForUpperBound(0)).toThrow(RangeError);
    expect(() => minimumTrialsForUpperBound(1)).toThrow(RangeError);
  });
});
