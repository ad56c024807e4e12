/**
 * Intervals for a ratio of two independent estimates on the log scale (delta method):
 *   log(θ̂₁/θ̂₂) ± z · √(Var(log θ̂₁) + Var(log θ̂₂)).
 *
 * For proportions Var(log p̂) ≈ (1 − p̂)/x = 1/x − 1/n, which gives the Katz log interval for a
 * risk ratio (Katz, Baptista, Azen & Pike. Obtaining confidence intervals for the risk ratio in
 * cohort studies. Biometrics 1978;34:469–474). For means Var(log x̄) ≈ s²/(n·x̄²).
 * Relative differences are reported as ratio − 1.
 */
import type { Interval } from "./interval";
import type { MeanSample } from "./mean";
import { normalCriticalValue } from "./normal";
import type { Proportion } from "./proportion";

interface LogEstimate {
  estimate: number;
  varianceOfLog: number;
}

function ratioInterval(
  first: LogEstimate,
  second: LogEstimate,
  confidence: number,
): Interval | null {
  if (!(first.estimate > 0 && second.estimate > 0)) return null;
  if (!Number.isFinite(first.varianceOfLog) || !Number.isFinite(second.varianceOfLog)) return null;
  const logRatio = Math.log(first.estimate / second.estimate);
  const half =
    normalCriticalValue(confidence) * Math.sqrt(first.varianceOfLog + second.varianceOfLog);
  return {
    estimate: first.estimate / second.estimate,
    lower: Math.exp(logRatio - half),
    upper: Math.exp(logRatio + half),
  };
}

/** Katz log interval for p₁/p₂; null when either proportion is 0 (the log is undefined). */
export function proportionRatioInterval(
  first: Proportion,
  second: Proportion,
  confidence = 0.95,
): Interval | null {
  if (first.trials === 0 || second.trials === 0) return null;
  const logEstimate = ({ successes, trials }: Proportion): LogEstimate => ({
    estimate: successes / trials,
    varianceOfLog: successes > 0 ? 1 / successes - 1 / trials : Number.POSITIVE_INFINITY,
  });
  return ratioInterval(logEstimate(first), logEstimate(second), confidence);
}

/**
 * Delta-method interval for x̄₁/x̄₂; null when a mean is not positive, n < 2, or neither sample
 * varies (as for Welch, there is then no sampling error to measure).
 */
export function meanRatioInterval(
  first: MeanSample,
  second: MeanSample,
  confidence = 0.95,
): Interval | null {
  if (first.n < 2 || second.n < 2) return null;
  if (first.variance === 0 && second.variance === 0) return null;
  const logEstimate = (sample: MeanSample): LogEstimate => ({
    estimate: sample.mean,
    varianceOfLog: sample.variance / (sample.n * sample.mean * sample.mean),
  });
  return ratioInterval(logEstimate(first), logEstimate(second), confidence);
}

/** A ratio interval as a relative difference: θ₁/θ₂ − 1. */
export function toRelativeDifference(ratio: Interval): Interval {
  return { estimate: ratio.estimate - 1, lower: ratio.lower - 1, upper: ratio.upper - 1 };
}
