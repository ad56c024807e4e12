/**
 * Request bodies that cost the ingest route far more than their size, shared by
 * `bench:ingest-limits`, `bench:hostile` and the integration tests of the ingest limits.
 */

/** 1,000 decisions, each with 1,000 numbers where `offered` and `selected` want tool names. */
export function amplificationBatch(): string {
  const numbers = Array.from({ length: 1_000 }, () => 0);
  const batch = Array.from({ length: 1_000 }, (_, i) => ({
    type: "tool_routing_decision",
    event_id: `amplify-${i}`,
    timestamp: new Date().toISOString(),
    run_id: "amplify",
    role: "action",
    mode: "observe",
    iteration: i,
    turn_hop_index: 0,
    offered: numbers,
    selected: numbers,
    forced_choice: null,
    dropped_tokens: 0,
    trace: [],
    warnings: [],
  }));
  return JSON.stringify({ batch });
}

/** `{"batch":[{},{},…]}` just under 5 MiB. */
export function emptyObjectsBody(): string {
  const count = Math.floor((5 * 1024 * 1024 - 20) / 3);
  return `{"batch":[${Array.from({ length: count }, () => "{}").join(",")}]}`;
}
