/**
 * What a delivery sends (SPEC §9). The webhook body is JSON; it is built once, when the
 * transition is written, and stored with the delivery, so every retry sends the same body.
 * A Slack channel gets the same facts as an incoming-webhook message (`text`, mrkdwn).
 */
import { formatMetricValue, METRICS, windowEndingAt } from "@/lib/alerts/metrics";
import { type AlertComparison, type AlertMetric, COMPARISON_TEXT } from "@/lib/schemas/alerts";

export interface AlertPayload {
  /** `alert.firing`, `alert.resolved`, or `alert.test` for "send test". */
  type: "alert.firing" | "alert.resolved" | "alert.test";
  state: "firing" | "resolved" | "test";
  rule: { id: string; name: string };
  /** null: the rule watches every tenant. */
  tenant: string | null;
  role: string | null;
  mode: string | null;
  metric: { id: AlertMetric; label: string; unit: string };
  value: number | null;
  sample: number;
  comparison: AlertComparison;
  threshold: number;
  window: { minutes: number; from: string; to: string };
  /** When the evaluated window ended. */
  at: string;
  /** The runs of the rule's tenant, role and mode over the window. */
  runsUrl: string;
  /** The rule on the alerts page. */
  ruleUrl: string;
}

export interface PayloadRule {
  id: string;
  name: string;
  tenantId: string | null;
  role: string | null;
  mode: string | null;
  metric: AlertMetric;
  comparison: AlertComparison;
  threshold: number;
  windowMinutes: number;
}

/** The address links point at: ROUTELENS_URL, else the local server. */
export function publicBaseUrl(configured: string | undefined, port: number): string {
  return (configured ?? `http://localhost:${port}`).replace(/\/+$/, "");
}

export function buildPayload(
  rule: PayloadRule,
  kind: AlertPayload["state"],
  reading: { value: number | null; sample: number },
  slotStart: Date,
  slotMs: number,
  baseUrl: string,
): AlertPayload {
  const window = windowEndingAt(slotStart, rule.windowMinutes, slotMs);
  const runs = new URLSearchParams();
  if (rule.tenantId) runs.set("tenant", rule.tenantId);
  if (rule.role) runs.set("role", rule.role);
  if (rule.mode) runs.set("mode", rule.mode);
  runs.set("range", "custom");
  runs.set("from", window.from.toISOString());
  runs.set("to", window.to.toISOString());
  const definition = METRICS[rule.metric];
  return {
    type: `alert.${kind}`,
    state: kind,
    rule: { id: rule.id, name: rule.name },
    tenant: rule.tenantId,
    role: rule.role,
    mode: rule.mode,
    metric: { id: rule.metric, label: definition.label, unit: definition.unit },
    value: reading.value,
    sample: reading.sample,
    comparison: rule.comparison,
    threshold: rule.threshold,
    window: {
      minutes: rule.windowMinutes,
      from: window.from.toISOString(),
      to: window.to.toISOString(),
    },
    at: window.to.toISOString(),
    runsUrl: `${baseUrl}/runs?${runs.toString()}`,
    ruleUrl: `${baseUrl}/alerts?rule=${encodeURIComponent(rule.id)}`,
  };
}

/** Slack's mrkdwn needs &, < and > escaped in text. */
function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const HEADLINE: Record<AlertPayload["state"], string> = {
  firing: ":rotating_light: *Firing*",
  resolved: ":white_check_mark: *Resolved*",
  test: ":information_source: *Test*",
};

/** The Slack incoming-webhook body of a payload. */
export function slackMessage(payload: AlertPayload): { text: string } {
  const where = [
    payload.tenant ? `tenant ${payload.tenant}` : "all tenants",
    payload.role ? `role ${payload.role}` : null,
    payload.mode ? `mode ${payload.mode}` : null,
  ]
    .filter(Boolean)
    .join(", ");
  const value = formatMetricValue(payload.metric.id, payload.value);
  const threshold = formatMetricValue(payload.metric.id, payload.threshold);
  const text =
    `${HEADLINE[payload.state]} ${slackEscape(payload.rule.name)}: ` +
    `${payload.metric.label} ${value} (fires ${COMPARISON_TEXT[payload.comparison]} ${threshold}) ` +
    `over ${payload.window.minutes} min, ${payload.sample.toLocaleString("en-US")} in sample, ${slackEscape(where)}. ` +
    `<${payload.runsUrl}|Runs> · <${payload.ruleUrl}|Rule>`;
  return { text };
}

/** The body a channel receives, as the exact string that is signed and sent. */
export function bodyFor(kind: "webhook" | "slack", payload: AlertPayload): string {
  return JSON.stringify(kind === "slack" ? slackMessage(payload) : payload);
}
