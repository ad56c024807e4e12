/**
 * The README's example, kept as code so a test compiles and runs it: one agent iteration in
 * observe mode. An agent outside this repository imports from "@/lib/selection" instead.
 */
import { prepareRouting, routeTurn, ToolCatalog } from "./index";

export async function runObserveExample() {
  // The agent's tools: plain objects. Metadata fields are optional.
  const tools = [
    { name: "hydrate_context", description: "Load the customer's account context." },
    { name: "search_orders", description: "Find orders by customer or date.", safetyLevel: "read" },
    { name: "refund_order", description: "Refund an order in full.", safetyLevel: "write" },
    { name: "delete_account", description: "Delete an account.", safetyLevel: "destructive" },
  ];

  // Static configuration: changes only when an operator changes it. Prepared once.
  const routing = prepareRouting({
    roleTools: { support: ["search_orders", "refund_order", "delete_account"] },
    triggerKeywords: { refund_order: ["refund"], delete_account: ["delete", "close"] },
    policy: { maxSafetyLevel: "write" },
    catalog: new ToolCatalog(tools),
  });

  // Per turn: the classifier's verdict, then this turn's pipeline.
  const verdict = { label: "action", matchedToolKeywords: [] };

  const state = { messages: [{ type: "human", content: "Where is order 1042?" }] };
  const {
    tools: offered,
    forcedChoice,
    event,
  } = await routeTurn({
    mode: "observe", // flip to "enforce" once the dashboard shows no harmful drops
    pipeline: routing.pipeline({ verdict }),
    tools,
    context: { state },
    meta: { runId: "run-7f3a", iteration: 0, role: "support", tenantId: "acme", intent: verdict },
  });

  // Observe: `offered` is `tools`, unchanged. `event.selected` is what enforce would offer:
  // ["hydrate_context", "search_orders"]. Send it: POST /api/ingest {"batch": [event]}.
  return { offered, forcedChoice, event, tools, configVersion: routing.configVersion };
}
