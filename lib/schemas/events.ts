/**
 * Telemetry wire format v1 (SPEC §2): the one home of the event schemas.
 *
 * The ingest API, the telemetry client, the selection core's `routeTurn` and the tests all
 * validate against these. Every object is strict (unknown fields are rejected with their path)
 * and every string and array is bounded, so one event can never carry unbounded data.
 */
import { z } from "zod";

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
  /** `iteration` and `turn_hop_index`: stored as PostgreSQL `int`. */
  count: 2_147_483_647,
  /** `dropped_tokens` of one decision: a billion tokens, far beyond any prompt. */
  droppedTokens: 1_000_000_000,
  /** One tool's estimated size in `tool_tokens` (stored as PostgreSQL `int`). */
  toolTokens: 1_000_000_000,
} as const;

/*
 * Why these bounds keep every stored sum in range (prisma/schema.prisma):
 *
 * - The rollups and the runs summary sum per-decision values in `bigint` columns (max 2^63 - 1
 *   ≈ 9.2·10^18); the squares and the per-tool token shares are `float8`, which cannot overflow.
 * - The largest value one decision adds to any of those sums is `dropped_tokens` ≤ 10^9. The
 *   others are far smaller: offered / selected tools ≤ 1,000; reinstatements ≤ 64 stages ·
 *   1,000 names = 64,000; empty-palette warnings and stage errors ≤ 64; harmful drops ≤ 1,000
 *   (called names); decisions and outcomes 1.
 * - So a sum overflows only after 9.2·10^18 / 10^9 ≈ 9.2·10^9 decisions, each at the maximum,
 *   in one rollup row or one run: for an hour bucket 2.5 million decisions a second for an
 *   hour; for a run, more than 13 days of a server's whole ingest rate (~8,000 decisions/s)
 *   into that one run. Per-decision columns are `int` and hold each value above as it is.
 * - Within one transaction (≤ 2,000 events) the in-memory sums stay below 2^53, exact.
 */

/**
 * Timestamps Routelens stores: not before 2000-01-01T00:00:00Z and at most a day ahead of the
 * server clock at the time of the request (allowing for clock skew). The window keeps every
 * accepted instant storable, and keeps a far-future timestamp from sorting first by "last
 * seen" forever and never being pruned.
 */
export const TIMESTAMP_WINDOW = {
  earliest: "2000-01-01T00:00:00Z",
  earliestMs: Date.UTC(2000, 0, 1),
  aheadMs: 24 * 60 * 60 * 1000,
} as const;

/** Why an ISO timestamp (as epoch ms) is outside the window at `nowMs`, or null when inside. */
export function timestampWindowIssue(ms: number, nowMs: number = Date.now()): string | null {
  if (ms < TIMESTAMP_WINDOW.earliestMs) return `must not be before ${TIMESTAMP_WINDOW.earliest}`;
  if (ms > nowMs + TIMESTAMP_WINDOW.aheadMs) {
    return `must not be more than 24 h ahead of the server clock (now ${new Date(nowMs).toISOString()})`;
  }
  return null;
}

/** A palette identity: up to 1,000 names and separators, plus a forced-tool marker. */
export const PALETTE_IDENTITY_MAX =
  LIMITS.toolsPerList * (LIMITS.toolName + 1) + LIMITS.toolName + 2;

const boundedString = (max: number) => z.string().max(max, `at most ${max} characters`);
const nonEmptyString = (max: number) =>
  z.string().min(1, "must not be empty").max(max, `at most ${max} characters`);

// PostgreSQL text cannot hold NUL, and JSON cannot carry half a surrogate pair to it: such a
// string is refused here, by field, rather than failing a whole batch at the database. One
// walk over the parsed event is a third of the cost of a check on every string schema; the
// surrogate check is the engine's own (`String.prototype.isWellFormed`).
/** Whether one string can be stored: no NUL (unless `allowNul`), no lone surrogate. */
export const isStorableText = (value: string, allowNul = false): boolean =>
  (allowNul || !value.includes("\u0000")) && value.isWellFormed();

/** True when some string in `value` (outside `allowNul` top-level keys) cannot be stored. */
export function hasUnstorableText(
  value: unknown,
  allowNul: ReadonlySet<string>,
  topLevel: boolean,
): boolean {
  if (typeof value === "string") return !isStorableText(value);
  if (Array.isArray(value)) {
    for (const item of value) if (hasUnstorableText(item, allowNul, false)) return true;
    return false;
  }
  if (value !== null && typeof value === "object") {
    for (const key in value) {
      const item = (value as Record<string, unknown>)[key];
      if (topLevel && allowNul.has(key) && typeof item === "string") {
        if (!isStorableText(item, true)) return true;
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
    } else if (!value.isWellFormed()) {
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

/**
 * Top-level fields exempt from the NUL rule, per event type: paletteIdentity() joins names
 * with NUL and marks a forced tool with \u0001!; storage escapes it (lib/ingest/events.ts).
 */
export const NUL_ALLOWED_FIELDS = {
  tool_routing_decision: ["palette_identity"],
  tool_call_outcome: [],
} as const;

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
  .max(LIMITS.count, "must fit in 32 bits");

/** Modes a sender may state in the v1 wire format. */
export const ROUTING_MODES = ["observe", "enforce"] as const;
/**
 * Modes a stored decision can have: the sent ones, plus `off` for decisions derived from an
 * unrouted agent's OpenTelemetry spans (SPEC §8: nothing narrowed, offered = selected). Never
 * accepted from senders; the dashboard filters and splits by these.
 */
export const STORED_MODES = [...ROUTING_MODES, "off"] as const;
export const STAGE_ACTIONS = ["abstain", "select", "force", "error"] as const;
/** The warning codes Routelens counts (any other code is stored and shown as it is). */
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

const isoTimestampFormat = z.iso.datetime({
  offset: true,
  error: "expected ISO-8601 timestamp with offset, e.g. 2026-01-31T12:00:00Z",
});

const isoTimestamp = isoTimestampFormat
  .superRefine((value, ctx) => {
    const ms = Date.parse(value);
    // A malformed value is reported by the format rule alone.
    const issue = Number.isNaN(ms) ? null : timestampWindowIssue(ms);
    if (issue) ctx.addIssue({ code: "custom", message: issue });
  })
  .meta({
    description: `ISO-8601 with offset. Not before ${TIMESTAMP_WINDOW.earliest} and not more than 24 hours ahead of the server clock when the request arrives; an event outside that window is refused with a per-event 400.`,
  });

/** The timestamp rules on their own (format and window), for the hot-path guard in `event-guard.ts`. */
export const isIsoTimestamp = (value: string): boolean => {
  if (!isoTimestampFormat.safeParse(value).success) return false;
  return timestampWindowIssue(Date.parse(value)) === null;
};

const envelopeFields = {
  event_id: nonEmptyString(LIMITS.eventId),
  timestamp: isoTimestamp,
  run_id: nonEmptyString(LIMITS.runId),
  tenant_id: nonEmptyString(LIMITS.tenantId).optional(),
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What is wrong with one entry of `tool_tokens`, or null when nothing is. */
function toolTokensEntryProblem(name: string, tokens: unknown): string | null {
  if (name.length === 0) return "tool name must not be empty";
  if (name.length > LIMITS.toolName) return `tool name: at most ${LIMITS.toolName} characters`;
  if (name.includes("\u0000")) return "tool name must not contain NUL (\\u0000) characters";
  if (!name.isWellFormed()) return "tool name must be valid Unicode text";
  if (typeof tokens !== "number" || !Number.isSafeInteger(tokens)) return "expected integer";
  if (tokens < 0) return "must be >= 0";
  if (tokens > LIMITS.toolTokens) return `at most ${LIMITS.toolTokens}`;
  return null;
}

/** Problems reported per `tool_tokens` map, at most: enough to see what is wrong. */
const TOOL_TOKENS_PROBLEMS_MAX = 8;

/**
 * `tool_tokens`: tool name → estimated tokens of its definition. Checked entry by entry here
 * (not by a zod record schema), so that a map of 100,000 bad entries costs one pass and a
 * handful of issues rather than one zod issue per entry; the event guard applies the same
 * rule by name (`isValidToolTokens`), and the JSON Schema is stated in `meta`.
 */
export const toolTokensSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    if (!isPlainObject(value)) {
      ctx.addIssue({ code: "custom", message: "expected an object of tool name → tokens" });
      return;
    }
    const names = Object.keys(value);
    if (names.length > LIMITS.toolsPerList) {
      ctx.addIssue({ code: "custom", message: `at most ${LIMITS.toolsPerList} tools` });
      return;
    }
    let reported = 0;
    for (const name of names) {
      const problem = toolTokensEntryProblem(name, value[name]);
      if (problem === null) continue;
      ctx.addIssue({ code: "custom", path: [name], message: problem });
      if (++reported >= TOOL_TOKENS_PROBLEMS_MAX) return;
    }
  })
  .meta({
    type: "object",
    description: `Estimated tokens of each offered tool's definition (tool name → tokens), at most ${LIMITS.toolsPerList} tools; Routelens keeps the latest per tenant and tool for token estimates. Optional.`,
    maxProperties: LIMITS.toolsPerList,
    propertyNames: { type: "string", minLength: 1, maxLength: LIMITS.toolName },
    additionalProperties: { type: "integer", minimum: 0, maximum: LIMITS.toolTokens },
  }) as unknown as z.ZodType<Record<string, number>>;
// The map is read as the sender wrote it (a zod record would drop a "__proto__" entry before
// any rule saw it), so the schema is `unknown` checked entry by entry; its type is the map's.

/** True exactly when `toolTokensSchema` accepts `value` (for the event guard). */
export function isValidToolTokens(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const names = Object.keys(value);
  if (names.length > LIMITS.toolsPerList) return false;
  for (const name of names) if (toolTokensEntryProblem(name, value[name]) !== null) return false;
  return true;
}

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
      .max(LIMITS.droppedTokens, `at most ${LIMITS.droppedTokens}`)
      .meta({
        description: `Estimated prompt tokens saved by the tools routing dropped; at most ${LIMITS.droppedTokens}, so that no stored sum can overflow.`,
      }),
    trace: z
      .array(stageRecordSchema)
      .max(LIMITS.traceStages, `at most ${LIMITS.traceStages} stages`),
    warnings: z.array(warningSchema).max(LIMITS.warnings, `at most ${LIMITS.warnings} warnings`),
    intent: intentSchema.nullable().optional(),
    tool_tokens: toolTokensSchema.optional(),
    model: nonEmptyString(LIMITS.label).nullable().optional(),
    agent: nonEmptyString(LIMITS.label).nullable().optional(),
    config_version: nonEmptyString(LIMITS.label).nullable().optional(),
    // NUL is allowed here (NUL_ALLOWED_FIELDS).
    palette_identity: z
      .string()
      .max(PALETTE_IDENTITY_MAX, "too long for a palette of at most 1000 tools")
      .nullable()
      .optional(),
  })
  .superRefine(storableText(NUL_ALLOWED_FIELDS.tool_routing_decision));

export const toolCallOutcomeSchema = z
  .strictObject({
    type: z.literal("tool_call_outcome"),
    ...envelopeFields,
    role: nonEmptyString(LIMITS.label),
    iteration: nonNegativeInt,
    called: toolNames,
    error: boundedString(LIMITS.detail).nullable().optional(),
  })
  .superRefine(storableText(NUL_ALLOWED_FIELDS.tool_call_outcome));

export const eventSchema = z.discriminatedUnion("type", [
  toolRoutingDecisionSchema,
  toolCallOutcomeSchema,
]);

export type StageRecordWire = z.infer<typeof stageRecordSchema>;
export type ToolRoutingDecision = z.infer<typeof toolRoutingDecisionSchema>;
export type ToolCallOutcome = z.infer<typeof toolCallOutcomeSchema>;
export type TelemetryEvent = z.infer<typeof eventSchema>;
export type RoutingMode = (typeof ROUTING_MODES)[number];
export type StoredMode = (typeof STORED_MODES)[number];
export type WarningCode = (typeof WARNING_CODES)[number];
