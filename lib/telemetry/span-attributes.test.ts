import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { toolRoutingDecisionSchema } from "@/lib/schemas/events";
import {
  defaultPipeline,
  type RoutingConfig,
  routeTurn,
  type SelectionMode,
  ToolCatalog,
} from "@/lib/selection";
import { ROUTELENS_ATTRIBUTES, recordRouteTurn, routeTurnAttributes } from "./span-attributes";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer("span-attributes-test");
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(async () => {
  context.disable();
  await provider.shutdown();
});
beforeEach(() => exporter.reset());

const tools = [
  { name: "hydrate_context", description: "Load the customer's account context." },
  { name: "search_orders", description: "Find orders by customer or date.", safetyLevel: "read" },
  { name: "refund_order", description: "Refund an order in full.", safetyLevel: "write" },
  { name: "delete_account", description: "Delete an account.", safetyLevel: "destructive" },
];

async function turn(mode: SelectionMode, question = "Where is order 1042?") {
  const config: RoutingConfig = {
    roleTools: { support: ["search_orders", "refund_order", "delete_account"] },
    triggerKeywords: { refund_order: ["refund"], delete_account: ["delete", "close"] },
    policy: { maxSafetyLevel: "write" },
    catalog: new ToolCatalog(tools),
  };
  const pipeline = defaultPipeline({
    ...config,
    turn: { verdict: { label: "action", matchedToolKeywords: [] } },
  });
  return routeTurn({
    mode,
    pipeline,
    tools,
    context: { state: { messages: [{ type: "human", content: question }] } },
    meta: { runId: "run-7f3a", iteration: 0, role: "support" },
  });
}

/** Runs `fn` inside an active span and answers the span's attributes once it has ended. */
async function attributesOfSpanAround(fn: () => unknown) {
  await tracer.startActiveSpan("chat model-1", async (span) => {
    await fn();
    span.end();
  });
  const [span] = exporter.getFinishedSpans();
  if (!span) throw new Error("no span was exported");
  return span.attributes;
}

describe("recordRouteTurn", () => {
  it("writes an enforce decision onto the active span, every field as routeTurn made it", async () => {
    const result = await turn("enforce");
    const event = result.event;
    if (!event) throw new Error("enforce produced no event");

    const attributes = await attributesOfSpanAround(() => {
      expect(recordRouteTurn(result)).toBe(true);
    });

    expect(attributes).toEqual({
      "routelens.mode": "enforce",
      "routelens.role": "support",
      "routelens.offered": ["hydrate_context", "search_orders", "refund_order", "delete_account"],
      "routelens.selected": event.selected,
      "routelens.dropped_tokens": event.dropped_tokens,
      "routelens.turn_hop_index": 0,
      "routelens.config_version": event.config_version,
      "routelens.trace": JSON.stringify(event.trace),
      "routelens.warnings": JSON.stringify(event.warnings),
    });
    // Narrowing happened, so the attributes describe a real decision, not the whole palette.
    expect(event.selected).not.toContain("delete_account");
    expect(event.dropped_tokens).toBeGreaterThan(0);
    expect(event.trace.length).toBeGreaterThan(1);
  });

  it("gives back trace and warnings that parse into the wire shapes of SPEC §2", async () => {
    const result = await turn("observe", "please refund order 1042");
    const event = result.event;
    if (!event) throw new Error("observe produced no event");

    const attributes = await attributesOfSpanAround(() => recordRouteTurn(result));

    const rebuilt = toolRoutingDecisionSchema.parse({
      ...event,
      offered: attributes["routelens.offered"],
      selected: attributes["routelens.selected"],
      trace: JSON.parse(String(attributes["routelens.trace"])),
      warnings: JSON.parse(String(attributes["routelens.warnings"])),
    });
    expect(rebuilt).toEqual(event);
    expect(attributes["routelens.mode"]).toBe("observe");
  });

  it("writes the forced choice when the pipeline forces a tool, and leaves it out otherwise", async () => {
    const event = (await turn("enforce")).event;
    if (!event) throw new Error("enforce produced no event");

    const forced = routeTurnAttributes({ ...event, forced_choice: "refund_order" });
    expect(forced[ROUTELENS_ATTRIBUTES.forcedChoice]).toBe("refund_order");
    expect(ROUTELENS_ATTRIBUTES.forcedChoice in routeTurnAttributes(event)).toBe(
      event.forced_choice !== null,
    );
    expect(ROUTELENS_ATTRIBUTES.configVersion in routeTurnAttributes(event)).toBe(true);
    const noVersion = routeTurnAttributes({ ...event, config_version: null });
    expect(ROUTELENS_ATTRIBUTES.configVersion in noVersion).toBe(false);
  });

  it("writes nothing in off mode: the span stays an unrouted LLM call", async () => {
    const result = await turn("off");
    const attributes = await attributesOfSpanAround(() => {
      expect(recordRouteTurn(result)).toBe(false);
    });
    expect(Object.keys(attributes).filter((key) => key.startsWith("routelens."))).toEqual([]);
  });

  it("answers false without an active span, and writes onto an explicit span when given one", async () => {
    const result = await turn("enforce");
    expect(trace.getActiveSpan()).toBeUndefined();
    expect(recordRouteTurn(result)).toBe(false);

    const span = tracer.startSpan("chat model-1");
    expect(recordRouteTurn(result, span)).toBe(true);
    span.end();
    expect(recordRouteTurn(result, span)).toBe(false); // ended: no longer recording
    const [finished] = exporter.getFinishedSpans();
    expect(finished?.attributes["routelens.mode"]).toBe("enforce");
  });
});
