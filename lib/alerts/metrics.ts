/**
 * The metrics an alert rule watches (SPEC §9), computed over a window from `rollup_minute`
 * rows. Pure: the evaluator and the rule form's "now" read rows with SQL sums and hand them
 * here, and the unit tests hand rows made by hand.
 *
 * Each metric has a sample — the count its value is a share of, or the decisions for counts —
 * so a rule can refuse to fire on a handful of events (its minimum sample). Rates are in
 * percent, so a threshold is typed as it is read ("fire above 5 %").
 */
import type { AlertMetric } from "@/lib/schemas/alerts";

/** The sums of `rollup_minute` columns a metric reads, over the rows of a window. */
export interface RollupSums {
  decisions: number;
  droppedTokens: number;
  decisionsReinstated: number;
  decisionsEmptyPalette: number;
  decisionsStageError: number;
  outcomes: number;
  harmfulDecisions: number;
  zeroCallOutcomes: number;
}

export const EMPTY_SUMS: RollupSums = {
  decisions: 0,
  droppedTokens: 0,
  decisionsReinstated: 0,
  decisionsEmptyPalette: 0,
  decisionsStageError: 0,
  outcomes: 0,
  harmfulDecisions: 0,
  zeroCallOutcomes: 0,
};

/** The `rollup_minute` column of each sum, for the SQL that adds them up. */
export const SUM_COLUMNS: Record<keyof RollupSums, string> = {
  decisions: "decisions",
  droppedTokens: "dropped_tokens",
  decisionsReinstated: "decisions_reinstated",
  decisionsEmptyPalette: "decisions_empty_palette",
  decisionsStageError: "decisions_stage_error",
  outcomes: "outcomes",
  harmfulDecisions: "harmful_decisions",
  zeroCallOutcomes: "zero_call_outcomes",
};

export type MetricUnit = "%" | "tokens" | "decisions";

export interface MetricDefinition {
  id: AlertMetric;
  /** "harmful-drop rate": what the form and the messages call it. */
  label: string;
  unit: MetricUnit;
  /** What the sample counts: "decisions" or "outcomes". */
  sampleLabel: "decisions" | "outcomes";
  /** One sentence for the form: what is measured. */
  description: string;
  /** The value over summed rows; null when the sample is 0 and a share has no value. */
  value(sums: RollupSums): number | null;
  sample(sums: RollupSums): number;
}

function percent(part: number, whole: number): number | null {
  return whole > 0 ? (100 * part) / whole : null;
}

export const METRICS: Record<AlertMetric, MetricDefinition> = {
  "harmful-drop-rate": {
    id: "harmful-drop-rate",
    label: "harmful-drop rate",
    unit: "%",
    sampleLabel: "outcomes",
    description:
      "Share of decisions with an outcome in which the model called a tool the routing had dropped.",
    value: (s) => percent(s.harmfulDecisions, s.outcomes),
    sample: (s) => s.outcomes,
  },
  "empty-palette-rate": {
    id: "empty-palette-rate",
    label: "empty-palette rate",
    unit: "%",
    sampleLabel: "decisions",
    description: "Share of decisions with an empty-palette warning.",
    value: (s) => percent(s.decisionsEmptyPalette, s.decisions),
    sample: (s) => s.decisions,
  },
  "reinstatement-rate": {
    id: "reinstatement-rate",
    label: "reinstatement rate",
    unit: "%",
    sampleLabel: "decisions",
    description: "Share of decisions in which a forced tool had to be put back.",
    value: (s) => percent(s.decisionsReinstated, s.decisions),
    sample: (s) => s.decisions,
  },
  "stage-error-rate": {
    id: "stage-error-rate",
    label: "stage-error rate",
    unit: "%",
    sampleLabel: "decisions",
    description: "Share of decisions in which a routing stage failed.",
    value: (s) => percent(s.decisionsStageError, s.decisions),
    sample: (s) => s.decisions,
  },
  "zero-call-rate": {
    id: "zero-call-rate",
    label: "zero-call rate",
    unit: "%",
    sampleLabel: "outcomes",
    description: "Share of decisions with an outcome in which the model called no tool.",
    value: (s) => percent(s.zeroCallOutcomes, s.outcomes),
    sample: (s) => s.outcomes,
  },
  "dropped-tokens": {
    id: "dropped-tokens",
    label: "dropped tokens",
    unit: "tokens",
    sampleLabel: "decisions",
    description:
      "Estimated tokens of tool definitions the routing left out, summed over the window.",
    value: (s) => s.droppedTokens,
    sample: (s) => s.decisions,
  },
  decisions: {
    id: "decisions",
    label: "decisions",
    unit: "decisions",
    sampleLabel: "decisions",
    description:
      "Routing decisions stored in the window; below a threshold it means an agent went silent.",
    value: (s) => s.decisions,
    sample: (s) => s.decisions,
  },
};

/** Adds rollup rows (any object with the summed fields, numbers or numeric strings). */
export function sumRows(rows: Iterable<Partial<Record<keyof RollupSums, number | string>>>) {
  const sums: RollupSums = { ...EMPTY_SUMS };
  for (const row of rows) {
    for (const key of Object.keys(sums) as (keyof RollupSums)[]) {
      const value = row[key];
      if (value !== undefined) sums[key] += Number(value);
    }
  }
  return sums;
}

/** A rule's window ending at the end of `minute`: the `windowMinutes` buckets up to it. */
export interface MetricWindow {
  /** First bucket in the window (inclusive). */
  from: Date;
  /** End of the window (exclusive): the end of the evaluated minute. */
  to: Date;
}

export const MINUTE_MS = 60_000;

/**
 * The window of an evaluation: the `windowMinutes` minutes ending with the minute (or, in
 * tests, the shorter slot) that starts at `slotStart` and lasts `slotMs`.
 */
export function windowEndingAt(slotStart: Date, windowMinutes: number, slotMs = MINUTE_MS) {
  const to = new Date(slotStart.getTime() + slotMs);
  const from = new Date(
    Math.floor((to.getTime() - windowMinutes * MINUTE_MS) / MINUTE_MS) * MINUTE_MS,
  );
  return { from, to } satisfies MetricWindow;
}

/**
 * Buckets in a window: rows whose bucket starts at or after `from` and before `to`. The
 * evaluator's SQL applies the same bounds; this is for rows already in memory.
 */
export function rowsInWindow<T extends { bucket: Date }>(
  rows: readonly T[],
  window: MetricWindow,
): T[] {
  return rows.filter(
    (row) =>
      row.bucket.getTime() >= window.from.getTime() && row.bucket.getTime() < window.to.getTime(),
  );
}

export interface MetricReading {
  metric: AlertMetric;
  value: number | null;
  sample: number;
  /** "3.1 % over 312 decisions" */
  text: string;
}

/** Formats a metric value in its unit: "3.1 %", "12,400 tokens", "0 decisions". */
export function formatMetricValue(metric: AlertMetric, value: number | null): string {
  const definition = METRICS[metric];
  if (value === null) return "no value";
  if (definition.unit === "%") return `${value.toFixed(value < 10 ? 1 : 0)} %`;
  return `${Math.round(value).toLocaleString("en-US")} ${definition.unit}`;
}

/** A metric's value and sample over summed rows, with its sentence for the form. */
export function readMetric(metric: AlertMetric, sums: RollupSums): MetricReading {
  const definition = METRICS[metric];
  const value = definition.value(sums);
  const sample = definition.sample(sums);
  const over = `${sample.toLocaleString("en-US")} ${definition.sampleLabel}`;
  const text =
    value === null
      ? `no value: 0 ${definition.sampleLabel}`
      : `${formatMetricValue(metric, value)} over ${over}`;
  return { metric, value, sample, text };
}
