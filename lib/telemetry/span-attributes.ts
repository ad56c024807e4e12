/**
 * Routed agents instrumented with OpenTelemetry send their decisions as `routelens.*`
 * attributes on the LLM-call span instead of posting events to `/api/ingest` (SPEC §8).
 * `recordRouteTurn` writes a `routeTurn` result onto the active span; Routelens' OTLP endpoint
 * reads them back into the `tool_routing_decision` that `/api/ingest` would have stored.
 *
 *   const turn = await routeTurn({ mode: "enforce", pipeline, tools, meta });
 *   recordRouteTurn(turn);   // inside the LLM call's span, e.g. a language model middleware
 *
 * Only `@opentelemetry/api` is used: the agent brings its own SDK and exporter.
 */
import { type Attributes, type Span, trace } from "@opentelemetry/api";
import { ROUTELENS_ATTR } from "@/lib/otlp/attributes";
import type { ToolRoutingDecision } from "@/lib/schemas/events";

/** The attribute names: the ones Routelens' OTLP mapping reads (`lib/otlp/attributes.ts`). */
export const ROUTELENS_ATTRIBUTES = ROUTELENS_ATTR;

/**
 * The `routelens.*` attributes of a decision event (the `event` of a `routeTurn` result).
 * `trace` and `warnings` are the event's own arrays as JSON; nothing is converted twice.
 */
export function routeTurnAttributes(event: ToolRoutingDecision): Attributes {
  const names = ROUTELENS_ATTRIBUTES;
  return {
    [names.mode]: event.mode,
    [names.role]: event.role,
    [names.offered]: [...event.offered],
    [names.selected]: [...event.selected],
    [names.droppedTokens]: event.dropped_tokens,
    ...(event.forced_choice !== null ? { [names.forcedChoice]: event.forced_choice } : {}),
    [names.turnHopIndex]: event.turn_hop_index,
    ...(event.config_version != null ? { [names.configVersion]: event.config_version } : {}),
    [names.trace]: JSON.stringify(event.trace),
    [names.warnings]: JSON.stringify(event.warnings),
  };
}

/**
 * Writes a `routeTurn` result onto `span` (default: the active span) as `routelens.*`
 * attributes. Answers false, writing nothing, when there is no recording span or the result
 * has no event (mode `off`: the span then counts as an unrouted LLM call).
 */
export function recordRouteTurn(
  result: { readonly event: ToolRoutingDecision | null },
  span: Span | undefined = trace.getActiveSpan(),
): boolean {
  if (!result.event || !span?.isRecording()) return false;
  span.setAttributes(routeTurnAttributes(result.event));
  return true;
}
