/**
 * Alert rules (SPEC §9) as the rule form and the server actions accept them. Every message
 * names the field and the rule it broke ("Window must be between 5 minutes and 24 hours"),
 * so a refusal can be shown beside the field or on its own.
 */
import { z } from "zod";
import { LIMITS, STORED_MODES, type StoredMode } from "./events";
import { tenantIdSchema } from "./tenant";

export const ALERT_METRICS = [
  "harmful-drop-rate",
  "empty-palette-rate",
  "reinstatement-rate",
  "stage-error-rate",
  "zero-call-rate",
  "dropped-tokens",
  "decisions",
] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

/** The metrics measured in percent: their thresholds lie between 0 and 100. */
export const RATE_METRICS: ReadonlySet<AlertMetric> = new Set([
  "harmful-drop-rate",
  "empty-palette-rate",
  "reinstatement-rate",
  "stage-error-rate",
  "zero-call-rate",
]);

export const ALERT_COMPARISONS = ["gt", "gte", "lt", "lte"] as const;
export type AlertComparison = (typeof ALERT_COMPARISONS)[number];

export const COMPARISON_TEXT: Record<AlertComparison, string> = {
  gt: "above",
  gte: "at or above",
  lt: "below",
  lte: "at or below",
};

export const COMPARISON_SYMBOL: Record<AlertComparison, string> = {
  gt: ">",
  gte: "≥",
  lt: "<",
  lte: "≤",
};

/**
 * The modes a rule may narrow to: every stored mode, `off` (decisions derived from the spans
 * of an agent that routes nothing) included.
 */
export const ALERT_MODES = STORED_MODES;
export type AlertMode = StoredMode;

export const ALERT_CHANNEL_KINDS = ["webhook", "slack"] as const;
export type AlertChannelKind = (typeof ALERT_CHANNEL_KINDS)[number];

export const ALERT_STATES = ["ok", "firing"] as const;
export type AlertStateName = (typeof ALERT_STATES)[number];

export const ALERT_EVENT_KINDS = ["firing", "resolved"] as const;
export type AlertEventKind = (typeof ALERT_EVENT_KINDS)[number];

export const WINDOW_MINUTES_MIN = 5;
export const WINDOW_MINUTES_MAX = 24 * 60;
export const MIN_SAMPLE_MAX = 1_000_000_000;
export const CHANNELS_MAX = 5;
export const CHANNEL_URL_MAX = 2_000;
/** The value of the tenant field that means every tenant (admins only). */
export const ALL_TENANTS_VALUE = "*";

/** A form's empty text field reads as "not given". */
function blankToUndefined(value: unknown): unknown {
  return typeof value === "string" && value.trim() === "" ? undefined : value;
}

const ruleName = z
  .string({ error: "Name is required" })
  .trim()
  .min(1, "Name must not be empty")
  .max(200, "Name must be at most 200 characters");

/** A tenant id, or `*` for every tenant; read as `null` for every tenant. */
export const alertTenantSchema = z
  .string({ error: "Tenant is required: a tenant id, or * for every tenant" })
  .trim()
  .min(1, "Tenant is required: a tenant id, or * for every tenant")
  .transform((value, context) => {
    if (value === ALL_TENANTS_VALUE) return null;
    const parsed = tenantIdSchema.safeParse(value);
    if (!parsed.success) {
      context.addIssue({
        code: "custom",
        message: `Tenant ${parsed.error.issues[0]?.message ?? "is not a tenant id"}`,
      });
      return z.NEVER;
    }
    return parsed.data;
  });

const roleSchema = z.preprocess(
  blankToUndefined,
  z.string().trim().max(LIMITS.label, `Role must be at most ${LIMITS.label} characters`).optional(),
);

const modeSchema = z.preprocess(
  blankToUndefined,
  z
    .enum(ALERT_MODES, { error: "Mode must be observe, enforce or off (or empty for any)" })
    .optional(),
);

const metricSchema = z.enum(ALERT_METRICS, {
  error: `Metric must be one of ${ALERT_METRICS.join(", ")}`,
});

const windowSchema = z.coerce
  .number({ error: "Window must be a number of minutes" })
  .int("Window must be a whole number of minutes")
  .min(WINDOW_MINUTES_MIN, "Window must be between 5 minutes and 24 hours (5–1440 minutes)")
  .max(WINDOW_MINUTES_MAX, "Window must be between 5 minutes and 24 hours (5–1440 minutes)");

const comparisonSchema = z.enum(ALERT_COMPARISONS, {
  error: "Comparison must be gt, gte, lt or lte (above, at or above, below, at or below)",
});

const thresholdSchema = z.preprocess(
  blankToUndefined,
  z.coerce
    .number({ error: "Threshold is required: a number in the metric's unit" })
    .refine(Number.isFinite, "Threshold must be a finite number")
    .min(0, "Threshold must be 0 or more"),
);

const minSampleSchema = z.preprocess(
  blankToUndefined,
  z.coerce
    .number({ error: "Minimum sample must be a whole number" })
    .int("Minimum sample must be a whole number")
    .min(0, "Minimum sample must be 0 or more")
    .max(MIN_SAMPLE_MAX, "Minimum sample must be at most 1,000,000,000")
    .default(0),
);

/** A moment as the form's datetime field or an ISO string gives it; empty means not muted. */
export const mutedUntilSchema = z.preprocess(
  blankToUndefined,
  z.coerce
    .date({ error: "Muted until must be a date and time" })
    .refine((date) => !Number.isNaN(date.getTime()), "Muted until must be a date and time")
    .optional(),
);

/** An http(s) URL without credentials; Slack's must be https. */
export function channelUrlSchema(kind: AlertChannelKind) {
  const label = kind === "slack" ? "Slack webhook URL" : "Webhook URL";
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(CHANNEL_URL_MAX, `${label} must be at most ${CHANNEL_URL_MAX} characters`)
    .superRefine((value, context) => {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        context.addIssue({ code: "custom", message: `${label} must be an absolute http(s) URL` });
        return;
      }
      if (url.protocol !== "https:" && url.protocol !== "http:") {
        context.addIssue({
          code: "custom",
          message: `${label} must start with http:// or https://`,
        });
      } else if (kind === "slack" && url.protocol !== "https:") {
        context.addIssue({ code: "custom", message: `${label} must start with https://` });
      }
      if (url.username || url.password) {
        context.addIssue({
          code: "custom",
          message: `${label} must not contain a user name or password`,
        });
      }
    });
}

export const alertChannelSchema = z
  .object({
    /** An existing channel of the rule (keeps its secret); absent for a new one. */
    id: z.preprocess(blankToUndefined, z.uuid({ error: "Channel id must be a UUID" }).optional()),
    kind: z.enum(ALERT_CHANNEL_KINDS, { error: "Channel type must be webhook or slack" }),
    url: z.string({ error: "Channel URL is required" }),
  })
  .transform((channel, context) => {
    const url = channelUrlSchema(channel.kind).safeParse(channel.url);
    if (!url.success) {
      for (const issue of url.error.issues) {
        context.addIssue({ code: "custom", message: issue.message, path: ["url"] });
      }
      return z.NEVER;
    }
    return { ...channel, url: url.data };
  });
export type AlertChannelInput = z.infer<typeof alertChannelSchema>;

/** A rule as the form and the actions accept it (tenant `null`: every tenant). */
export const alertRuleSchema = z
  .object({
    name: ruleName,
    tenant: alertTenantSchema,
    role: roleSchema,
    mode: modeSchema,
    metric: metricSchema,
    windowMinutes: windowSchema,
    comparison: comparisonSchema,
    threshold: thresholdSchema,
    minSample: minSampleSchema,
    mutedUntil: mutedUntilSchema,
    channels: z
      .array(alertChannelSchema)
      .max(CHANNELS_MAX, `Channels: at most ${CHANNELS_MAX} per rule`)
      .default([]),
  })
  .superRefine((rule, context) => {
    if (RATE_METRICS.has(rule.metric) && rule.threshold > 100) {
      context.addIssue({
        code: "custom",
        path: ["threshold"],
        message: "Threshold of a rate is a percentage: between 0 and 100",
      });
    }
  });
export type AlertRuleInput = z.infer<typeof alertRuleSchema>;

/** The rule fields the "now" preview needs (no name or channels yet). */
export const alertPreviewSchema = z.object({
  tenant: alertTenantSchema,
  role: roleSchema,
  mode: modeSchema,
  metric: metricSchema,
  windowMinutes: windowSchema,
});
export type AlertPreviewInput = z.infer<typeof alertPreviewSchema>;

export const alertRuleIdSchema = z.uuid({ error: "Rule id must be a UUID" });

/** Muting: until a moment in the future, or `null` to unmute. */
export const muteSchema = z.object({
  id: alertRuleIdSchema,
  mutedUntil: z.preprocess(
    blankToUndefined,
    z.coerce
      .date({ error: "Muted until must be a date and time" })
      .refine((date) => !Number.isNaN(date.getTime()), "Muted until must be a date and time")
      .nullable()
      .default(null),
  ),
});

/** Whether `value` meets the rule's condition: the rule fires while it does. */
export function meetsCondition(value: number, comparison: AlertComparison, threshold: number) {
  switch (comparison) {
    case "gt":
      return value > threshold;
    case "gte":
      return value >= threshold;
    case "lt":
      return value < threshold;
    case "lte":
      return value <= threshold;
  }
}
