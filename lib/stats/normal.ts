/**
 * The standard normal distribution: CDF through erfc, quantile by Newton's method from a
 * rational starting value.
 */
import { erfc } from "./special";

/** Φ(x). */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** φ(x). */
export function normalDensity(x: number): number {
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}

/**
 * Starting value for the upper-tail quantile: Abramowitz & Stegun 26.2.23 (absolute error
 * below 4.5e-4), for 0 < q ≤ 0.5.
 */
function upperTailStart(q: number): number {
  const t = Math.sqrt(-2 * Math.log(q));
  return (
    t -
    (2.515517 + 0.802853 * t + 0.010328 * t * t) /
      (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t)
  );
}

/** Φ⁻¹(p) for 0 < p < 1 (±Infinity at 0 and 1), to about 1e-14. */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`normalQuantile needs 0 ≤ p ≤ 1, got ${p}`);
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  if (p === 0.5) return 0;
  // Work in the upper tail, q = P(Z > x), where erfc keeps full relative precision.
  const q = p > 0.5 ? 1 - p : p;
  let x = upperTailStart(q);
  for (let i = 0; i < 50; i++) {
    const tail = 0.5 * erfc(x / Math.SQRT2);
    const step = (tail - q) / normalDensity(x);
    x += step;
    if (Math.abs(step) <= 1e-15 * Math.max(1, Math.abs(x))) break;
  }
  return p > 0.5 ? x : -x;
}

/** The two-sided critical value for a confidence level, e.g. 0.95 → 1.959963984540054. */
export function normalCriticalValue(confidence: number): number {
  assertConfidence(confidence);
  return normalQuantile(1 - (1 - confidence) / 2);
}

export function assertConfidence(confidence: number): void {
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`confidence must be between 0 and 1, got ${confidence}`);
  }
}
