/**
 * Telemetry wire format v1 (SPEC §2): the one home of the event schemas.
 *
 * The ingest API, the telemetry client, the selection core's `routeTurn` and the tests all
 * validate against these. Every object is strict (unknown fields are rejected with their path)
 * and every string and array is bounded, so one event can never carry unbounded data.
 */
import { z } from "zod";

export const WIRE_VERSION = 1;

export const LIMITS = {
  eventId: 128,
  runId: 200,
  tenantId: 100,
  toolName: 200,
  toolsPerList: 1_000,
  traceStages: 64,
  warnings: 64,
  detail: 2_000,
  label: 200,
  eventsPerBatch: 1_000,
  bodyBytes: 5 * 1024 * 1024,
} as const;

/** A palette identity: up to 1,000 names and separators, plus a forced-tool marker. */
export const PALETTE_IDENTITY_MAX =
  LIMITS.toolsPerList * (LIMITS.toolName + 1) + LIMITS.toolName + 2;

const boundedString = (max: number) => z.string().max(max, `at most ${max} characters`);
const nonEmptyString = (max: number) =>
  z.string().min(1, "must not be empty").max(max, `at most ${max} characters`);

// PostgreSQL text cannot hold NUL, and JSON cannot carry half a surrogate pair to it: such a
// string is refused here, by field, rather than failing a whole batch at the database. One
// walk over the parsed event is a third of the cost of a check on every string schema.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const SURROGATE = /[\uD800-\uDFFF]/;
const isWellFormed = (value: string) => !SURROGATE.test(value) || !LONE_SURROGATE.test(value);

/** True when some string in `value` (outside `allowNul` top-level keys) cannot be stored. */
export function hasUnstorableText(
  value: unknown,
  allowNul: ReadonlySet<string>,
  topLevel: boolean,
): boolean {
  if (typeof value === "string") return value.includes("\u0000") || !isWellFormed(value);
  if (Array.isArray(value)) {
    for (const item of value) if (hasUnstorableText(item, allowNul, false)) return true;
    return false;
  }
  if (value !== null && typeof value === "object") {
    for (const key in value) {
      const item = (value as Record<string, unknown>)[key];
      if (topLevel && allowNul.has(key) && typeof item === "string") {
        if (!isWellFormed(item)) return true;
      } else if (hasUnstorableText(item, allowNul, false)) {
        return true;
      }
    }
  }
  return false;
}

/** Reports every unstorable string with its path (run only when there is one). */
function reportUnstorableText(
  value: unknown,
  path: PropertyKey[],
  ctx: z.RefinementCtx,
  allowNul: ReadonlySet<string>,
): void {
  if (typeof value === "string") {
    const key = path.length === 1 ? String(path[0]) : "";
    if (!allowNul.has(key) && value.includes("\u0000")) {
      ctx.addIssue({ code: "custom", path, message: "must not contain NUL (\\u0000) characters" });
    } else if (!isWellFormed(value)) {
      ctx.addIssue({ code: "custom", path, message: "must be valid Unicode text" });
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      reportUnstorableText(item, [...path, index], ctx, allowNul);
    });
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      reportUnstorableText(item, [...path, key], ctx, allowNul);
    }
  }
}

/** Refinement for a whole event: every string storable; `allowNul` names top-level fields exempt from the NUL rule. */
const storableText =
  (allowNul: readonly string[] = []) =>
  (event: object, ctx: z.RefinementCtx) => {
    const exempt = new Set(allowNul);
    if (hasUnstorableText(event, exempt, true)) reportUnstorableText(event, [], ctx, exempt);
  };

const toolName = nonEmptyString(LIMITS.toolName);
const toolNames = z
  .array(toolName, { error: "expected array of strings" })
  .max(LIMITS.toolsPerList, `at most ${LIMITS.toolsPerList} tool names`);

const nonNegativeInt = z
  .number({ error: "expected integer" })
  .int("expected integer")
  .min(0, "must be >= 0")
  .max(2_147_483_647, "must fit in 32 bits");

export const ROUTING_MODES = ["observe", "enforce"] as const;
export const STAGE_ACTIONS = ["abstain", "select", "force", "error"] as const;
export const WARNING_CODES = ["empty_palette", "forced_reinstated", "stage_error"] as const;

/** One stage's record in the decision trace, in snake_case (SPEC §1 StageRecord). */
export const stageRecordSchema = z.strictObject({
  stage: nonEmptyString(LIMITS.label),
  action: z.enum(STAGE_ACTIONS),
  kept: toolNames,
  dropped: toolNames,
  added: toolNames,
  reinstated: toolNames,
  forced_choice: toolName.nullable(),
  detail: boundedString(LIMITS.detail),
  degraded: z.boolean(),
});

export const warningSchema = z.strictObject({
  code: nonEmptyString(LIMITS.label),
  stage: nonEmptyString(LIMITS.label).optional(),
  detail: boundedString(LIMITS.detail).optional(),
});

export const intentSchema = z.strictObject({
  label: nonEmptyString(LIMITS.label),
  matched_tool_keywords: toolNames,
});

const isoTimestamp = z.iso.datetime({
  offset: true,
  error: "expected ISO-8601 timestamp with offset, e.g. 2026-01-31T12:00:00Z",
});

/** The timestamp rule on its own, for the hot-path guard in `event-guard.ts`. */
export const isIsoTimestamp = (value: string): boolean => isoTimestamp.safeParse(value).success;

const envelopeFields = {
  event_id: nonEmptyString(LIMITS.eventId),
  timestamp: isoTimestamp,
  run_id: nonEmptyString(LIMITS.runId),
  tenant_id: nonEmptyString(LIMITS.tenantId).optional(),
};

export const toolRoutingDecisionSchema = z
  .strictObject({
    type: z.literal("tool_routing_decision"),
    ...envelopeFields,
    role: nonEmptyString(LIMITS.label),
    mode: z.enum(ROUTING_MODES),
    iteration: nonNegativeInt,
    turn_hop_index: nonNegativeInt,
    offered: toolNames,
    selected: toolNames,
    forced_choice: toolName.nullable(),
    dropped_tokens: z
      .number({ error: "expected integer" })
      .int("expected integer")
      .min(0, "must be >= 0")
      .max(Number.MAX_SAFE_INTEGER, "too large"),
    trace: z
      .array(stageRecordSchema)
      .max(LIMITS.traceStages, `at most ${LIMITS.traceStages} stages`),
    warnings: z.array(warningSchema).max(LIMITS.warnings, `at most ${LIMITS.warnings} warnings`),
    intent: intentSchema.nullable().optional(),
    model: nonEmptyString(LIMITS.label).nullable().optional(),
    agent: nonEmptyString(LIMITS.label).nullable().optional(),
    config_version: nonEmptyString(LIMITS.label).nullable().optional(),
    // paletteIdentity() joins names with NUL and marks a forced tool with \u0001!, so NUL is
    // allowed here; storage escapes it (lib/ingest/events.ts).
    palette_identity: z
      .string()
      .max(PALETTE_IDENTITY_MAX, "too long for a palette of at most 1000 tools")
      .nullable()
      .optional(),
  })
  .superRefine(storableText(["palette_identity"]));

export const toolCallOutcomeSchema = z
  .strictObject({
    type: z.literal("tool_call_outcome"),
    ...envelopeFields,
    role: nonEmptyString(LIMITS.label),
    iteration: nonNegativeInt,
    called: toolNames,
    error: boundedString(LIMITS.detail).nullable().optional(),
  })
  .superRefine(storableText());

export const eventSchema = z.discriminatedUnion("type", [
  toolRoutingDecisionSchema,
  toolCallOutcomeSchema,
]);

export type StageRecordWire = z.infer<typeof stageRecordSchema>;
export type RoutingWarning = z.infer<typeof warningSchema>;
export type ToolRoutingDecision = z.infer<typeof toolRoutingDecisionSchema>;
export type ToolCallOutcome = z.infer<typeof toolCallOutcomeSchema>;
export type TelemetryEvent = z.infer<typeof eventSchema>;
export type RoutingMode = (typeof ROUTING_MODES)[number];
