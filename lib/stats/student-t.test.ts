import { describe, expect, it } from "vitest";
import { normalCriticalValue, normalQuantile } from "./normal";
import { studentTCdf, studentTCriticalValue, studentTQuantile } from "./student-t";

/**
 * Upper critical values t_{1−α, ν} from the NIST/SEMATECH e-Handbook of Statistical Methods,
 * §1.3.6.7.2 "Critical Values of the Student's t Distribution" (tabulated to 3 decimals),
 * columns α = 0.05, 0.025 and 0.005.
 */
const NIST_TABLE: { df: number; p95: number; p975: number; p995: number }[] = [
  { df: 1, p95: 6.314, p975: 12.706, p995: 63.657 },
  { df: 2, p95: 2.92, p975: 4.303, p995: 9.925 },
  { df: 3, p95: 2.353, p975: 3.182, p995: 5.841 },
  { df: 4, p95: 2.132, p975: 2.776, p995: 4.604 },
  { df: 5, p95: 2.015, p975: 2.571, p995: 4.032 },
  { df: 10, p95: 1.812, p975: 2.228, p995: 3.169 },
  { df: 30, p95: 1.697, p975: 2.042, p995: 2.75 },
  { df: 100, p95: 1.66, p975: 1.984, p995: 2.626 },
];

describe("studentTQuantile", () => {
  it.each(NIST_TABLE)("matches the NIST table for ν = $df", ({ df, p95, p975, p995 }) => {
    expect(studentTQuantile(0.95, df)).toBeCloseTo(p95, 3);
    expect(studentTQuantile(0.975, df)).toBeCloseTo(p975, 3);
    expect(studentTQuantile(0.995, df)).toBeCloseTo(p995, 3);
  });

  it("matches closed forms for ν = 1, 2 and 4 to full precision", () => {
    // ν = 1 is the Cauchy distribution: t = tan(π(p − ½)).
    // ν = 2: t = (2p − 1)/√(2p(1 − p)); ν = 4: α = 4p(1 − p), q = cos(⅓·acos(√α))/√α,
    // t = 2√(q − 1) (Hill 1970, Comm. ACM 13:617; also W. Shaw, J. Comput. Finance 2006).
    for (const p of [0.6, 0.9, 0.975, 0.999]) {
      expect(studentTQuantile(p, 1)).toBeCloseTo(Math.tan(Math.PI * (p - 0.5)), 10);
      expect(studentTQuantile(p, 2)).toBeCloseTo((2 * p - 1) / Math.sqrt(2 * p * (1 - p)), 12);
      const alpha = 4 * p * (1 - p);
      const q = Math.cos(Math.acos(Math.sqrt(alpha)) / 3) / Math.sqrt(alpha);
      expect(studentTQuantile(p, 4)).toBeCloseTo(2 * Math.sqrt(q - 1), 11);
    }
  });

  it("handles non-integer degrees of freedom (Welch–Satterthwaite)", () => {
    // Reference values from SciPy 1.17 `scipy.stats.t.ppf(p, df)`, computed separately.
    expect(studentTQuantile(0.975, 2.5)).toBeCloseTo(3.5746548420036817, 10);
    expect(studentTQuantile(0.975, 17.776)).toBeCloseTo(2.102821310380221, 10);
    expect(studentTQuantile(0.975, 0.5)).toBeCloseTo(164.55767348048818, 8);
    expect(studentTQuantile(0.975, 3.3)).toBeCloseTo(3.024874461840807, 10);
    expect(studentTQuantile(0.975, 1000)).toBeCloseTo(1.9623390808264083, 10);
    expect(studentTQuantile(1e-12, 3)).toBeCloseTo(-10331.108244292487, 6);
  });

  it("is symmetric and tends to the normal quantile", () => {
    expect(studentTQuantile(0.025, 7.5)).toBeCloseTo(-studentTQuantile(0.975, 7.5), 12);
    expect(studentTQuantile(0.5, 3)).toBe(0);
    expect(studentTQuantile(0.975, 1e9)).toBeCloseTo(normalQuantile(0.975), 8);
    expect(studentTQuantile(1, 5)).toBe(Number.POSITIVE_INFINITY);
    expect(studentTCriticalValue(0.95, 10)).toBeCloseTo(2.228, 3);
  });

  it("inverts the CDF", () => {
    for (const df of [0.7, 1.5, 6.2, 41.9, 2_500]) {
      for (const p of [0.001, 0.2, 0.7, 0.975]) {
        expect(studentTCdf(studentTQuantile(p, df), df)).toBeCloseTo(p, 12);
      }
    }
  });

  it("rejects invalid arguments", () => {
    expect(() => studentTQuantile(0.5, 0)).toThrow(RangeError);
    expect(() => studentTQuantile(1.5, 3)).toThrow(RangeError);
  });
});

describe("normalQuantile", () => {
  it("matches standard normal tables", () => {
    // z_{0.975} = 1.959964, z_{0.995} = 2.575829, z_{0.95} = 1.644854 (NIST/SEMATECH
    // e-Handbook §1.3.6.7.1 tabulates Φ; these are the usual 6-decimal critical values).
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 6);
    expect(normalQuantile(0.995)).toBeCloseTo(2.575829, 6);
    expect(normalQuantile(0.95)).toBeCloseTo(1.644854, 6);
    expect(normalCriticalValue(0.95)).toBeCloseTo(1.959963984540054, 12);
    // SciPy `scipy.stats.norm.ppf(1e-10)`.
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 10);
  });
});
