/**
 * The rule form's "now" line: a rule's value over its window as it would be evaluated now, and
 * whether it would fire at that value. Pure: the server action reads the value
 * (`currentValue`) and hands it here.
 */
import {
  type AlertComparison,
  type AlertMetric,
  alertRuleSchema,
  meetsCondition,
  RATE_METRICS,
} from "@/lib/schemas/alerts";

export type RulePreview =
  | {
      ok: true;
      /** "3.1 % over 312 decisions", or "no value: 0 outcomes". */
      text: string;
      /** null when the threshold or comparison is not readable yet, or there is no value. */
      wouldFire: boolean | null;
      /** The sample is below the rule's minimum: it cannot fire. */
      belowMinSample: boolean;
    }
  | {
      ok: false;
      /** The field that keeps the value from being read, and its rule. */
      field: string;
      message: string;
    };

const thresholdField = alertRuleSchema.shape.threshold;
const minSampleField = alertRuleSchema.shape.minSample;
const comparisonField = alertRuleSchema.shape.comparison;

/**
 * Whether a reading would make the rule fire: its condition on the typed threshold, unless the
 * sample is below the typed minimum. Fields not readable yet leave the answer open (null).
 */
export function describePreview(
  reading: { metric: AlertMetric; value: number | null; sample: number; text: string },
  typed: { comparison?: unknown; threshold?: unknown; minSample?: unknown },
): Extract<RulePreview, { ok: true }> {
  const minSample = minSampleField.safeParse(typed.minSample ?? "");
  const belowMinSample = minSample.success && reading.sample < minSample.data;
  const comparison = comparisonField.safeParse(typed.comparison);
  const threshold = thresholdField.safeParse(typed.threshold ?? "");
  let wouldFire: boolean | null = null;
  if (reading.value !== null && comparison.success && threshold.success) {
    const inRange = !(RATE_METRICS.has(reading.metric) && threshold.data > 100);
    if (inRange) {
      wouldFire =
        !belowMinSample &&
        meetsCondition(reading.value, comparison.data as AlertComparison, threshold.data);
    }
  }
  return { ok: true, text: reading.text, wouldFire, belowMinSample };
}

/** The "now" action's answer (`previewAlertRule`) as the form's line. */
export function toRulePreview(
  result:
    | { ok: true; text: string; value: number | null; sample: number }
    | { ok: false; fieldErrors: Record<string, string> },
  metric: AlertMetric,
  typed: { comparison?: unknown; threshold?: unknown; minSample?: unknown },
): RulePreview {
  if (!result.ok) {
    const [field, message] = Object.entries(result.fieldErrors)[0] ?? ["form", "cannot be read"];
    return { ok: false, field, message };
  }
  return describePreview(
    { metric, value: result.value, sample: result.sample, text: result.text },
    typed,
  );
}
