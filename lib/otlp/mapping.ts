/**
 * One span → what Routelens stores for it (SPEC §8 "Mapping"): an LLM call (with the decision
 * and outcome derived from it), a tool run, nothing (a span of no family), or a refusal with a
 * message naming the attribute and the rule. Pure: no I/O.
 *
 * Validation equals storage: every derived decision and outcome is built as a v1 event and
 * checked by the same `checkEvent` the v1 endpoint uses (timestamp window, bounds, lengths,
 * storable text), so a span that passes here is one the database stores. The iteration is
 * assigned when the run's LLM calls are ranked in storage; the one given here is a placeholder.
 */
import { checkEvent, type EventProblem } from "@/lib/ingest/events";
import {
  hasUnstorableText,
  LIMITS,
  type StoredMode,
  type ToolCallOutcome,
  type ToolRoutingDecision,
  timestampWindowIssue,
} from "@/lib/schemas/events";
import { paletteIdentity } from "@/lib/selection/palette-identity";
import {
  ATTR,
  AttributeProblem,
  classifySpan,
  type OfferedTools,
  type OutputCalls,
  ROUTELENS_ATTR,
  type RoutedAttributes,
  readAgentName,
  readModel,
  readOfferedTools,
  readOutputCalls,
  readRoutedAttributes,
  readSessionId,
  readString,
  readToolRun,
  type ToolDefinition,
} from "./attributes";
import type { OtlpSpan } from "./types";

/** Fields every stored span has. */
interface MappedSpanBase {
  traceId: string;
  spanId: string;
  /** The span's name, cut to LIMITS.label characters. */
  name: string;
  startNs: bigint;
  endNs: bigint;
  /** The span's start as ISO-8601 (milliseconds): the derived events' timestamp. */
  timestamp: string;
}

/** A derived decision: the v1 event (checked) and the mode it is stored with. */
export interface DerivedDecision {
  /** Checked as a v1 event; for mode `off` it was checked as `observe` (the wire has no `off`). */
  event: ToolRoutingDecision;
  mode: StoredMode;
}

export interface MappedLlmCall extends MappedSpanBase {
  kind: "llm_call";
  runId: string;
  role: string;
  /** Ids of the tool calls in the output (for joining tool runs); empty when none recorded. */
  callIds: string[];
  /** Estimated tokens per offered tool's definition (SPEC §8 "Tool size"); shared, frozen. */
  toolSizes: readonly { tool: string; tokens: number }[];
  /** Null when the span records no tool list (counted in `otel_call_rollup_hour` instead). */
  decision: DerivedDecision | null;
  /** Null when there is no decision or the span records no output (calls unknown). */
  outcome: ToolCallOutcome | null;
}

export interface MappedToolRun extends MappedSpanBase {
  kind: "tool_run";
  /** The span's own conversation or session id; null when it has none (the trace's run is used). */
  runId: string | null;
  tool: string | null;
  callId: string | null;
  /** The status message when the span ended in error ("" when it gave none); null otherwise. */
  error: string | null;
}

export type SpanMapping =
  | MappedLlmCall
  | MappedToolRun
  | { kind: "ignored" }
  | { kind: "refused"; message: string };

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const MAX_INT64 = 2n ** 63n - 1n;
/** The latest instant a JavaScript Date holds, in nanoseconds. */
const MAX_DATE_NS = 8_640_000_000_000_000n * 1_000_000n;
/** The role used when a span names no role, agent or service. */
export const UNKNOWN_ROLE = "unknown_service";

export const decisionEventId = (traceId: string, spanId: string) => `otel:${traceId}:${spanId}`;
export const outcomeEventId = (traceId: string, spanId: string) =>
  `otel:${traceId}:${spanId}:called`;

/** Replaces what PostgreSQL text cannot hold (NUL, half a surrogate pair) with U+FFFD. */
function storableText(text: string): string {
  return text
    .replaceAll("\u0000", "\uFFFD")
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/** `text` cut to `max` characters (never inside a surrogate pair). */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

class SpanRefusal extends Error {}

/**
 * What the mapping derives from one tool list, the same for every span that offers it: the
 * names in order (the derived decision's offered and selected tools), each distinct tool's size
 * estimate (the last definition of a name wins), and whether a name breaks the tool-name
 * label rule. Frozen: every span offering the list shares it, and so do the rows and rollups
 * built from those spans.
 */
export interface OfferedPalette {
  names: readonly string[];
  toolSizes: readonly { tool: string; tokens: number }[];
  /** Why a tool name cannot be stored as a label (the first such name); null when all can. */
  nameProblem: "length" | "text" | null;
}

/**
 * Palettes by their tool list. A list read from a text is the tool-list memo's own array
 * (`attributes.ts`), so a palette lives exactly as long as the memo keeps its list: the memo
 * bounds this map's memory. A list read anew for one span is forgotten with it.
 */
const palettes = new WeakMap<readonly ToolDefinition[], OfferedPalette>();

/** The palette of a tool list, derived once per list. */
export function paletteOf(tools: readonly ToolDefinition[]): OfferedPalette {
  const known = palettes.get(tools);
  if (known !== undefined) return known;
  const sizes = new Map<string, number>();
  for (const tool of tools) sizes.set(tool.name, tool.tokens);
  let nameProblem: OfferedPalette["nameProblem"] = null;
  for (const name of sizes.keys()) {
    nameProblem = labelProblem(name, LIMITS.toolName);
    if (nameProblem !== null) break;
  }
  const palette: OfferedPalette = Object.freeze({
    names: Object.freeze(tools.map((tool) => tool.name)),
    toolSizes: Object.freeze([...sizes].map(([tool, tokens]) => Object.freeze({ tool, tokens }))),
    nameProblem,
  });
  palettes.set(tools, palette);
  return palette;
}

/** Maps one span; never throws for any input. */
export function mapSpan(span: OtlpSpan): SpanMapping {
  const label = `span ${String(span.spanId).slice(0, 16)}`;
  try {
    const kind = classifySpan(span.name, span.attributes);
    if (kind === "other") return { kind: "ignored" };
    const base = mapBase(span);
    return kind === "llm_call" ? mapLlmCall(span, base) : mapToolRun(span, base);
  } catch (error) {
    if (error instanceof AttributeProblem || error instanceof SpanRefusal) {
      return {
        kind: "refused",
        message: `${label} (${cut(storableText(span.name), 80)}): ${error.message}`,
      };
    }
    throw error;
  }
}

function mapBase(span: OtlpSpan): MappedSpanBase {
  if (!TRACE_ID.test(span.traceId)) {
    throw new SpanRefusal("traceId: must be 32 lowercase hex digits");
  }
  if (!SPAN_ID.test(span.spanId)) throw new SpanRefusal("spanId: must be 16 lowercase hex digits");
  const { startTimeUnixNano: startNs, endTimeUnixNano: endNs } = span;
  if (startNs < 0n || startNs > MAX_DATE_NS) {
    throw new SpanRefusal("startTimeUnixNano: must be an instant between 1970 and 275760");
  }
  if (endNs < 0n || endNs > MAX_INT64) {
    throw new SpanRefusal("endTimeUnixNano: must be between 0 and 2^63 - 1");
  }
  const startMs = Number(startNs / 1_000_000n);
  const window = timestampWindowIssue(startMs);
  if (window) throw new SpanRefusal(`startTimeUnixNano: ${window}`);
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    name: cut(storableText(span.name), LIMITS.label),
    startNs,
    endNs,
    timestamp: new Date(startMs).toISOString(),
  };
}

/** Where each field of a derived event was read from, for refusal messages. */
type Sources = Record<string, string>;

function refuseProblems(problems: EventProblem[], sources: Sources): never {
  const [first] = problems;
  if (!first) throw new SpanRefusal("the derived event was refused");
  const path = first.path.replace(/^batch\[\d+\]\.?/, "");
  const field = /^[a-z_]+/.exec(path)?.[0] ?? "";
  const attribute = sources[field] ?? `routelens.${field}`;
  throw new SpanRefusal(
    `attribute ${attribute}${path === field ? "" : ` (${path})`}: ${first.rule}`,
  );
}

function check<T extends ToolRoutingDecision | ToolCallOutcome>(event: T, sources: Sources): T {
  const checked = checkEvent(event, 0, "");
  if (!checked.ok) refuseProblems(checked.error.problems, sources);
  return checked.event as T;
}

function roleOf(span: OtlpSpan, routed: RoutedAttributes): { role: string; source: string } {
  if (routed.role !== undefined) return { role: routed.role, source: ROUTELENS_ATTR.role };
  const agent = readAgentName(span.attributes);
  if (agent !== undefined) {
    const source =
      readString(span.attributes, ATTR.genAiAgentName) !== undefined
        ? ATTR.genAiAgentName
        : ATTR.aiFunctionId;
    return { role: agent, source };
  }
  const service = readString(span.resource, ATTR.serviceName);
  if (service !== undefined) return { role: service, source: `resource ${ATTR.serviceName}` };
  return { role: UNKNOWN_ROLE, source: `resource ${ATTR.serviceName}` };
}

function runOf(span: OtlpSpan): { runId: string; source: string } {
  const session = readSessionId(span.attributes);
  if (session !== undefined) return { runId: session, source: "conversation or session id" };
  return { runId: span.traceId, source: "traceId" };
}

function mapLlmCall(span: OtlpSpan, base: MappedSpanBase): MappedLlmCall {
  const attrs = span.attributes;
  const routed = readRoutedAttributes(attrs);
  const offered: OfferedTools | undefined = readOfferedTools(attrs);
  const output: OutputCalls | undefined = readOutputCalls(attrs);
  const { role, source: roleSource } = roleOf(span, routed);
  const { runId, source: runSource } = runOf(span);

  const callIds = (output?.calls ?? []).flatMap((call) => (call.id === null ? [] : [call.id]));
  for (const id of callIds) {
    if (id.length > LIMITS.toolName || hasUnstorableText(id, new Set(), false)) {
      throw new AttributeProblem(
        output?.attribute ?? "tool call id",
        `a tool call id must be at most ${LIMITS.toolName} characters of storable text`,
      );
    }
  }
  const palette = offered === undefined ? undefined : paletteOf(offered.tools);
  // Shared by every span offering this list; nothing downstream writes to it.
  const toolsSeen = palette?.names as string[] | undefined;
  const isRouted = routed.mode !== undefined;

  let decision: DerivedDecision | null = null;
  let outcome: ToolCallOutcome | null = null;
  if (toolsSeen !== undefined || isRouted) {
    const seen = toolsSeen ?? [];
    const toolsSource = offered?.attribute ?? ROUTELENS_ATTR.offered;
    const model = readModel(attrs);
    const agent = readAgentName(attrs);
    const sources: Sources = {
      timestamp: "startTimeUnixNano",
      run_id: runSource,
      role: roleSource,
      offered: routed.offered ? ROUTELENS_ATTR.offered : toolsSource,
      selected: routed.selected ? ROUTELENS_ATTR.selected : toolsSource,
      model: "model (gen_ai.request.model, ai.model.id or llm.model_name)",
      agent: "agent name (gen_ai.agent.name or ai.telemetry.functionId)",
      dropped_tokens: ROUTELENS_ATTR.droppedTokens,
      forced_choice: ROUTELENS_ATTR.forcedChoice,
      turn_hop_index: ROUTELENS_ATTR.turnHopIndex,
      config_version: ROUTELENS_ATTR.configVersion,
      mode: ROUTELENS_ATTR.mode,
      trace: ROUTELENS_ATTR.trace,
      warnings: ROUTELENS_ATTR.warnings,
      called: output?.attribute ?? "output",
    };
    const mode: StoredMode = isRouted ? (routed.mode as StoredMode) : "off";
    const event = {
      type: "tool_routing_decision",
      event_id: decisionEventId(base.traceId, base.spanId),
      timestamp: base.timestamp,
      run_id: runId,
      role,
      // `off` is not a wire mode: an unrouted call is checked as observe (offered = selected).
      mode: isRouted ? routed.mode : "observe",
      iteration: 0,
      turn_hop_index: routed.turnHopIndex ?? 0,
      offered: routed.offered ?? seen,
      selected: routed.selected ?? seen,
      forced_choice: routed.forcedChoice ?? null,
      dropped_tokens: routed.droppedTokens ?? 0,
      trace: routed.trace ?? [],
      warnings: routed.warnings ?? [],
      ...(model === undefined ? {} : { model }),
      ...(agent === undefined ? {} : { agent }),
      ...(routed.configVersion === undefined ? {} : { config_version: routed.configVersion }),
      // A routed decision carries the identity routeTurn gives it: of the selected tools and
      // the forced choice (as /api/ingest stores it). An unrouted one has none.
      ...(isRouted
        ? {
            palette_identity: paletteIdentity(routed.selected ?? seen, routed.forcedChoice ?? null),
          }
        : {}),
    };
    decision = { event: check(event as ToolRoutingDecision, sources), mode };
    if (output !== undefined) {
      outcome = check(
        {
          type: "tool_call_outcome",
          event_id: outcomeEventId(base.traceId, base.spanId),
          timestamp: base.timestamp,
          run_id: runId,
          role,
          iteration: 0,
          called: output.calls.map((call) => call.name),
        },
        sources,
      );
    }
  } else {
    // No decision to check the run and role with: the same bounds, checked here.
    checkLabel(runId, LIMITS.runId, runSource);
    checkLabel(role, LIMITS.label, roleSource);
  }
  if (palette?.nameProblem) {
    refuseLabel(palette.nameProblem, LIMITS.toolName, offered?.attribute ?? "");
  }

  return {
    ...base,
    kind: "llm_call",
    runId,
    role,
    callIds,
    toolSizes: palette?.toolSizes ?? [],
    decision,
    outcome,
  };
}

function labelProblem(value: string, max: number): OfferedPalette["nameProblem"] {
  if (value.length > max) return "length";
  if (hasUnstorableText(value, new Set(), false)) return "text";
  return null;
}

function refuseLabel(problem: "length" | "text", max: number, source: string): never {
  if (problem === "length") throw new SpanRefusal(`${source}: at most ${max} characters`);
  throw new SpanRefusal(`${source}: must be valid Unicode text without NUL characters`);
}

function checkLabel(value: string, max: number, source: string): void {
  const problem = labelProblem(value, max);
  if (problem !== null) refuseLabel(problem, max, source);
}

function mapToolRun(span: OtlpSpan, base: MappedSpanBase): MappedToolRun {
  const { tool, callId } = readToolRun(span.attributes);
  const session = readSessionId(span.attributes);
  if (tool !== null)
    checkLabel(
      tool,
      LIMITS.toolName,
      "tool name (gen_ai.tool.name, ai.toolCall.name or tool.name)",
    );
  if (callId !== null)
    checkLabel(
      callId,
      LIMITS.toolName,
      "tool call id (gen_ai.tool.call.id, ai.toolCall.id or tool_call.id)",
    );
  if (session !== undefined) checkLabel(session, LIMITS.runId, "conversation or session id");
  const failed = span.statusCode === 2;
  return {
    ...base,
    kind: "tool_run",
    runId: session ?? null,
    tool,
    callId,
    error: failed ? cut(storableText(span.statusMessage), LIMITS.detail) : null,
  };
}
