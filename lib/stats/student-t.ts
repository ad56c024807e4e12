/**
 * Student's t distribution with real (not only whole) degrees of freedom, as the
 * Welch–Satterthwaite approximation produces them.
 *
 * Tail: P(T > t) = ½ · I_{ν/(ν+t²)}(ν/2, ½) for t ≥ 0 (Abramowitz & Stegun 26.7.1 with
 * 26.5.27). Quantile: safeguarded Newton iteration on the upper tail, so probabilities close to
 * 1 keep full relative precision.
 */
import { normalQuantile } from "./normal";
import { logGamma, regularizedIncompleteBeta } from "./special";

/** Beyond this many degrees of freedom the t and normal quantiles agree to ~1e-8. */
const NORMAL_LIMIT_DF = 1e8;

function assertDf(df: number): void {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be positive, got ${df}`);
}

/** P(T > t) for t ≥ 0. */
function upperTail(t: number, df: number): number {
  return 0.5 * regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** The density f(t; ν). */
export function studentTDensity(t: number, df: number): number {
  assertDf(df);
  const logDensity =
    logGamma((df + 1) / 2) -
    logGamma(df / 2) -
    0.5 * Math.log(df * Math.PI) -
    ((df + 1) / 2) * Math.log1p((t * t) / df);
  return Math.exp(logDensity);
}

/** P(T ≤ t). */
export function studentTCdf(t: number, df: number): number {
  assertDf(df);
  if (Number.isNaN(t)) return Number.NaN;
  if (t === Number.POSITIVE_INFINITY) return 1;
  if (t === Number.NEGATIVE_INFINITY) return 0;
  const tail = upperTail(Math.abs(t), df);
  return t >= 0 ? 1 - tail : tail;
}

/** The t with P(T > t) = q, for 0 < q < ½. */
function upperTailQuantile(q: number, df: number): number {
  // Closed forms for one and two degrees of freedom.
  if (df === 1) return Math.tan(Math.PI * (0.5 - q));
  if (df === 2) {
    const p = 1 - q;
    return (2 * p - 1) / Math.sqrt(2 * p * q);
  }
  // Bracket [lo, hi] with tail(lo) ≥ q ≥ tail(hi), starting from the normal quantile (a lower
  // bound: t tails are heavier than the normal's).
  let lo = 0;
  let hi = Math.max(1, normalQuantile(1 - q));
  while (upperTail(hi, df) > q) {
    lo = hi;
    hi *= 2;
    if (!Number.isFinite(hi)) return Number.POSITIVE_INFINITY;
  }
  let t = (lo + hi) / 2;
  for (let i = 0; i < 200; i++) {
    const difference = upperTail(t, df) - q;
    if (difference === 0) return t;
    if (difference > 0) lo = t;
    else hi = t;
    // Newton step on tail(t) − q; d/dt tail = −f(t).
    const next = t + difference / studentTDensity(t, df);
    const bisect = (lo + hi) / 2;
    const candidate = next > lo && next < hi ? next : bisect;
    if (Math.abs(candidate - t) <= 1e-14 * Math.max(1, Math.abs(t))) return candidate;
    t = candidate;
  }
  return t;
}

/** The quantile t with P(T ≤ t) = p, for real df > 0. */
export function studentTQuantile(p: number, df: number): number {
  assertDf(df);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`studentTQuantile needs 0 ≤ p ≤ 1, got ${p}`);
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  if (p === 0.5) return 0;
  if (df === Number.POSITIVE_INFINITY || df > NORMAL_LIMIT_DF) return normalQuantile(p);
  const q = p > 0.5 ? 1 - p : p;
  const t = upperTailQuantile(q, df);
  return p > 0.5 ? t : -t;
}

/** The two-sided critical value t_{1−α/2, ν} for a confidence level 1 − α. */
export function studentTCriticalValue(confidence: number, df: number): number {
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`confidence must be between 0 and 1, got ${confidence}`);
  }
  return studentTQuantile(1 - (1 - confidence) / 2, df);
}
