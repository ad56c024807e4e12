/**
 * The verdict on observe traffic: would enforcing this narrowing have broken calls?
 *
 * Rule: "safe to enforce" when BOTH
 *   1. outcomes ≥ n_min, where n_min is the smallest sample for which zero harmful drops give
 *      a 95% Wilson upper bound below the threshold t: n_min = ⌊z²(1 − t)/t⌋ + 1 (381 for 1%).
 *      Below n_min no sample, however clean, can show the rate is under t, so the page says
 *      "not enough samples" rather than guessing;
 *   2. the 95% Wilson upper bound of harmful decisions / outcomes is below t.
 * Otherwise the verdict names what failed, and the tools that caused the harmful drops.
 */
import { formatCount } from "@/lib/dashboard/format";
import { minimumTrialsForUpperBound, wilsonInterval } from "@/lib/stats";
import { CONFIDENCE } from "./cohorts";
import { formatRate } from "./format";
import type { CohortSums } from "./types";

export type VerdictStatus = "safe" | "harmful" | "insufficient" | "no-outcomes";

export interface VerdictCheck {
  id: "sample" | "upper-bound";
  passed: boolean;
  text: string;
}

/**
 * What the sample is called in the verdict's sentences. The rule is the same wherever it is
 * applied (observe traffic on the rollouts view, replayed decisions of a backtest); only the
 * words for the decisions counted and for what would have broken calls differ.
 */
export interface VerdictWording {
  /** The decisions counted, in a sentence: "observe decisions". */
  decisions: string;
  /** One of them: "observe decision". */
  decision: string;
  /** The label of the rate: "Harmful-drop rate (observe)". */
  rateLabel: string;
  /** What would have broken calls: "enforce". */
  breaker: string;
  /** The headline when there was no decision at all. */
  noTraffic: string;
}

/** The rollouts view's words: observe traffic, judged for enforce. */
export const OBSERVE_WORDING: VerdictWording = {
  decisions: "observe decisions",
  decision: "observe decision",
  rateLabel: "Harmful-drop rate (observe)",
  breaker: "enforce",
  noTraffic: "No observe traffic in this window",
};

export interface Verdict {
  status: VerdictStatus;
  wording: VerdictWording;
  headline: string;
  /** Threshold as a fraction (0.01 = 1%). */
  threshold: number;
  minimumOutcomes: number;
  decisions: number;
  outcomes: number;
  harmfulDecisions: number;
  harmfulDrops: number;
  rate: number | null;
  lower: number | null;
  upper: number | null;
  /** Share of observe decisions that reported an outcome. */
  outcomeCoverage: number | null;
  checks: VerdictCheck[];
  display: {
    threshold: string;
    rate: string;
    interval: string;
    coverage: string;
  };
}

/**
 * The verdict for a sample's sums (the observe cohort's, or a backtest's replayed decisions)
 * and a threshold given in percent.
 */
export function decideVerdict(
  observe: Pick<CohortSums, "decisions" | "outcomes" | "harmfulDecisions" | "harmfulDrops">,
  thresholdPercent: number,
  wording: VerdictWording = OBSERVE_WORDING,
): Verdict {
  const threshold = thresholdPercent / 100;
  const minimumOutcomes = minimumTrialsForUpperBound(threshold, CONFIDENCE);
  const { decisions, outcomes, harmfulDecisions, harmfulDrops } = observe;
  const interval = wilsonInterval({ successes: harmfulDecisions, trials: outcomes }, CONFIDENCE);
  const thresholdText = formatRate(threshold);
  const enough = outcomes >= minimumOutcomes;
  const underThreshold = interval !== null && interval.upper < threshold;

  const checks: VerdictCheck[] = [
    {
      id: "sample",
      passed: enough,
      text: enough
        ? `${formatCount(outcomes)} ${wording.decisions} with a reported outcome, at least the ${formatCount(minimumOutcomes)} needed.`
        : `${formatCount(outcomes)} ${wording.decisions} with a reported outcome; ${formatCount(minimumOutcomes)} are needed before a ${thresholdText} threshold can be confirmed (${formatCount(minimumOutcomes - outcomes)} more).`,
    },
    {
      id: "upper-bound",
      passed: underThreshold,
      text: interval
        ? `Harmful-drop rate ${formatRate(interval.estimate)} (${formatCount(harmfulDecisions)} of ${formatCount(outcomes)}); its 95% upper bound ${formatRate(interval.upper)} is ${underThreshold ? "below" : "not below"} the ${thresholdText} threshold.`
        : `No harmful-drop rate: no ${wording.decision} has a reported outcome.`,
    },
  ];

  let status: VerdictStatus;
  let headline: string;
  if (outcomes === 0) {
    status = "no-outcomes";
    headline =
      decisions === 0
        ? wording.noTraffic
        : `Cannot tell yet: no tool_call_outcome events for ${wording.decisions}`;
  } else if (enough && underThreshold) {
    status = "safe";
    headline = "Safe to enforce";
  } else if (harmfulDecisions === 0) {
    status = "insufficient";
    headline = "Not enough samples yet";
  } else {
    status = "harmful";
    headline = `Not safe to enforce: ${wording.breaker} would have broken calls`;
  }

  return {
    status,
    wording,
    headline,
    threshold,
    minimumOutcomes,
    decisions,
    outcomes,
    harmfulDecisions,
    harmfulDrops,
    rate: interval?.estimate ?? null,
    lower: interval?.lower ?? null,
    upper: interval?.upper ?? null,
    outcomeCoverage: decisions > 0 ? outcomes / decisions : null,
    checks,
    display: {
      threshold: thresholdText,
      rate: interval ? formatRate(interval.estimate) : "—",
      interval: interval ? `[${formatRate(interval.lower)}, ${formatRate(interval.upper)}]` : "—",
      coverage: decisions > 0 ? formatRate(outcomes / decisions) : "—",
    },
  };
}
