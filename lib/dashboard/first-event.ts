/**
 * The "send your first event" example of the overview's empty state: a minimal valid
 * `tool_routing_decision` (SPEC §2) and the curl command that posts it.
 */

export function buildFirstEvent(now: Date) {
  return {
    type: "tool_routing_decision",
    event_id: "first-event-1",
    timestamp: now.toISOString().replace(/\.\d{3}Z$/, "Z"),
    run_id: "first-run",
    role: "action",
    mode: "observe",
    iteration: 0,
    turn_hop_index: 0,
    offered: ["search_docs", "create_ticket", "send_email"],
    selected: ["search_docs"],
    forced_choice: null,
    dropped_tokens: 42,
    trace: [
      {
        stage: "intent",
        action: "select",
        kept: ["search_docs"],
        dropped: ["create_ticket", "send_email"],
        added: [],
        reinstated: [],
        forced_choice: null,
        detail: "knowledge question",
        degraded: false,
      },
    ],
    warnings: [],
  } as const;
}

/** A copy-paste curl for `origin` (e.g. `http://localhost:3000`); the key comes from $ROUTELENS_KEY. */
export function buildFirstEventCurl(origin: string, now: Date): string {
  const body = JSON.stringify({ batch: [buildFirstEvent(now)] });
  return [
    `curl -X POST ${origin}/api/ingest \\`,
    `  -H "Authorization: Bearer $ROUTELENS_KEY" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '${body}'`,
  ].join("\n");
}
