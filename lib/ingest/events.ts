/**
 * Validating one wire event and turning it into the row Routelens stores. Pure: no I/O.
 */
import { compactTrace } from "@/lib/db/stored-trace";
import { isValidEvent } from "@/lib/schemas/event-guard";
import { describeEventIssues, formatPath } from "@/lib/schemas/event-issues";
import {
  eventSchema,
  type TelemetryEvent,
  type ToolCallOutcome,
  type ToolRoutingDecision,
} from "@/lib/schemas/events";
import { compareCodePoints } from "@/lib/selection/palette-identity";
import { sameNames } from "@/lib/text-order";
import { boundedIssues, firstOfEachField } from "./bounded-issues";
import { decisionDocuments } from "./copy";

/** One problem with an event: where (`batch[3].offered[0]`) and the rule it broke. */
export interface EventProblem {
  path: string;
  rule: string;
}

export interface EventError {
  index: number;
  id: string | null;
  status: 400 | 403 | 422;
  /** The problems in one sentence: `path: rule; path: rule`, bounded in length. */
  message: string;
  /** The first `PROBLEMS_PER_EVENT` problems (a hostile event may have thousands). */
  problems: EventProblem[];
}

/**
 * A valid event PostgreSQL would not store (reported with 422): the store wrote it alone and
 * it still failed, while the batch's other events were stored.
 */
export function refusedEvent(
  index: number,
  item: { row: { event_id: string } },
  reason: string,
): EventError {
  return {
    index,
    id: item.row.event_id,
    status: 422,
    message: `${formatPath(index, [])}: the database refused to store this event (${reason}). It passed validation, so a value in it is outside a limit the schema does not check yet; it was not stored and would be refused again if sent unchanged. The batch's other events are not affected.`,
    problems: [
      {
        path: formatPath(index, []),
        rule: clipText(`the database refused to store this event (${reason})`, PROBLEM_TEXT_MAX),
      },
    ],
  };
}

/**
 * Problems reported per event. Finding every problem of an event with 1,000-item lists costs
 * milliseconds (thousands of zod issues); the first few tell the sender what to fix.
 */
export const PROBLEMS_PER_EVENT = 5;
/** Characters of one problem's path or rule in a message (a field name may be any length). */
const PROBLEM_TEXT_MAX = 200;

export type CheckedEvent =
  | { ok: true; index: number; event: TelemetryEvent }
  | { ok: false; error: EventError };

function eventIdOf(raw: unknown): string | null {
  if (raw && typeof raw === "object" && "event_id" in raw) {
    const id = (raw as { event_id: unknown }).event_id;
    if (typeof id === "string" && id.length > 0 && id.length <= 128) return id;
  }
  return null;
}

/**
 * Validates one event of a batch and checks it belongs to the key's tenant. The guard (plain
 * closures compiled from the schema) answers for valid events; zod, the definition, explains
 * every refused one.
 */
export function checkEvent(raw: unknown, index: number, keyTenant: string): CheckedEvent {
  const checked: CheckedEvent = isValidEvent(raw)
    ? { ok: true, index, event: raw }
    : explain(raw, index);
  if (!checked.ok) return checked;
  const { event } = checked;
  if (event.tenant_id !== undefined && event.tenant_id !== keyTenant) {
    const problem = {
      path: formatPath(index, ["tenant_id"]),
      rule: `"${event.tenant_id}" is not this key's tenant ("${keyTenant}")`,
    };
    return {
      ok: false,
      error: {
        index,
        id: event.event_id,
        status: 403,
        message: `${problem.path}: ${problem.rule}`,
        problems: [problem],
      },
    };
  }
  return checked;
}

/** `text` cut to `max` characters, marked with an ellipsis when cut. */
function clipText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function explain(raw: unknown, index: number): CheckedEvent {
  // One issue more than is reported, to know whether there were more.
  const issues = boundedIssues(eventSchema, raw, PROBLEMS_PER_EVENT + 1);
  if (issues.length === 0) {
    const parsed = eventSchema.safeParse(raw);
    if (parsed.success) return { ok: true, index, event: parsed.data };
    issues.push(...parsed.error.issues.slice(0, PROBLEMS_PER_EVENT + 1));
  }
  const described = describeEventIssues(raw, issues);
  const problems = firstOfEachField(described, PROBLEMS_PER_EVENT).map((issue) => ({
    path: clipText(formatPath(index, issue.path), PROBLEM_TEXT_MAX),
    rule: clipText(issue.message, PROBLEM_TEXT_MAX),
  }));
  const more =
    described.length > PROBLEMS_PER_EVENT ? `; and more (first ${PROBLEMS_PER_EVENT} shown)` : "";
  return {
    ok: false,
    error: {
      index,
      id: eventIdOf(raw),
      status: 400,
      message: problems.map((p) => `${p.path}: ${p.rule}`).join("; ") + more,
      problems,
    },
  };
}

/** The stored form of a decision: the wire fields plus the measures dashboards sum. */
export interface DecisionRow {
  tenant_id: string;
  event_id: string;
  run_id: string;
  role: string;
  mode: string;
  iteration: number;
  turn_hop_index: number;
  ts: string;
  offered_count: number;
  selected_count: number;
  dropped_count: number;
  dropped_tokens: number;
  reinstatements: number;
  empty_palette_warnings: number;
  stage_errors: number;
  forced_choice: string | null;
  palette_identity: string | null;
  config_version: string;
  model: string | null;
  agent: string | null;
  intent_label: string | null;
  /** Not a column: stored once per tenant in `palettes` (lib/ingest/palettes.ts). */
  offered: string[];
  /** The `palettes` row of `offered`, set in the transaction that stores the decision. */
  palette_id: number | null;
  selected: string[];
  dropped: string[];
  /**
   * The `trace` (in its stored form: names as positions in `offered`, lib/db/stored-trace.ts),
   * `warnings` and `intent` columns as COPY text (`decisionDocuments`): written when the event
   * is checked, so that its objects need not outlive the check or cross from the thread that
   * checks it (batch-check.ts).
   */
  documents: string;
  /** The sender's size estimate per offered tool; not a column: it goes to `tool_sizes`. */
  tool_tokens: Readonly<Record<string, number>> | null;
}

export interface OutcomeRow {
  tenant_id: string;
  event_id: string;
  run_id: string;
  role: string;
  iteration: number;
  ts: string;
  called: string[];
  error: string | null;
}

/**
 * A palette identity joins names with NUL, which PostgreSQL text cannot store: NUL becomes
 * `\0`, \u0001 becomes `\1` and a backslash `\\`, so the stored form is still one-to-one.
 */
export function encodePaletteIdentity(identity: string): string {
  return identity.replaceAll("\\", "\\\\").replaceAll("\u0000", "\\0").replaceAll("\u0001", "\\1");
}

/**
 * The tools an outcome called that its decision had dropped, each once, in code point order:
 * what a join stores as `harmful_tools`, whether it is made in memory or by the SQL join
 * (which orders them `COLLATE "C"`, UTF-8 byte order: code point order).
 */
export function harmfulTools(called: readonly string[], dropped: readonly string[]): string[] {
  if (called.length === 0 || dropped.length === 0) return [];
  const droppedSet = new Set(dropped);
  return [...new Set(called.filter((name) => droppedSet.has(name)))].sort(compareCodePoints);
}

/** Lists up to this many names in all are compared by linear search rather than with sets. */
const SMALL_LISTS = 96;

/**
 * The tools a decision dropped: offered but not selected, each once, in palette order. Not
 * stored; the offered and selected lists say it.
 */
export function droppedTools(offered: readonly string[], selected: readonly string[]): string[] {
  if (offered.length + selected.length <= SMALL_LISTS) {
    // Real palettes are small: a linear search builds no sets for each decision.
    const dropped: string[] = [];
    for (const name of offered) {
      if (!selected.includes(name) && !dropped.includes(name)) dropped.push(name);
    }
    return dropped;
  }
  const kept = new Set(selected);
  return [...new Set(offered.filter((name) => !kept.has(name)))];
}

/**
 * True when a decision selected exactly its offered list, name for name in its order — every
 * call of an agent that routes nothing. Such a decision stores no `selected` list (NULL):
 * readers take its offered list (in SQL, `selectedOf` of lib/ingest/palettes.ts).
 */
export const selectedIsOffered = (selected: readonly string[], offered: readonly string[]) =>
  sameNames(selected, offered);

export function toDecisionRow(tenantId: string, event: ToolRoutingDecision): DecisionRow {
  const dropped = droppedTools(event.offered, event.selected);
  let reinstatedInTrace = 0;
  let errorRecords = 0;
  for (const record of event.trace) {
    reinstatedInTrace += record.reinstated.length;
    if (record.action === "error") errorRecords += 1;
  }
  let reinstatedWarnings = 0;
  let emptyPalettes = 0;
  let stageErrorWarnings = 0;
  for (const warning of event.warnings) {
    if (warning.code === "forced_reinstated") reinstatedWarnings += 1;
    else if (warning.code === "empty_palette") emptyPalettes += 1;
    else if (warning.code === "stage_error") stageErrorWarnings += 1;
  }
  return {
    tenant_id: tenantId,
    event_id: event.event_id,
    run_id: event.run_id,
    role: event.role,
    mode: event.mode,
    iteration: event.iteration,
    turn_hop_index: event.turn_hop_index,
    ts: new Date(event.timestamp).toISOString(),
    offered_count: event.offered.length,
    selected_count: event.selected.length,
    dropped_count: dropped.length,
    dropped_tokens: event.dropped_tokens,
    reinstatements: reinstatedInTrace > 0 ? reinstatedInTrace : reinstatedWarnings,
    empty_palette_warnings: emptyPalettes,
    stage_errors: Math.max(errorRecords, stageErrorWarnings),
    forced_choice: event.forced_choice,
    palette_identity:
      event.palette_identity == null ? null : encodePaletteIdentity(event.palette_identity),
    config_version: event.config_version ?? "",
    model: event.model ?? null,
    agent: event.agent ?? null,
    intent_label: event.intent?.label ?? null,
    offered: event.offered,
    palette_id: null,
    selected: event.selected,
    dropped,
    documents: decisionDocuments(
      compactTrace(event.trace, event.offered),
      event.warnings,
      event.intent ?? null,
    ),
    tool_tokens: event.tool_tokens ?? null,
  };
}

export function toOutcomeRow(tenantId: string, event: ToolCallOutcome): OutcomeRow {
  return {
    tenant_id: tenantId,
    event_id: event.event_id,
    run_id: event.run_id,
    role: event.role,
    iteration: event.iteration,
    ts: new Date(event.timestamp).toISOString(),
    called: event.called,
    error: event.error ?? null,
  };
}
