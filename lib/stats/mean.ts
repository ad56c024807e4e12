/**
 * Means from running sums, and Welch's interval for a difference of means.
 *
 * Sample variance from sums: s² = (Σx² − (Σx)²/n) / (n − 1).
 * Welch (1947) with the Welch–Satterthwaite degrees of freedom:
 *   se² = s₁²/n₁ + s₂²/n₂,
 *   ν   = se⁴ / ((s₁²/n₁)²/(n₁ − 1) + (s₂²/n₂)²/(n₂ − 1)),
 *   (x̄₁ − x̄₂) ± t_{1−α/2, ν} · se.
 */
import type { Interval } from "./interval";
import { studentTCriticalValue } from "./student-t";

export interface MeanSample {
  n: number;
  mean: number;
  /** Sample variance (n − 1 denominator); NaN when n < 2. */
  variance: number;
}

/** Mean and sample variance of n values given Σx and Σx²; null when n = 0. */
export function describeFromSums(n: number, sum: number, sumOfSquares: number): MeanSample | null {
  if (!(n >= 0) || !Number.isInteger(n)) throw new RangeError(`n must be a whole count, got ${n}`);
  if (n === 0) return null;
  const mean = sum / n;
  if (n < 2) return { n, mean, variance: Number.NaN };
  // Cancellation can leave a tiny negative number when every value is equal.
  const variance = Math.max(0, (sumOfSquares - (sum * sum) / n) / (n - 1));
  return { n, mean, variance };
}

/** One-sample t interval for a mean; null when n < 2. */
export function meanInterval(sample: MeanSample, confidence = 0.95): Interval | null {
  if (sample.n < 2 || !Number.isFinite(sample.variance)) return null;
  const se = Math.sqrt(sample.variance / sample.n);
  if (se === 0) return { estimate: sample.mean, lower: sample.mean, upper: sample.mean };
  const t = studentTCriticalValue(confidence, sample.n - 1);
  return { estimate: sample.mean, lower: sample.mean - t * se, upper: sample.mean + t * se };
}

export interface WelchInterval extends Interval {
  standardError: number;
  /** Welch–Satterthwaite degrees of freedom. */
  df: number;
}

/**
 * Welch interval for mean(first) − mean(second). Null when either sample has fewer than two
 * values, or when neither varies (the t statistic is undefined).
 */
export function welchInterval(
  first: MeanSample,
  second: MeanSample,
  confidence = 0.95,
): WelchInterval | null {
  if (first.n < 2 || second.n < 2) return null;
  const a = first.variance / first.n;
  const b = second.variance / second.n;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return null;
  const se2 = a + b;
  if (se2 === 0) return null;
  const df = (se2 * se2) / ((a * a) / (first.n - 1) + (b * b) / (second.n - 1));
  const standardError = Math.sqrt(se2);
  const t = studentTCriticalValue(confidence, df);
  const estimate = first.mean - second.mean;
  return {
    estimate,
    lower: estimate - t * standardError,
    upper: estimate + t * standardError,
    standardError,
    df,
  };
}
