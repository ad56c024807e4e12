/**
 * Cohort comparison: per metric, each cohort's value, sample size and 95% interval, and the
 * difference B − A with its 95% interval, absolute and relative.
 *
 * Means (per decision): x̄ = Σx/n, s² = (Σx² − (Σx)²/n)/(n − 1) from the rollups' sums and
 *   sums of squares; per-cohort t interval; Welch interval (Welch–Satterthwaite df) for B − A;
 *   relative difference x̄_B/x̄_A − 1 with a delta-method interval on the log ratio.
 * Rates: p = count/n; Wilson interval per cohort; Newcombe hybrid score interval (method 10)
 *   for p_B − p_A; relative difference p_B/p_A − 1 with the Katz log interval.
 * A difference counts as significant only when its absolute interval excludes zero.
 */
import { formatCount } from "@/lib/dashboard/format";
import {
  describeFromSums,
  excludesZero,
  type Interval,
  type MeanSample,
  meanInterval,
  meanRatioInterval,
  newcombeInterval,
  proportionRatioInterval,
  toRelativeDifference,
  welchInterval,
  wilsonInterval,
} from "@/lib/stats";
import {
  formatBracket,
  formatMean,
  formatMeanDifference,
  formatRate,
  formatRateDifference,
  formatRelative,
} from "./format";
import { COHORT_SUM_KEYS, type CohortSums, ZERO_COHORT_SUMS } from "./types";

export const CONFIDENCE = 0.95;

/** Which direction of change is an improvement. */
export type Preference = "higher" | "lower" | "neutral";

interface MetricBase {
  id: string;
  label: string;
  description: string;
  preference: Preference;
}

interface MeanMetric extends MetricBase {
  kind: "mean";
  decimals: number;
  sum: keyof CohortSums;
  sumOfSquares: keyof CohortSums;
}

interface RateMetric extends MetricBase {
  kind: "rate";
  count: keyof CohortSums;
  /** Decisions, or decisions with a reported outcome. */
  base: "decisions" | "outcomes";
}

export type MetricDefinition = MeanMetric | RateMetric;

/** The compared metrics, in display order. */
export const ROLLOUT_METRICS: readonly MetricDefinition[] = [
  {
    id: "droppedTokens",
    label: "Dropped tokens per decision",
    description: "Mean of the agents' dropped-token estimates per decision",
    kind: "mean",
    decimals: 1,
    sum: "droppedTokens",
    sumOfSquares: "droppedTokensSq",
    preference: "higher",
  },
  {
    id: "offeredTools",
    label: "Tools offered per decision",
    description: "Mean palette size before narrowing",
    kind: "mean",
    decimals: 2,
    sum: "offeredTools",
    sumOfSquares: "offeredToolsSq",
    preference: "neutral",
  },
  {
    id: "selectedTools",
    label: "Tools selected per decision",
    description: "Mean palette size after narrowing",
    kind: "mean",
    decimals: 2,
    sum: "selectedTools",
    sumOfSquares: "selectedToolsSq",
    preference: "neutral",
  },
  {
    id: "reinstatementRate",
    label: "Reinstatement rate",
    description: "Decisions with at least one forced-tool reinstatement, per decision",
    kind: "rate",
    count: "decisionsReinstated",
    base: "decisions",
    preference: "lower",
  },
  {
    id: "emptyPaletteRate",
    label: "Empty-palette rate",
    description: "Decisions with an empty-palette warning, per decision",
    kind: "rate",
    count: "decisionsEmptyPalette",
    base: "decisions",
    preference: "lower",
  },
  {
    id: "stageErrorRate",
    label: "Stage-error rate",
    description: "Decisions with at least one stage error, per decision",
    kind: "rate",
    count: "decisionsStageError",
    base: "decisions",
    preference: "lower",
  },
  {
    id: "harmfulDropRate",
    label: "Harmful-drop rate",
    description:
      "Decisions with a reported outcome in which the model called a tool the narrowing had dropped, per decision with an outcome",
    kind: "rate",
    count: "harmfulDecisions",
    base: "outcomes",
    preference: "lower",
  },
  {
    id: "zeroCallRate",
    label: "Zero-tool-call rate",
    description:
      "Reported outcomes in which the model called no tool, per decision with an outcome",
    kind: "rate",
    count: "zeroCallOutcomes",
    base: "outcomes",
    preference: "lower",
  },
];

/** Adds cohort sums (e.g. the cells of one mode across config versions). */
export function addCohortSums(a: CohortSums, b: CohortSums): CohortSums {
  const total = { ...a };
  for (const key of COHORT_SUM_KEYS) total[key] = a[key] + b[key];
  return total;
}

/** The sum of every cell the predicate keeps. */
export function sumCohorts<T extends CohortSums>(
  cells: readonly T[],
  keep: (cell: T) => boolean = () => true,
): CohortSums {
  let total: CohortSums = { ...ZERO_COHORT_SUMS };
  for (const cell of cells) if (keep(cell)) total = addCohortSums(total, cell);
  return total;
}

/** One cohort's value of one metric, with text for the page. */
export interface CohortMetricValue {
  /** Mean or rate; null when the sample is empty. */
  value: number | null;
  /** Sample size: decisions, or decisions with an outcome. */
  n: number;
  /** Numerator of a rate. */
  count: number | null;
  lower: number | null;
  upper: number | null;
  display: { value: string; detail: string; interval: string };
}

/** A difference B − A with its interval (limits null when no interval exists). */
export interface DifferenceValue {
  estimate: number;
  lower: number | null;
  upper: number | null;
  display: { estimate: string; interval: string };
}

export type Tone = "better" | "worse" | "changed" | "none";

export interface MetricComparison {
  id: string;
  label: string;
  description: string;
  kind: "mean" | "rate";
  base: "decisions" | "outcomes";
  a: CohortMetricValue;
  b: CohortMetricValue;
  /** B − A; null when either cohort has no value. */
  difference: DifferenceValue | null;
  /** (B − A)/A; null when A is 0 or missing. */
  relative: DifferenceValue | null;
  /** Welch–Satterthwaite degrees of freedom (means only). */
  df: number | null;
  /** The absolute difference's interval excludes zero. */
  significant: boolean;
  /** How to colour the difference: only significant ones get a tone. */
  tone: Tone;
}

const DASH = "—";

function toneOf(preference: Preference, significant: boolean, estimate: number): Tone {
  if (!significant) return "none";
  if (preference === "neutral") return "changed";
  const rose = estimate > 0;
  return rose === (preference === "higher") ? "better" : "worse";
}

function bracket(interval: Interval | null, format: (value: number) => string): string {
  return interval ? formatBracket(format(interval.lower), format(interval.upper)) : DASH;
}

function relativeValue(estimate: number | null, interval: Interval | null): DifferenceValue | null {
  if (estimate === null || !Number.isFinite(estimate)) return null;
  const relative = interval ? toRelativeDifference(interval) : null;
  return {
    estimate,
    lower: relative?.lower ?? null,
    upper: relative?.upper ?? null,
    display: { estimate: formatRelative(estimate), interval: bracket(relative, formatRelative) },
  };
}

function compareMean(metric: MeanMetric, a: CohortSums, b: CohortSums): MetricComparison {
  const sampleOf = (sums: CohortSums): MeanSample | null =>
    describeFromSums(sums.decisions, sums[metric.sum], sums[metric.sumOfSquares]);
  const format = (value: number) => formatMean(value, metric.decimals);
  const cohortValue = (sample: MeanSample | null, sums: CohortSums): CohortMetricValue => {
    const interval = sample ? meanInterval(sample, CONFIDENCE) : null;
    return {
      value: sample?.mean ?? null,
      n: sums.decisions,
      count: null,
      lower: interval?.lower ?? null,
      upper: interval?.upper ?? null,
      display: {
        value: sample ? format(sample.mean) : DASH,
        detail:
          sample && Number.isFinite(sample.variance)
            ? `sd ${format(Math.sqrt(sample.variance))}`
            : "",
        interval: bracket(interval, format),
      },
    };
  };
  const sampleA = sampleOf(a);
  const sampleB = sampleOf(b);
  const welch = sampleA && sampleB ? welchInterval(sampleB, sampleA, CONFIDENCE) : null;
  let difference: DifferenceValue | null = null;
  let relative: DifferenceValue | null = null;
  if (sampleA && sampleB) {
    const estimate = sampleB.mean - sampleA.mean;
    const diffFormat = (value: number) => formatMeanDifference(value, metric.decimals);
    difference = {
      estimate,
      lower: welch?.lower ?? null,
      upper: welch?.upper ?? null,
      display: { estimate: diffFormat(estimate), interval: bracket(welch, diffFormat) },
    };
    relative = relativeValue(
      sampleA.mean === 0 ? null : estimate / sampleA.mean,
      meanRatioInterval(sampleB, sampleA, CONFIDENCE),
    );
  }
  const significant = welch !== null && excludesZero(welch);
  return {
    id: metric.id,
    label: metric.label,
    description: metric.description,
    kind: "mean",
    base: "decisions",
    a: cohortValue(sampleA, a),
    b: cohortValue(sampleB, b),
    difference,
    relative,
    df: welch?.df ?? null,
    significant,
    tone: toneOf(metric.preference, significant, difference?.estimate ?? 0),
  };
}

function compareRate(metric: RateMetric, a: CohortSums, b: CohortSums): MetricComparison {
  const proportionOf = (sums: CohortSums) => ({
    successes: sums[metric.count],
    trials: sums[metric.base],
  });
  const cohortValue = (sums: CohortSums): CohortMetricValue => {
    const proportion = proportionOf(sums);
    const interval = wilsonInterval(proportion, CONFIDENCE);
    return {
      value: interval?.estimate ?? null,
      n: proportion.trials,
      count: proportion.successes,
      lower: interval?.lower ?? null,
      upper: interval?.upper ?? null,
      display: {
        value: interval ? formatRate(interval.estimate) : DASH,
        detail: `${formatCount(proportion.successes)} / ${formatCount(proportion.trials)}`,
        interval: bracket(interval, formatRate),
      },
    };
  };
  const valueA = cohortValue(a);
  const valueB = cohortValue(b);
  const newcombe = newcombeInterval(proportionOf(b), proportionOf(a), CONFIDENCE);
  let difference: DifferenceValue | null = null;
  let relative: DifferenceValue | null = null;
  if (valueA.value !== null && valueB.value !== null && newcombe) {
    difference = {
      estimate: newcombe.estimate,
      lower: newcombe.lower,
      upper: newcombe.upper,
      display: {
        estimate: formatRateDifference(newcombe.estimate),
        interval: bracket(newcombe, formatRateDifference),
      },
    };
    relative = relativeValue(
      valueA.value === 0 ? null : newcombe.estimate / valueA.value,
      proportionRatioInterval(proportionOf(b), proportionOf(a), CONFIDENCE),
    );
  }
  const significant = newcombe !== null && excludesZero(newcombe);
  return {
    id: metric.id,
    label: metric.label,
    description: metric.description,
    kind: "rate",
    base: metric.base,
    a: valueA,
    b: valueB,
    difference,
    relative,
    df: null,
    significant,
    tone: toneOf(metric.preference, significant, difference?.estimate ?? 0),
  };
}

/** Every metric of cohort A (baseline) against cohort B. */
export function compareCohorts(a: CohortSums, b: CohortSums): MetricComparison[] {
  return ROLLOUT_METRICS.map((metric) =>
    metric.kind === "mean" ? compareMean(metric, a, b) : compareRate(metric, a, b),
  );
}
