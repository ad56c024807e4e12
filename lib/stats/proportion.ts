/**
 * Intervals for proportions.
 *
 * Wilson score interval (Wilson 1927; "method 3" of Newcombe 1998a): the set of p for which
 * |x/n − p| ≤ z·√(p(1−p)/n), i.e.
 *   (x + z²/2 ± z·√(x(n−x)/n + z²/4)) / (n + z²).
 *
 * Newcombe hybrid score interval for p₁ − p₂ ("method 10" of Newcombe 1998b), from the Wilson
 * limits (l₁, u₁) and (l₂, u₂) of each proportion:
 *   lower = (p̂₁ − p̂₂) − √((p̂₁ − l₁)² + (u₂ − p̂₂)²)
 *   upper = (p̂₁ − p̂₂) + √((u₁ − p̂₁)² + (p̂₂ − l₂)²)
 *
 * Newcombe RG. Two-sided confidence intervals for the single proportion: comparison of seven
 * methods. Stat Med 1998;17:857–872. — Interval estimation for the difference between
 * independent proportions: comparison of eleven methods. Stat Med 1998;17:873–890.
 */
import type { Interval } from "./interval";
import { normalCriticalValue } from "./normal";

export interface Proportion {
  successes: number;
  trials: number;
}

function assertProportion({ successes, trials }: Proportion): void {
  if (!Number.isInteger(successes) || !Number.isInteger(trials) || trials < 0) {
    throw new RangeError(`a proportion needs whole counts, got ${successes}/${trials}`);
  }
  if (successes < 0 || successes > trials) {
    throw new RangeError(`successes must be between 0 and trials, got ${successes}/${trials}`);
  }
}

/** Wilson score interval for x/n; null when n = 0 (no estimate at all). */
export function wilsonInterval(proportion: Proportion, confidence = 0.95): Interval | null {
  assertProportion(proportion);
  const { successes: x, trials: n } = proportion;
  if (n === 0) return null;
  const z = normalCriticalValue(confidence);
  const z2 = z * z;
  const center = (x + z2 / 2) / (n + z2);
  const half = (z * Math.sqrt((x * (n - x)) / n + z2 / 4)) / (n + z2);
  return {
    estimate: x / n,
    // The limits are exactly 0 and 1 at the boundaries; clamp rounding noise.
    lower: x === 0 ? 0 : Math.max(0, center - half),
    upper: x === n ? 1 : Math.min(1, center + half),
  };
}

/**
 * Newcombe's hybrid score interval for p₁ − p₂ (method 10); null when either sample is empty.
 */
export function newcombeInterval(
  first: Proportion,
  second: Proportion,
  confidence = 0.95,
): Interval | null {
  const one = wilsonInterval(first, confidence);
  const two = wilsonInterval(second, confidence);
  if (!one || !two) return null;
  const difference = one.estimate - two.estimate;
  return {
    estimate: difference,
    lower: difference - Math.hypot(one.estimate - one.lower, two.upper - two.estimate),
    upper: difference + Math.hypot(one.upper - one.estimate, two.estimate - two.lower),
  };
}

/**
 * The smallest number of trials for which zero successes give a Wilson upper limit strictly
 * below `threshold`. With x = 0 the upper limit is z²/(n + z²), which is below t exactly when
 * n > z²(1 − t)/t. Below this n no sample, however clean, can show the rate is under t.
 */
export function minimumTrialsForUpperBound(threshold: number, confidence = 0.95): number {
  if (!(threshold > 0 && threshold < 1)) {
    throw new RangeError(`threshold must be between 0 and 1, got ${threshold}`);
  }
  const z = normalCriticalValue(confidence);
  return Math.floor((z * z * (1 - threshold)) / threshold) + 1;
}
