/**
 * Deterministic decision events for benchmarks: realistic palettes of ~24 tools, six-stage
 * traces, a spread of warnings. The same seed gives the same events in every process.
 *
 * An agent offers its catalogue on every call, so a fleet sends few distinct `offered` lists:
 * the demo's agents one per tenant, the dashboard benchmark's 23 per tenant, the
 * OpenTelemetry benchmark's 40. Each decision here offers one of `OFFERED_LISTS` (the catalogue
 * of one of 32 deployments, each without a few of its tools); `listPerDecision` draws a list
 * of its own for every decision instead — the worst case for the stored tool lists
 * (lib/ingest/palettes.ts), where every batch adds hundreds of them.
 */
import type { ToolCallOutcome, ToolRoutingDecision } from "@/lib/schemas/events";
import { outcomeFor, stageRecord } from "@/lib/telemetry/events";

const TOOLS = [
  "search_docs",
  "hydrate_context",
  "create_ticket",
  "update_ticket",
  "close_ticket",
  "lookup_customer",
  "refund_order",
  "lookup_order",
  "apply_discount",
  "get_price_history",
  "compare_competitors",
  "set_price",
  "schedule_price_change",
  "export_report",
  "run_sql",
  "plot_timeseries",
  "summarise_thread",
  "translate_text",
  "send_email",
  "escalate_to_human",
  "list_invoices",
  "get_inventory",
  "forecast_demand",
  "check_policy",
];
const STAGES = ["intent", "lazy", "forced_choice", "role_palette", "policy", "allowlist"];

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A deployment's catalogue: each tool of `TOOLS` with a chance of 0.85. */
const catalogueOf = (random: () => number) => TOOLS.filter(() => random() < 0.85);

/** The offered lists decisions draw from: the catalogues of 32 deployments, the same in every run. */
const OFFERED_LISTS = (() => {
  const random = mulberry32(32);
  return Array.from({ length: 32 }, () => catalogueOf(random));
})();

export interface BenchDecisionOptions {
  /** Every decision offers a list of its own (the worst case for stored tool lists). */
  listPerDecision?: boolean;
}

export function benchDecisions(
  count: number,
  seed: number,
  start: Date,
  { listPerDecision = false }: BenchDecisionOptions = {},
): ToolRoutingDecision[] {
  const random = mulberry32(seed);
  const events: ToolRoutingDecision[] = [];
  for (let i = 0; i < count; i++) {
    const offered = listPerDecision
      ? catalogueOf(random)
      : (OFFERED_LISTS[Math.floor(random() * OFFERED_LISTS.length)] as string[]);
    const selected = offered.filter((name) => name === "hydrate_context" || random() < 0.4);
    const dropped = offered.filter((name) => !selected.includes(name));
    const forced = random() < 0.1 ? (selected[0] ?? null) : null;
    const reinstated = forced && random() < 0.3 ? [forced] : [];
    const trace = STAGES.map((stage, s) =>
      stageRecord({
        stage,
        action: s === 2 ? (forced ? "force" : "abstain") : s % 2 === 0 ? "abstain" : "select",
        kept: s % 2 === 1 ? selected : [],
        dropped: s === 3 ? dropped : [],
        reinstated: s === 3 ? reinstated : [],
        forced_choice: s === 2 ? forced : null,
        detail: s === 3 ? "role palette for action" : "",
      }),
    );
    const warnings: ToolRoutingDecision["warnings"] = [];
    if (reinstated.length > 0) warnings.push({ code: "forced_reinstated", stage: "role_palette" });
    if (random() < 0.02) warnings.push({ code: "empty_palette", stage: "role_palette" });
    events.push({
      type: "tool_routing_decision",
      event_id: `bench-${seed}-${i}`,
      timestamp: new Date(start.getTime() + i * 50).toISOString(),
      run_id: `bench-run-${seed}-${Math.floor(i / 8)}`,
      role: random() < 0.7 ? "action" : "reasoning",
      mode: random() < 0.5 ? "observe" : "enforce",
      iteration: i % 8,
      turn_hop_index: i % 3,
      offered,
      selected,
      forced_choice: forced,
      dropped_tokens: dropped.length * (20 + Math.floor(random() * 60)),
      trace,
      warnings,
      model: "gpt-4.1-mini",
      agent: "bench-agent",
      config_version: "cfg_bench",
      palette_identity: [...selected].sort().join("\u0000"),
    });
  }
  return events;
}

/**
 * The decisions of `benchDecisions`, each followed by its `tool_call_outcome` half a batch of
 * 250 events later, as agents send them: the outcome of a decision usually lands in the next
 * request, often one in flight at the same time. The model calls one or two of the selected
 * tools, and in one turn in ten a tool the routing dropped (a harmful drop).
 */
export function benchDecisionsWithOutcomes(
  count: number,
  seed: number,
  start: Date,
  options: BenchDecisionOptions = {},
): (ToolRoutingDecision | ToolCallOutcome)[] {
  const random = mulberry32(seed + 1);
  const decisions = benchDecisions(count, seed, start, options);
  const lag = 250;
  const events: (ToolRoutingDecision | ToolCallOutcome)[] = [];
  const outcomeOf = (decision: ToolRoutingDecision): ToolCallOutcome => {
    const dropped = decision.offered.filter((name) => !decision.selected.includes(name));
    const called = decision.selected.filter(() => random() < 0.15).slice(0, 2);
    if (dropped.length > 0 && random() < 0.1) called.push(dropped[0] as string);
    return outcomeFor(decision, called, {
      event_id: `${decision.event_id}-outcome`,
      timestamp: new Date(Date.parse(decision.timestamp) + 20).toISOString(),
    });
  };
  decisions.forEach((decision, i) => {
    events.push(decision);
    const answered = decisions[i - lag];
    if (answered) events.push(outcomeOf(answered));
  });
  for (const decision of decisions.slice(-lag)) events.push(outcomeOf(decision));
  return events;
}
