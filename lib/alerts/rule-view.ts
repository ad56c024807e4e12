/**
 * How the alerts pages and the overview describe a rule: its condition in words, its state
 * (ok, firing since …, muted until …, not evaluated yet) and its last value, and the link to
 * the runs it is about. Pure: rows in, plain serialisable values out (instants as ISO strings,
 * drawn in the viewer's time zone by `LocalTime`).
 */
import { formatMetricValue, METRICS } from "@/lib/alerts/metrics";
import { runsHref, runsView } from "@/lib/dashboard/url";
import {
  ALERT_COMPARISONS,
  ALERT_METRICS,
  type AlertComparison,
  type AlertMetric,
  COMPARISON_TEXT,
} from "@/lib/schemas/alerts";
import { isMuted } from "./mute-presets";

/** The stored fields of a rule and its state these descriptions read (`AlertRuleSummary`). */
export interface RuleWithState {
  id: string;
  /** null: every tenant. */
  tenant: string | null;
  name: string;
  role: string | null;
  mode: string | null;
  metric: string;
  windowMinutes: number;
  comparison: string;
  threshold: number;
  minSample: number;
  mutedUntil: Date | null;
  /** null before the rule's first evaluation. */
  state: {
    state: string;
    lastValue: number | null;
    lastSample: number | null;
    belowMinSample: boolean;
    since: Date;
    lastEvaluatedMinute: Date | null;
  } | null;
}

export type RuleStateKey = "firing" | "ok" | "pending";

export interface RuleStateView {
  key: RuleStateKey;
  /** When the current state began (firing since …), ISO. */
  since: string | null;
  /** Set while the rule is muted, ISO. */
  mutedUntil: string | null;
}

/** A rule as a row of the alerts table or a panel of the overview. */
export interface RuleView {
  id: string;
  name: string;
  /** "all tenants" for a rule over every tenant. */
  tenantLabel: string;
  tenantId: string | null;
  role: string | null;
  mode: string | null;
  metric: string;
  metricLabel: string;
  /** "above 5 % over 15 min (at least 100 outcomes)". */
  condition: string;
  state: RuleStateView;
  /** "3.1 % over 312 decisions", or why there is none. */
  lastValue: string;
  /** The last evaluated minute, ISO; null before the first evaluation. */
  evaluatedAt: string | null;
  href: string;
  runsHref: string;
}

export function isAlertMetric(metric: string): metric is AlertMetric {
  return (ALERT_METRICS as readonly string[]).includes(metric);
}

function isComparison(comparison: string): comparison is AlertComparison {
  return (ALERT_COMPARISONS as readonly string[]).includes(comparison);
}

/** 15 → "15 min", 120 → "2 h", 90 → "90 min", 1440 → "24 h". */
export function formatWindow(minutes: number): string {
  return minutes >= 60 && minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`;
}

export function metricLabel(metric: string): string {
  return isAlertMetric(metric) ? METRICS[metric].label : metric;
}

/** A value in its metric's unit ("3.1 %", "12,400 tokens"). */
export function formatRuleValue(metric: string, value: number | null): string {
  if (!isAlertMetric(metric)) return value === null ? "no value" : String(value);
  return formatMetricValue(metric, value);
}

/** "above 5 % over 15 min (at least 100 outcomes)". */
export function describeCondition(
  rule: Pick<RuleWithState, "metric" | "comparison" | "threshold" | "windowMinutes" | "minSample">,
): string {
  const comparison = isComparison(rule.comparison)
    ? COMPARISON_TEXT[rule.comparison]
    : rule.comparison;
  const sampleLabel = isAlertMetric(rule.metric) ? METRICS[rule.metric].sampleLabel : "events";
  const sample =
    rule.minSample > 0
      ? ` (at least ${rule.minSample.toLocaleString("en-US")} ${sampleLabel})`
      : "";
  return `${comparison} ${formatRuleValue(rule.metric, rule.threshold)} over ${formatWindow(rule.windowMinutes)}${sample}`;
}

/** "3.1 % over 312 decisions", "no value: 0 outcomes", "not evaluated yet". */
export function describeLastValue(rule: Pick<RuleWithState, "metric" | "state">): string {
  const state = rule.state;
  if (state === null || state.lastEvaluatedMinute === null || state.lastSample === null) {
    return "not evaluated yet";
  }
  const sampleLabel = isAlertMetric(rule.metric) ? METRICS[rule.metric].sampleLabel : "events";
  if (state.lastValue === null) return `no value: 0 ${sampleLabel}`;
  const sample = `${state.lastSample.toLocaleString("en-US")} ${sampleLabel}`;
  const text = `${formatRuleValue(rule.metric, state.lastValue)} over ${sample}`;
  return state.belowMinSample ? `${text} (below the minimum sample: cannot fire)` : text;
}

export function describeRuleState(
  rule: Pick<RuleWithState, "mutedUntil" | "state">,
  now: Date,
): RuleStateView {
  const mutedUntil = isMuted(rule.mutedUntil, now)
    ? (rule.mutedUntil?.toISOString() ?? null)
    : null;
  const state = rule.state;
  if (state === null || state.lastEvaluatedMinute === null) {
    return { key: "pending", since: null, mutedUntil };
  }
  return {
    key: state.state === "firing" ? "firing" : "ok",
    since: state.since.toISOString(),
    mutedUntil,
  };
}

/**
 * The runs a rule is about: its tenant, role and mode over its window ending at `end`, with the
 * issue its metric counts (harmful drops; warnings for empty palettes, reinstatements and stage
 * errors).
 */
export function ruleRunsHref(
  rule: Pick<RuleWithState, "tenant" | "role" | "mode" | "metric" | "windowMinutes">,
  end: Date,
): string {
  const from = new Date(end.getTime() - rule.windowMinutes * 60_000);
  const mode = rule.mode === "observe" || rule.mode === "enforce" ? rule.mode : undefined;
  return runsHref(runsView.defaults, {
    range: "custom",
    from: from.toISOString(),
    to: end.toISOString(),
    tenant: rule.tenant ?? undefined,
    role: rule.role ?? undefined,
    mode,
    harmful: rule.metric === "harmful-drop-rate",
    warnings: ["empty-palette-rate", "reinstatement-rate", "stage-error-rate"].includes(
      rule.metric,
    ),
  });
}

export function ruleHref(ruleId: string): string {
  return `/alerts/${encodeURIComponent(ruleId)}`;
}

/** A rule as the alerts table and the overview show it, as of `now`. */
export function prepareRuleView(rule: RuleWithState, now: Date): RuleView {
  const state = describeRuleState(rule, now);
  const evaluated = rule.state?.lastEvaluatedMinute ?? null;
  const windowEnd =
    state.key === "firing" || evaluated === null ? now : new Date(evaluated.getTime() + 60_000);
  return {
    id: rule.id,
    name: rule.name,
    tenantLabel: rule.tenant ?? "all tenants",
    tenantId: rule.tenant,
    role: rule.role,
    mode: rule.mode,
    metric: rule.metric,
    metricLabel: metricLabel(rule.metric),
    condition: describeCondition(rule),
    state,
    lastValue: describeLastValue(rule),
    evaluatedAt: evaluated?.toISOString() ?? null,
    href: ruleHref(rule.id),
    runsHref: ruleRunsHref(rule, windowEnd),
  };
}

const STATE_ORDER: Record<RuleStateKey, number> = { firing: 0, pending: 1, ok: 2 };

/** The alerts table's rows: firing rules first, then in the order given (tenant, name). */
export function prepareRuleViews(rules: readonly RuleWithState[], now: Date): RuleView[] {
  return rules
    .map((rule, index) => ({ view: prepareRuleView(rule, now), index }))
    .sort(
      (a, b) => STATE_ORDER[a.view.state.key] - STATE_ORDER[b.view.state.key] || a.index - b.index,
    )
    .map(({ view }) => view);
}
