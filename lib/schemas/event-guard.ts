/**
 * A hand-written yes/no check of a wire event, equal in verdict to `eventSchema` and about ten
 * times cheaper: ingest runs it on every event and asks zod only about the events it refuses,
 * for zod's precise messages. zod stays the definition; `event-guard.test.ts` compares the two
 * verdicts on valid events and on thousands of mutated ones, and checks that both know the
 * same fields.
 *
 * A valid event is returned as is: zod's parse of a valid event is an equal copy (strict
 * objects, no defaults, no transforms).
 */
import {
  hasUnstorableText,
  isIsoTimestamp,
  LIMITS,
  PALETTE_IDENTITY_MAX,
  ROUTING_MODES,
  STAGE_ACTIONS,
  type TelemetryEvent,
} from "./events";

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isBounded = (value: unknown, max: number): boolean =>
  typeof value === "string" && value.length <= max;

const isNonEmpty = (value: unknown, max: number): boolean =>
  typeof value === "string" && value.length >= 1 && value.length <= max;

const isOptional = (value: unknown, check: (value: unknown) => boolean): boolean =>
  value === undefined || value === null || check(value);

const isToolName = (value: unknown): boolean => isNonEmpty(value, LIMITS.toolName);

/** An array of at most `max` items, each passing `check`. */
function isEvery(value: unknown, max: number, check: (item: unknown) => boolean): boolean {
  if (!Array.isArray(value) || value.length > max) return false;
  for (let i = 0; i < value.length; i++) if (!check(value[i])) return false;
  return true;
}

const isToolNames = (value: unknown): boolean => isEvery(value, LIMITS.toolsPerList, isToolName);

const isCount = (value: unknown, max: number): boolean =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0 && value <= max;

const isLabel = (value: unknown): boolean => isNonEmpty(value, LIMITS.label);

/** Every own or inherited enumerable key of `value` is one of `known` (zod's strict rule). */
function onlyKnownKeys(value: Fields, known: ReadonlySet<string>): boolean {
  for (const key in value) if (!known.has(key)) return false;
  return true;
}

export const STAGE_RECORD_FIELDS = new Set([
  "stage",
  "action",
  "kept",
  "dropped",
  "added",
  "reinstated",
  "forced_choice",
  "detail",
  "degraded",
]);
export const WARNING_FIELDS = new Set(["code", "stage", "detail"]);
export const INTENT_FIELDS = new Set(["label", "matched_tool_keywords"]);
const ENVELOPE_FIELDS = ["type", "event_id", "timestamp", "run_id", "tenant_id", "role"];
export const DECISION_FIELDS = new Set([
  ...ENVELOPE_FIELDS,
  "mode",
  "iteration",
  "turn_hop_index",
  "offered",
  "selected",
  "forced_choice",
  "dropped_tokens",
  "trace",
  "warnings",
  "intent",
  "model",
  "agent",
  "config_version",
  "palette_identity",
]);
export const OUTCOME_FIELDS = new Set([...ENVELOPE_FIELDS, "iteration", "called", "error"]);

const ACTIONS: ReadonlySet<unknown> = new Set(STAGE_ACTIONS);
const MODES: ReadonlySet<unknown> = new Set(ROUTING_MODES);

function isStageRecord(value: unknown): boolean {
  return (
    isObject(value) &&
    onlyKnownKeys(value, STAGE_RECORD_FIELDS) &&
    isLabel(value.stage) &&
    ACTIONS.has(value.action) &&
    isToolNames(value.kept) &&
    isToolNames(value.dropped) &&
    isToolNames(value.added) &&
    isToolNames(value.reinstated) &&
    (value.forced_choice === null || isToolName(value.forced_choice)) &&
    isBounded(value.detail, LIMITS.detail) &&
    typeof value.degraded === "boolean"
  );
}

function isWarning(value: unknown): boolean {
  return (
    isObject(value) &&
    onlyKnownKeys(value, WARNING_FIELDS) &&
    isLabel(value.code) &&
    (value.stage === undefined || isLabel(value.stage)) &&
    (value.detail === undefined || isBounded(value.detail, LIMITS.detail))
  );
}

function isIntent(value: unknown): boolean {
  return (
    isObject(value) &&
    onlyKnownKeys(value, INTENT_FIELDS) &&
    isLabel(value.label) &&
    isToolNames(value.matched_tool_keywords)
  );
}

function hasEnvelope(value: Fields): boolean {
  return (
    isNonEmpty(value.event_id, LIMITS.eventId) &&
    typeof value.timestamp === "string" &&
    isIsoTimestamp(value.timestamp) &&
    isNonEmpty(value.run_id, LIMITS.runId) &&
    (value.tenant_id === undefined || isNonEmpty(value.tenant_id, LIMITS.tenantId)) &&
    isLabel(value.role)
  );
}

const NUL_ALLOWED_IN_DECISION: ReadonlySet<string> = new Set(["palette_identity"]);
const NUL_ALLOWED_NOWHERE: ReadonlySet<string> = new Set();

function isDecision(value: Fields): boolean {
  return (
    onlyKnownKeys(value, DECISION_FIELDS) &&
    hasEnvelope(value) &&
    MODES.has(value.mode) &&
    isCount(value.iteration, LIMITS.count) &&
    isCount(value.turn_hop_index, LIMITS.count) &&
    isToolNames(value.offered) &&
    isToolNames(value.selected) &&
    (value.forced_choice === null || isToolName(value.forced_choice)) &&
    isCount(value.dropped_tokens, LIMITS.droppedTokens) &&
    isEvery(value.trace, LIMITS.traceStages, isStageRecord) &&
    isEvery(value.warnings, LIMITS.warnings, isWarning) &&
    isOptional(value.intent, isIntent) &&
    isOptional(value.model, isLabel) &&
    isOptional(value.agent, isLabel) &&
    isOptional(value.config_version, isLabel) &&
    isOptional(value.palette_identity, (v) => isBounded(v, PALETTE_IDENTITY_MAX)) &&
    !hasUnstorableText(value, NUL_ALLOWED_IN_DECISION, true)
  );
}

function isOutcome(value: Fields): boolean {
  return (
    onlyKnownKeys(value, OUTCOME_FIELDS) &&
    hasEnvelope(value) &&
    isCount(value.iteration, LIMITS.count) &&
    isToolNames(value.called) &&
    isOptional(value.error, (v) => isBounded(v, LIMITS.detail)) &&
    !hasUnstorableText(value, NUL_ALLOWED_NOWHERE, true)
  );
}

/** True exactly when `eventSchema.safeParse(value)` succeeds. */
export function isValidEvent(value: unknown): value is TelemetryEvent {
  if (!isObject(value)) return false;
  if (value.type === "tool_routing_decision") return isDecision(value);
  if (value.type === "tool_call_outcome") return isOutcome(value);
  return false;
}
