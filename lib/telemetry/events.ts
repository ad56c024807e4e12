/**
 * Builders for wire-format v1 events (SPEC §2), shared by the demo traffic, the benchmarks
 * and the tests. Each returns a complete, valid event; `overrides` replace any field.
 */
import { randomUUID } from "node:crypto";
import type { StageRecordWire, ToolCallOutcome, ToolRoutingDecision } from "@/lib/schemas/events";

export function stageRecord(
  overrides: Partial<StageRecordWire> & { stage: string },
): StageRecordWire {
  return {
    action: "abstain",
    kept: [],
    dropped: [],
    added: [],
    reinstated: [],
    forced_choice: null,
    detail: "",
    degraded: false,
    ...overrides,
  };
}

export function decisionEvent(overrides: Partial<ToolRoutingDecision> = {}): ToolRoutingDecision {
  const offered = overrides.offered ?? ["search_docs", "hydrate_context", "create_ticket"];
  const selected = overrides.selected ?? offered;
  return {
    type: "tool_routing_decision",
    event_id: randomUUID(),
    timestamp: new Date().toISOString(),
    run_id: `run-${randomUUID()}`,
    role: "action",
    mode: "observe",
    iteration: 0,
    turn_hop_index: 0,
    offered,
    selected,
    forced_choice: null,
    dropped_tokens: 0,
    trace: [
      stageRecord({
        stage: "intent",
        action: "select",
        kept: selected,
        dropped: offered.filter((n) => !selected.includes(n)),
      }),
    ],
    warnings: [],
    ...overrides,
  };
}

export function outcomeEvent(overrides: Partial<ToolCallOutcome> = {}): ToolCallOutcome {
  return {
    type: "tool_call_outcome",
    event_id: randomUUID(),
    timestamp: new Date().toISOString(),
    run_id: `run-${randomUUID()}`,
    role: "action",
    iteration: 0,
    called: [],
    ...overrides,
  };
}

/**
 * The `tool_call_outcome` that answers `decision`: same run, role and iteration, so ingest
 * joins the two. `called` lists what the model actually called.
 */
export function outcomeFor(
  decision: Pick<ToolRoutingDecision, "run_id" | "role" | "iteration" | "tenant_id">,
  called: readonly string[],
  overrides: Partial<ToolCallOutcome> = {},
): ToolCallOutcome {
  return outcomeEvent({
    run_id: decision.run_id,
    role: decision.role,
    iteration: decision.iteration,
    ...(decision.tenant_id !== undefined ? { tenant_id: decision.tenant_id } : {}),
    called: [...called],
    ...overrides,
  });
}
