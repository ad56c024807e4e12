/**
 * One model iteration through the selection core, by mode, producing the wire-format
 * `tool_routing_decision` event (SPEC §2).
 */
import { isValidEvent } from "@/lib/schemas/event-guard";
import { LIMITS, type ToolRoutingDecision, toolRoutingDecisionSchema } from "@/lib/schemas/events";
import { estimateDroppedTokens, estimateToolTokens } from "./dropped-tokens";
import { resolveMessages, turnHopIndex } from "./messages";
import type { StageRecord } from "./outcome";
import { paletteIdentity } from "./palette-identity";
import type { SelectionPipeline } from "./pipeline";
import { namesOf, readToolName } from "./tools";
import type { IntentVerdict, SelectionContext, SelectionWarning, Tool } from "./types";

/** off: nothing runs. observe: computed and reported, tools unchanged. enforce: narrowed. */
export type SelectionMode = "off" | "observe" | "enforce";

/** Who and where the decision belongs to; copied onto the event. */
export interface RouteTurnMeta {
  readonly runId: string;
  /** The model iteration within the run, from 0. */
  readonly iteration: number;
  readonly role: string;
  readonly tenantId?: string;
  readonly model?: string | null;
  readonly agent?: string | null;
  /** Idempotency key; a random UUID when absent. */
  readonly eventId?: string;
  /** When the decision was made; now when absent. */
  readonly timestamp?: string | Date;
  /** Overrides the pipeline's own configuration version. */
  readonly configVersion?: string | null;
  /** The turn's intent verdict, reported on the event. */
  readonly intent?: IntentVerdict | null;
}

export interface RouteTurnArgs<T extends Tool> {
  readonly mode: SelectionMode;
  readonly pipeline: SelectionPipeline;
  readonly tools: readonly T[];
  /** The turn's context; its role defaults to `meta.role`. */
  readonly context?: SelectionContext;
  readonly meta: RouteTurnMeta;
}

export interface RouteTurnResult<T extends Tool> {
  /** What to offer the model: the input list in off and observe, the narrowed list in enforce. */
  readonly tools: readonly T[];
  /** The tool the model must call, or null. Honoured in observe and enforce alike. */
  readonly forcedChoice: string | null;
  /** The validated decision event; null in off mode. */
  readonly event: ToolRoutingDecision | null;
}

/** Each named tool's estimated size (the estimate `dropped_tokens` sums), first tool per name. */
function toolTokens(tools: readonly Tool[]): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const tool of tools) {
    const name = readToolName(tool);
    if (name === null || Object.hasOwn(sizes, name)) continue;
    const value = estimateToolTokens(tool);
    // A tool named "__proto__" gets an entry, not a prototype.
    if (name === "__proto__") {
      Object.defineProperty(sizes, name, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      sizes[name] = value;
    }
  }
  return sizes;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A stage record in the wire format's form (snake_case, detail cut to its limit). */
export function toWireRecord(record: StageRecord): ToolRoutingDecision["trace"][number] {
  return {
    stage: record.stage,
    action: record.action,
    kept: [...record.kept],
    dropped: [...record.dropped],
    added: [...record.added],
    reinstated: [...record.reinstated],
    forced_choice: record.forcedChoice,
    detail: truncate(record.detail, LIMITS.detail),
    degraded: record.degraded,
  };
}

/** A warning in the wire format's form (detail cut to its limit). */
export function toWireWarning(warning: SelectionWarning): ToolRoutingDecision["warnings"][number] {
  return {
    code: warning.code,
    ...(warning.stage ? { stage: warning.stage } : {}),
    ...(warning.detail !== undefined ? { detail: truncate(warning.detail, LIMITS.detail) } : {}),
  };
}

/**
 * Runs the pipeline for one iteration according to `mode`. In observe mode the model is
 * offered exactly the input list (the same array) while the event reports what enforce would
 * have bound. The event is validated against `toolRoutingDecisionSchema` (a ZodError is thrown
 * if it is not valid, e.g. an empty `runId`). `ForcedToolUnavailable` propagates in every mode
 * but off: forcing a tool that cannot be offered fails the model call in any case.
 */
export async function routeTurn<T extends Tool>(
  args: RouteTurnArgs<T>,
): Promise<RouteTurnResult<T>> {
  const { mode, pipeline, tools, meta } = args;
  if (mode === "off") return { tools, forcedChoice: null, event: null };

  const context: SelectionContext = { ...args.context, role: args.context?.role ?? meta.role };
  const result = await pipeline.select(tools, context);
  const selected = new Set<Tool>(result.tools);
  const selectedNames = namesOf(result.tools);
  const timestamp = meta.timestamp ?? new Date();

  const built = {
    type: "tool_routing_decision" as const,
    event_id: meta.eventId ?? globalThis.crypto.randomUUID(),
    timestamp: typeof timestamp === "string" ? timestamp : timestamp.toISOString(),
    run_id: meta.runId,
    ...(meta.tenantId !== undefined ? { tenant_id: meta.tenantId } : {}),
    role: meta.role,
    mode,
    iteration: meta.iteration,
    turn_hop_index: turnHopIndex(resolveMessages(context)),
    offered: namesOf(tools),
    selected: selectedNames,
    forced_choice: result.forcedChoice,
    dropped_tokens: estimateDroppedTokens(tools.filter((tool) => !selected.has(tool))),
    tool_tokens: toolTokens(tools),
    trace: result.trace.map(toWireRecord),
    warnings: result.warnings.map(toWireWarning),
    ...(meta.intent
      ? {
          intent: {
            label: meta.intent.label,
            matched_tool_keywords: (meta.intent.matchedToolKeywords ?? []).filter(
              (name) => name.length > 0,
            ),
          },
        }
      : {}),
    ...(meta.model !== undefined ? { model: meta.model } : {}),
    ...(meta.agent !== undefined ? { agent: meta.agent } : {}),
    config_version: meta.configVersion ?? pipeline.configVersion,
    palette_identity: paletteIdentity(selectedNames, result.forcedChoice),
  };
  // The guard compiled from the schema gives zod's verdict at a fraction of its cost (the
  // demo's backfill validated every decision twice with zod); zod explains an invalid event.
  const event: ToolRoutingDecision = isValidEvent(built)
    ? built
    : toolRoutingDecisionSchema.parse(built);

  return {
    tools: mode === "enforce" ? result.tools : tools,
    forcedChoice: result.forcedChoice,
    event,
  };
}
