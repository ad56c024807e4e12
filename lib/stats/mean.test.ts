import { describe, expect, it } from "vitest";
import { describeFromSums, meanInterval, welchInterval } from "./mean";

/**
 * R's `sleep` data (Cushny & Peebles 1905, as printed in Student 1908): extra hours of sleep
 * with two drugs, ten patients each.
 */
const GROUP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
const GROUP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

function fromValues(values: number[]) {
  const sum = values.reduce((acc, value) => acc + value, 0);
  const sumOfSquares = values.reduce((acc, value) => acc + value * value, 0);
  const sample = describeFromSums(values.length, sum, sumOfSquares);
  if (!sample) throw new Error("empty sample");
  return sample;
}

describe("describeFromSums", () => {
  it("gives the mean and the n − 1 sample variance", () => {
    // By hand: Σx = 7.5, Σx² = 34.43 → mean 0.75, s² = (34.43 − 7.5²/10)/9 = 3.200556.
    const sample = fromValues(GROUP_1);
    expect(sample.mean).toBeCloseTo(0.75, 12);
    expect(sample.variance).toBeCloseTo(28.805 / 9, 12);
    // Σx = 23.3, Σx² = 90.37 → mean 2.33, s² = (90.37 − 23.3²/10)/9 = 4.009.
    expect(fromValues(GROUP_2).variance).toBeCloseTo(4.009, 12);
  });

  it("never returns a negative variance for constant values", () => {
    expect(describeFromSums(3, 0.3, 0.03)?.variance).toBe(0);
  });

  it("has no variance below two values and nothing for none", () => {
    expect(describeFromSums(1, 5, 25)?.variance).toBeNaN();
    expect(describeFromSums(0, 0, 0)).toBeNull();
  });
});

describe("welchInterval", () => {
  it("reproduces R's t.test(extra ~ group, data = sleep)", () => {
    // R documentation example (?t.test), Welch two-sample t-test:
    //   t = -1.8608, df = 17.776, 95 percent confidence interval: -3.3654832  0.2054832
    // By hand: se² = 3.200556/10 + 4.009/10 = 0.7209556, se = 0.849091;
    // ν = 0.7209556² / (0.3200556²/9 + 0.4009²/9) = 17.7765; t_{0.975, 17.7765} = 2.1028;
    // −1.58 ± 2.1028 · 0.849091.
    const interval = welchInterval(fromValues(GROUP_1), fromValues(GROUP_2));
    expect(interval?.estimate).toBeCloseTo(-1.58, 12);
    expect(interval?.df).toBeCloseTo(17.776, 3);
    expect(interval?.estimate && interval.estimate / interval.standardError).toBeCloseTo(
      -1.8608,
      4,
    );
    expect(interval?.lower).toBeCloseTo(-3.3654832, 7);
    expect(interval?.upper).toBeCloseTo(0.2054832, 7);
    // SciPy `ttest_ind(g1, g2, equal_var=False)`: df = 17.776473516178488.
    expect(interval?.df).toBeCloseTo(17.776473516178488, 10);
  });

  it("uses n − 1 degrees of freedom when one sample does not vary", () => {
    const constant = { n: 50, mean: 10, variance: 0 };
    const varied = { n: 12, mean: 12, variance: 9 };
    const interval = welchInterval(varied, constant);
    expect(interval?.df).toBeCloseTo(11, 12);
    // t_{0.975, 11} = 2.201 (NIST table), se = √(9/12).
    expect(interval?.upper).toBeCloseTo(2 + 2.201 * Math.sqrt(0.75), 2);
  });

  it("is undefined without variation or with fewer than two values", () => {
    expect(
      welchInterval({ n: 5, mean: 1, variance: 0 }, { n: 5, mean: 2, variance: 0 }),
    ).toBeNull();
    expect(welchInterval({ n: 1, mean: 1, variance: Number.NaN }, fromValues(GROUP_1))).toBeNull();
  });
});

describe("meanInterval", () => {
  it("is the one-sample t interval", () => {
    // SciPy `ttest_1samp(group1, 0).confidence_interval()` = (-0.5297804, 2.0297804); by hand
    // 0.75 ± t_{0.975, 9}·√(3.200556/10) = 0.75 ± 2.262157·0.565735.
    const interval = meanInterval(fromValues(GROUP_1));
    expect(interval?.lower).toBeCloseTo(-0.5297804, 6);
    expect(interval?.upper).toBeCloseTo(2.0297804, 6);
  });
});
