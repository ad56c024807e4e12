import { describe, expect, it, vi } from "vitest";
import { toolRoutingDecisionSchema } from "@/lib/schemas/events";
import { defaultPipeline, type RoutingConfig } from "./default-pipeline";
import { estimateDroppedTokens } from "./dropped-tokens";
import { ForcedToolUnavailable } from "./errors";
import { StageOutcome } from "./outcome";
import { paletteIdentity } from "./palette-identity";
import { SelectionPipeline } from "./pipeline";
import { type RouteTurnMeta, routeTurn } from "./route-turn";

const hydrate = { name: "hydrate_context", description: "Load the account context." };
const search = { name: "search_orders", description: "Find orders by customer or date." };
const refund = { name: "refund_order", description: "Refund an order in full." };
const wipe = { name: "wipe_account", description: "Delete an account and its data." };
const unnamed = { description: "A tool without a name." };
const tools = [hydrate, search, refund, wipe, unnamed];

const config: RoutingConfig = { roleTools: { support: ["search_orders", "refund_order"] } };
const meta: RouteTurnMeta = {
  runId: "run-1",
  iteration: 3,
  role: "support",
  tenantId: "acme",
  model: "gpt-4.1-mini",
  agent: "support-bot",
  eventId: "evt-1",
  timestamp: "2026-01-31T12:00:00Z",
};
const messages = [
  { type: "human" as const, content: "refund order 7" },
  { type: "ai" as const },
  { type: "tool" as const, name: "search_orders" },
  { type: "ai" as const },
];

describe("routeTurn modes", () => {
  it("off: returns the input tools, no event, and never runs the pipeline", async () => {
    const pipeline = defaultPipeline(config);
    const select = vi.spyOn(pipeline, "select");
    const result = await routeTurn({ mode: "off", pipeline, tools, meta });
    expect(result).toEqual({ tools, forcedChoice: null, event: null });
    expect(result.tools).toBe(tools);
    expect(select).not.toHaveBeenCalled();
  });

  it("observe: returns the input tools unchanged (same items, same order) and the event", async () => {
    const result = await routeTurn({
      mode: "observe",
      pipeline: defaultPipeline(config),
      tools,
      meta,
    });
    expect(result.tools).toHaveLength(tools.length);
    result.tools.forEach((tool, index) => {
      expect(tool).toBe(tools[index]);
    });
    expect(result.event?.mode).toBe("observe");
    expect(result.event?.selected).toEqual(["hydrate_context", "search_orders", "refund_order"]);
  });

  it("enforce: returns the narrowed tools and the event", async () => {
    const result = await routeTurn({
      mode: "enforce",
      pipeline: defaultPipeline(config),
      tools,
      meta,
    });
    expect(result.tools).toEqual([hydrate, search, refund, unnamed]);
    expect(result.tools[1]).toBe(search);
    expect(result.event?.mode).toBe("enforce");
  });

  it("returns the forced choice in observe and enforce", async () => {
    const state = { forced_tool_choice: "refund_order" };
    for (const mode of ["observe", "enforce"] as const) {
      const result = await routeTurn({
        mode,
        pipeline: defaultPipeline(config),
        tools,
        context: { state },
        meta,
      });
      expect(result.forcedChoice).toBe("refund_order");
      expect(result.event?.forced_choice).toBe("refund_order");
    }
  });

  it("propagates ForcedToolUnavailable for a forced tool that does not exist", async () => {
    await expect(
      routeTurn({
        mode: "observe",
        pipeline: defaultPipeline(config),
        tools,
        context: { state: { forced_tool_choice: "ghost" } },
        meta,
      }),
    ).rejects.toBeInstanceOf(ForcedToolUnavailable);
  });
});

describe("routeTurn event", () => {
  it("is a valid wire-format v1 tool_routing_decision with every field filled", async () => {
    const pipeline = defaultPipeline(config);
    const { event } = await routeTurn({
      mode: "enforce",
      pipeline,
      tools,
      context: { messages },
      meta: { ...meta, intent: { label: "action", matchedToolKeywords: ["refund_order"] } },
    });
    expect(toolRoutingDecisionSchema.safeParse(event).success).toBe(true);
    expect(event).toMatchObject({
      type: "tool_routing_decision",
      event_id: "evt-1",
      timestamp: "2026-01-31T12:00:00Z",
      run_id: "run-1",
      tenant_id: "acme",
      role: "support",
      mode: "enforce",
      iteration: 3,
      turn_hop_index: 2,
      offered: ["hydrate_context", "search_orders", "refund_order", "wipe_account"],
      selected: ["hydrate_context", "search_orders", "refund_order"],
      forced_choice: null,
      dropped_tokens: Math.floor((wipe.description.length + wipe.name.length) / 4),
      tool_tokens: Object.fromEntries(
        [hydrate, search, refund, wipe].map((tool) => [
          tool.name,
          Math.floor((tool.description.length + tool.name.length) / 4),
        ]),
      ),
      warnings: [],
      intent: { label: "action", matched_tool_keywords: ["refund_order"] },
      model: "gpt-4.1-mini",
      agent: "support-bot",
      config_version: pipeline.configVersion,
      palette_identity: paletteIdentity(["hydrate_context", "search_orders", "refund_order"]),
    });
  });

  it("fills tool_tokens for every named offered tool with the estimate dropped_tokens sums", async () => {
    const twin = { name: "search_orders", description: "A second, longer search_orders tool." };
    const { event } = await routeTurn({
      mode: "observe",
      pipeline: defaultPipeline({ ...config, turn: { allowedNames: ["search_orders"] } }),
      tools: [...tools, twin],
      meta: { ...meta, role: "support" },
    });
    const sizes = event?.tool_tokens ?? {};
    // Unnamed tools have no entry; of two tools sharing a name, the first one's size.
    expect(Object.keys(sizes)).toEqual([
      "hydrate_context",
      "search_orders",
      "refund_order",
      "wipe_account",
    ]);
    expect(sizes.search_orders).toBe(estimateDroppedTokens([search]));
    const dropped = (event?.offered ?? []).filter((name) => !event?.selected.includes(name));
    expect(dropped).toEqual(["refund_order", "wipe_account"]);
    // Lazy routing keeps the unnamed tool (no name to gate) and the twin (an allowed name).
    expect(event?.dropped_tokens).toBe((sizes.refund_order ?? 0) + (sizes.wipe_account ?? 0));
  });

  it("gives a tool named __proto__ an entry of its own", async () => {
    const odd = { name: "__proto__", description: "12345678" };
    const { event } = await routeTurn({
      mode: "observe",
      pipeline: new SelectionPipeline([]),
      tools: [odd],
      meta,
    });
    const sizes = event?.tool_tokens ?? {};
    expect(Object.keys(sizes)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(sizes)).toBe(Object.prototype);
    expect(JSON.stringify(sizes)).toBe('{"__proto__":4}');
  });

  it("writes the trace in snake_case", async () => {
    const { event } = await routeTurn({
      mode: "observe",
      pipeline: defaultPipeline(config),
      tools,
      context: { state: { forced_tool_choice: "wipe_account" } },
      meta,
    });
    const palette = event?.trace.find((record) => record.stage === "role_palette");
    expect(palette).toEqual({
      stage: "role_palette",
      action: "select",
      kept: ["search_orders", "refund_order"],
      dropped: ["hydrate_context", "wipe_account"],
      added: [],
      reinstated: ["wipe_account"],
      forced_choice: "wipe_account",
      detail: 'palette for role "support"',
      degraded: false,
    });
    expect(event?.warnings).toEqual([
      {
        code: "forced_reinstated",
        stage: "role_palette",
        detail: "forced tool wipe_account was not offered after role_palette; put back",
      },
    ]);
    expect(event?.palette_identity).toBe(
      paletteIdentity(
        ["hydrate_context", "search_orders", "refund_order", "wipe_account"],
        "wipe_account",
      ),
    );
  });

  it("generates an event id and a timestamp when absent, and leaves out optional fields", async () => {
    const { event } = await routeTurn({
      mode: "observe",
      pipeline: new SelectionPipeline([]),
      tools,
      meta: { runId: "run-2", iteration: 0, role: "action" },
    });
    expect(event?.event_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(event?.timestamp ?? ""))).toBe(false);
    expect(event).not.toHaveProperty("tenant_id");
    expect(event).not.toHaveProperty("intent");
    expect(event).not.toHaveProperty("model");
    expect(event?.config_version).toBeNull();
    expect(event?.palette_identity).toBe(paletteIdentity(event?.offered ?? []));
  });

  it("uses meta.configVersion over the pipeline's and accepts a Date timestamp", async () => {
    const { event } = await routeTurn({
      mode: "observe",
      pipeline: defaultPipeline(config),
      tools,
      meta: { ...meta, configVersion: "cfg_override", timestamp: new Date("2026-02-01T00:00:00Z") },
    });
    expect(event?.config_version).toBe("cfg_override");
    expect(event?.timestamp).toBe("2026-02-01T00:00:00.000Z");
  });

  it("reports stage errors as warnings and truncates long details to the wire limit", async () => {
    const broken = {
      name: "broken",
      protectsForced: true,
      apply: (): StageOutcome => {
        throw new Error("x".repeat(5_000));
      },
    };
    const { event } = await routeTurn({
      mode: "observe",
      pipeline: new SelectionPipeline([broken]),
      tools,
      meta,
    });
    expect(event?.trace[0]?.action).toBe("error");
    expect(event?.trace[0]?.detail.length).toBe(2_000);
    expect(event?.warnings[0]?.code).toBe("stage_error");
    expect(toolRoutingDecisionSchema.safeParse(event).success).toBe(true);
  });

  it("resolves the palette for meta.role unless the context names a role", async () => {
    const paletteAction = async (context: { role?: string }) => {
      const { event } = await routeTurn({
        mode: "enforce",
        pipeline: defaultPipeline(config),
        tools,
        context,
        meta,
      });
      expect(event?.role).toBe("support");
      return event?.trace.find((record) => record.stage === "role_palette")?.action;
    };
    expect(await paletteAction({})).toBe("select");
    // "billing" is unmapped, so the palette abstains.
    expect(await paletteAction({ role: "billing" })).toBe("abstain");
  });

  it("throws when the event would not be valid (e.g. an empty run id)", async () => {
    await expect(
      routeTurn({
        mode: "observe",
        pipeline: defaultPipeline(config),
        tools,
        meta: { ...meta, runId: "" },
      }),
    ).rejects.toThrow();
  });

  it("does not call StageOutcome-returning stages in off mode", async () => {
    const apply = vi.fn(() => StageOutcome.abstain());
    await routeTurn({
      mode: "off",
      pipeline: new SelectionPipeline([{ name: "s", protectsForced: true, apply }]),
      tools,
      meta,
    });
    expect(apply).not.toHaveBeenCalled();
  });
});
