/**
 * Demo traffic of an agent that routes nothing yet: the support tenant's `triage` agent,
 * instrumented with OpenTelemetry (GenAI semantic conventions, as pydantic-ai and AI SDK 7
 * write them). Every LLM call offers its whole catalogue of twelve tools; the model mostly
 * calls four of them, and some tools (with large definitions) it never calls — the context tax
 * the Tools view shows. A share of its service runs with tool recording off, so some calls
 * carry no tool list. The spans go through OpenTelemetry ingest's own storage (`storeSpans`),
 * so they become mode-off decisions, tool runs and rollups exactly as an export does.
 */
import type { Attributes, OtlpSpan } from "@/lib/otlp/types";
import { hashSeed, Random } from "./random";

export const UNROUTED_DEMO_TENANT = "demo-support";
export const UNROUTED_DEMO_AGENT = "triage";

interface DemoTool {
  name: string;
  description: string;
  /** Properties of its JSON schema: bigger schemas cost more tokens per offer. */
  properties: Record<string, { type: string; description?: string }>;
  /** How often the model calls it, relative to the others (0: never). */
  weight: number;
}

const prop = (type: string, description?: string) =>
  description ? { type, description } : { type };

/** The triage agent's catalogue, offered whole on every call. */
const CATALOGUE: readonly DemoTool[] = [
  {
    name: "search_kb",
    description: "Search the knowledge base for articles matching the customer's question.",
    properties: { query: prop("string"), limit: prop("integer") },
    weight: 10,
  },
  {
    name: "get_ticket",
    description: "Load a support ticket with its history.",
    properties: { ticket_id: prop("string") },
    weight: 6,
  },
  {
    name: "lookup_customer",
    description: "Load the customer's account, plan and open tickets.",
    properties: { customer_id: prop("string"), include_tickets: prop("boolean") },
    weight: 5,
  },
  {
    name: "set_priority",
    description: "Set a ticket's priority.",
    properties: {
      ticket_id: prop("string"),
      priority: prop("string", "low, normal, high, urgent"),
    },
    weight: 3,
  },
  {
    name: "assign_team",
    description: "Route the ticket to a support team queue.",
    properties: { ticket_id: prop("string"), team: prop("string") },
    weight: 1,
  },
  {
    name: "merge_tickets",
    description: "Merge duplicate tickets into one, keeping every message and attachment.",
    properties: { primary_id: prop("string"), duplicate_ids: prop("array") },
    weight: 0.2,
  },
  {
    name: "issue_refund",
    description:
      "Refund a charge in full or in part. Refunds above the plan's limit need a supervisor's approval id; the refund is booked against the original payment method.",
    properties: {
      charge_id: prop("string"),
      amount_cents: prop("integer"),
      reason: prop("string", "damaged, late, duplicate, goodwill, other"),
      approval_id: prop("string", "required above the plan's refund limit"),
    },
    weight: 0,
  },
  {
    name: "export_customer_data",
    description:
      "Export everything stored about a customer (account, orders, tickets, messages, consents) as a machine-readable archive, for data-subject access requests. Runs asynchronously and mails a download link to the verified address.",
    properties: {
      customer_id: prop("string"),
      format: prop("string", "json or csv"),
      include_messages: prop("boolean"),
      include_attachments: prop("boolean"),
      reason: prop("string", "the request's reference"),
    },
    weight: 0,
  },
  {
    name: "delete_account",
    description:
      "Permanently delete a customer's account and personal data after the retention checks. Cannot be undone; open invoices block deletion.",
    properties: {
      customer_id: prop("string"),
      confirm: prop("boolean"),
      reason: prop("string"),
    },
    weight: 0,
  },
  {
    name: "update_billing_address",
    description: "Change the billing address on the customer's account.",
    properties: {
      customer_id: prop("string"),
      line1: prop("string"),
      line2: prop("string"),
      city: prop("string"),
      postal_code: prop("string"),
      country: prop("string", "ISO 3166-1 alpha-2"),
    },
    weight: 0,
  },
  {
    name: "schedule_callback",
    description: "Book a phone callback with an agent at a time the customer chose.",
    properties: {
      customer_id: prop("string"),
      at: prop("string", "ISO-8601"),
      phone: prop("string"),
    },
    weight: 0.1,
  },
  {
    name: "translate_message",
    description: "Translate a message into the customer's language.",
    properties: { text: prop("string"), target_language: prop("string") },
    weight: 0,
  },
];

const DEFINITIONS = JSON.stringify(
  CATALOGUE.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: { type: "object", properties: tool.properties },
  })),
);
const CALLED = CATALOGUE.filter((tool) => tool.weight > 0);

/** Runs per hour, on average, over the demo window. */
const RUNS_PER_HOUR = 3;
/** Share of runs from the service instance that records no inputs (no tool list). */
const BLIND_SHARE = 0.08;

const MS_NS = 1_000_000n;

function hexId(random: Random, digits: number): string {
  let id = "";
  while (id.length < digits) id += random.int(0, 0xffff).toString(16).padStart(4, "0");
  return id.slice(0, digits);
}

/** One LLM-call span: the catalogue offered (unless `blind`), the tool call or the answer. */
function chatSpan(
  ids: { traceId: string; spanId: string; parentSpanId: string },
  conversation: string,
  startMs: number,
  endMs: number,
  call: { id: string; tool: string } | null,
  blind: boolean,
): OtlpSpan {
  const output = call
    ? [
        {
          role: "assistant",
          parts: [{ type: "tool_call", id: call.id, name: call.tool, arguments: { id: "C-1042" } }],
        },
      ]
    : [{ role: "assistant", parts: [{ type: "text", content: "Routed to the right team." }] }];
  const attributes: Attributes = {
    "gen_ai.operation.name": "chat",
    "gen_ai.request.model": "gpt-4o-mini",
    "gen_ai.conversation.id": conversation,
    "gen_ai.agent.name": UNROUTED_DEMO_AGENT,
  };
  if (!blind) {
    attributes["gen_ai.tool.definitions"] = DEFINITIONS;
    attributes["gen_ai.output.messages"] = JSON.stringify(output);
  }
  return {
    ...ids,
    name: "chat gpt-4o-mini",
    startTimeUnixNano: BigInt(startMs) * MS_NS,
    endTimeUnixNano: BigInt(endMs) * MS_NS,
    attributes,
    resource: { "service.name": blind ? "triage-worker-legacy" : "triage-worker" },
    statusCode: 0,
    statusMessage: "",
  };
}

/**
 * The triage agent's spans for runs starting in [from, to), oldest first, one list per run.
 * Deterministic for a seed.
 */
export function unroutedDemoRuns(from: number, to: number, seed: number): OtlpSpan[][] {
  const random = new Random(hashSeed("unrouted-demo", seed));
  const runs: OtlpSpan[][] = [];
  const spacing = 3_600_000 / RUNS_PER_HOUR;
  for (
    let start = from + random.between(0, spacing);
    start < to;
    start += random.between(0.2, 1.8) * spacing
  ) {
    const traceId = hexId(random, 32);
    const rootId = hexId(random, 16);
    const conversation = `triage-${traceId.slice(0, 12)}`;
    const blind = random.chance(BLIND_SHARE);
    const toolCalls = random.weighted([1, 2, 3], (n) => (n === 1 ? 4 : n === 2 ? 3 : 1));
    const spans: OtlpSpan[] = [];
    let ms = Math.floor(start);
    for (let step = 0; step <= toolCalls; step++) {
      const answers = step === toolCalls;
      const tool = answers ? null : random.weighted(CALLED, (t) => t.weight).name;
      const call = tool ? { id: `call_${traceId.slice(0, 8)}_${step}`, tool } : null;
      const end = ms + random.int(300, 1_800);
      const chatId = hexId(random, 16);
      spans.push(
        chatSpan(
          { traceId, spanId: chatId, parentSpanId: rootId },
          conversation,
          ms,
          end,
          call,
          blind,
        ),
      );
      ms = end + random.int(1, 20);
      if (call) {
        const runEnd = ms + random.int(20, 900);
        const failed = random.chance(0.04);
        spans.push({
          traceId,
          spanId: hexId(random, 16),
          parentSpanId: rootId,
          name: `execute_tool ${call.tool}`,
          startTimeUnixNano: BigInt(ms) * MS_NS,
          endTimeUnixNano: BigInt(runEnd) * MS_NS,
          attributes: {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": call.tool,
            "gen_ai.tool.call.id": call.id,
            "gen_ai.conversation.id": conversation,
          },
          resource: { "service.name": "triage-worker" },
          statusCode: failed ? 2 : 0,
          statusMessage: failed ? "upstream timeout after 30 s" : "",
        });
        ms = runEnd + random.int(1, 20);
      }
    }
    runs.push(spans);
  }
  return runs;
}
