import { describe, expect, it, vi } from "vitest";
import { ContractViolationError, ForcedToolUnavailable } from "./errors";
import { StageOutcome } from "./outcome";
import { SelectionPipeline } from "./pipeline";
import type { SelectionStage, StageContext } from "./stage";
import { AllowlistStage } from "./stages/allowlist";
import { ForcedChoiceStage } from "./stages/forced-choice";
import { IntentRoutingStage } from "./stages/intent-routing";
import { RolePaletteStage, staticRolePaletteResolver } from "./stages/role-palette";
import type { SelectionState, Tool } from "./types";

const hydrate = { name: "hydrate_context", description: "Load context." };
const search = { name: "search_orders", description: "Search orders." };
const refund = { name: "refund_order", description: "Refund an order." };
const weather = { name: "get_weather", description: "Weather." };
const tools = [hydrate, search, refund, weather];

/** A stage answering with a fixed function of the candidates. */
function stage(
  name: string,
  apply: (tools: readonly Tool[], ctx: StageContext) => StageOutcome | Promise<StageOutcome>,
  protectsForced = true,
): SelectionStage {
  return { name, protectsForced, apply };
}

const keepOnly = (name: string, ...names: string[]) =>
  stage(name, (current) =>
    StageOutcome.select(
      current.filter((tool) => names.includes((tool as { name: string }).name)),
      `keep ${names.join(",")}`,
    ),
  );
const forcing = (choice: string | null) => stage("force", () => StageOutcome.force(choice, "f"));

describe("StageOutcome", () => {
  it("distinguishes abstain (null tools) from an empty selection", () => {
    const abstain = StageOutcome.abstain("no policy");
    const empty = StageOutcome.select([], "nothing survived");
    expect(abstain.tools).toBeNull();
    expect(empty.tools).toEqual([]);
    expect(StageOutcome.abstain("x", { degraded: true }).degraded).toBe(true);
    const forced = StageOutcome.force("search_orders", "why", { degraded: true });
    expect(forced).toMatchObject({
      tools: null,
      forcedChoice: "search_orders",
      setsForcedChoice: true,
      degraded: true,
      detail: "why",
    });
  });
});

describe("SelectionPipeline: abstain versus empty", () => {
  it("leaves the candidates alone when every stage abstains", async () => {
    const pipeline = new SelectionPipeline([stage("a", () => StageOutcome.abstain("no"))]);
    const result = await pipeline.select(tools);
    expect(result.tools).toEqual(tools);
    expect(result.trace[0]).toEqual({
      stage: "a",
      action: "abstain",
      kept: namesOfAll(),
      dropped: [],
      added: [],
      reinstated: [],
      forcedChoice: null,
      detail: "no",
      degraded: false,
    });
  });

  it("returns [] when a stage selects nothing (policy applied, nothing survived)", async () => {
    const pipeline = new SelectionPipeline([stage("none", () => StageOutcome.select([], "x"))]);
    const result = await pipeline.select(tools);
    expect(result.tools).toEqual([]);
    expect(result.trace[0]?.action).toBe("select");
    expect(result.trace[0]?.dropped).toEqual(namesOfAll());
  });
});

function namesOfAll(): string[] {
  return tools.map((tool) => tool.name);
}

describe("SelectionPipeline: identity and order", () => {
  it("returns the very input objects in input order, whatever order a stage returns", async () => {
    const reversing = stage("reverse", (current) =>
      StageOutcome.select([...current].reverse().slice(0, 3), "r"),
    );
    const result = await new SelectionPipeline([reversing]).select(tools);
    expect(result.tools).toHaveLength(3);
    result.tools.forEach((tool, index) => {
      expect(tool).toBe(tools[index + 1]);
    });
  });

  it("ignores tools a stage returns that were not offered (the core never authors tools)", async () => {
    const authoring = stage("author", (current) =>
      StageOutcome.select([...current, { name: "invented" }], "adds one"),
    );
    const result = await new SelectionPipeline([authoring]).select(tools);
    expect(result.tools).toEqual(tools);
    expect(result.trace[0]?.added).toEqual([]);
    expect(result.trace[0]?.detail).toContain("ignored 1 tool(s) that were not offered");
  });

  it("does not modify the input array", async () => {
    const input = [...tools];
    await new SelectionPipeline([keepOnly("k", "search_orders")]).select(input);
    expect(input).toEqual(tools);
  });

  it("records kept, dropped and added names per stage, skipping unnamed tools", async () => {
    const unnamed = { description: "no name" };
    const pipeline = new SelectionPipeline([
      keepOnly("narrow", "search_orders"),
      new AllowlistStage({ alwaysInclude: ["hydrate_context"] }),
    ]);
    const result = await pipeline.select([unnamed, ...tools]);
    expect(result.trace[0]).toMatchObject({
      kept: ["search_orders"],
      dropped: ["hydrate_context", "refund_order", "get_weather"],
      added: [],
    });
    expect(result.trace[1]).toMatchObject({
      kept: ["search_orders"],
      dropped: [],
      added: ["hydrate_context"],
    });
    expect(result.tools).toEqual([hydrate, search]);
  });
});

describe("SelectionPipeline: a throwing stage is contained", () => {
  it("records the stage as error, degraded, treats it as abstain and warns stage_error", async () => {
    const broken = stage("broken", () => {
      throw new Error("boom");
    });
    const after = vi.fn((current: readonly Tool[]) => StageOutcome.select(current, "after"));
    const pipeline = new SelectionPipeline([
      keepOnly("narrow", "search_orders", "refund_order"),
      broken,
      stage("after", after),
    ]);
    const result = await pipeline.select(tools);
    expect(result.tools).toEqual([search, refund]);
    expect(result.trace[1]).toEqual({
      stage: "broken",
      action: "error",
      kept: ["search_orders", "refund_order"],
      dropped: [],
      added: [],
      reinstated: [],
      forcedChoice: null,
      detail: "Error: boom",
      degraded: true,
    });
    expect(result.warnings).toEqual([
      { code: "stage_error", stage: "broken", detail: "Error: boom" },
    ]);
    expect(after).toHaveBeenCalledOnce();
  });

  it("contains a rejected promise and an answer that is not a StageOutcome", async () => {
    const rejecting = stage("rejecting", () => Promise.reject(new Error("late")));
    const wrong: SelectionStage = {
      name: "wrong",
      protectsForced: true,
      apply: () => ({ tools: "all" }) as unknown as StageOutcome,
    };
    const result = await new SelectionPipeline([rejecting, wrong]).select(tools);
    expect(result.tools).toEqual(tools);
    expect(result.trace.map((record) => record.action)).toEqual(["error", "error"]);
    expect(result.warnings.map((warning) => warning.stage)).toEqual(["rejecting", "wrong"]);
  });

  it("records a palette resolver that throws as a stage error", async () => {
    const resolver = {
      resolve: () => {
        throw new Error("no tenant");
      },
    };
    const result = await new SelectionPipeline([new RolePaletteStage({ resolver })]).select(tools);
    expect(result.tools).toEqual(tools);
    expect(result.trace[0]?.action).toBe("error");
    expect(result.warnings[0]?.code).toBe("stage_error");
  });
});

describe("SelectionPipeline: empty palette", () => {
  it("turns a [] palette into an abstention with an empty_palette warning", async () => {
    const resolver = staticRolePaletteResolver({ action: [] });
    const pipeline = new SelectionPipeline([new RolePaletteStage({ resolver })]);
    const result = await pipeline.select(tools, { role: "action" });
    expect(result.tools).toEqual(tools);
    expect(result.trace[0]).toMatchObject({ action: "abstain", degraded: true });
    expect(result.warnings).toEqual([
      { code: "empty_palette", stage: "role_palette", detail: expect.any(String) },
    ]);
  });
});

describe("SelectionPipeline: forced choice and the protection rule", () => {
  it("records a force without touching the candidates", async () => {
    const result = await new SelectionPipeline([forcing("refund_order")]).select(tools);
    expect(result.forcedChoice).toBe("refund_order");
    expect(result.tools).toEqual(tools);
    expect(result.trace[0]).toMatchObject({ action: "force", forcedChoice: "refund_order" });
  });

  it("reinstates a forced tool a protecting stage dropped, records it, warns once", async () => {
    const pipeline = new SelectionPipeline([
      forcing("refund_order"),
      keepOnly("palette", "search_orders", "get_weather"),
      keepOnly("policy", "search_orders"),
    ]);
    const result = await pipeline.select(tools);
    expect(result.tools).toEqual([search, refund]);
    expect(result.trace[1]).toMatchObject({
      kept: ["search_orders", "get_weather"],
      dropped: ["hydrate_context", "refund_order"],
      reinstated: ["refund_order"],
      forcedChoice: "refund_order",
    });
    expect(result.trace[2]).toMatchObject({
      dropped: ["refund_order", "get_weather"],
      reinstated: ["refund_order"],
    });
    const reinstatements = result.warnings.filter((w) => w.code === "forced_reinstated");
    expect(reinstatements).toHaveLength(1);
    expect(reinstatements[0]?.stage).toBe("palette");
  });

  it("reinstates a forced tool narrowed away before the force was resolved", async () => {
    const pipeline = new SelectionPipeline([
      new IntentRoutingStage({ verdict: { label: "knowledge" } }),
      new ForcedChoiceStage(),
    ]);
    const result = await pipeline.select(tools, { state: { forced_tool_choice: "refund_order" } });
    expect(result.tools).toEqual([hydrate, refund]);
    expect(result.trace[1]).toMatchObject({ action: "force", reinstated: ["refund_order"] });
    expect(result.warnings).toHaveLength(1);
  });

  it("does not reinstate after a stage that does not protect the forced tool, and raises", async () => {
    const hardFilter = stage(
      "security",
      (current) =>
        StageOutcome.select(
          current.filter((tool) => tool !== refund),
          "deny refund",
        ),
      false,
    );
    const pipeline = new SelectionPipeline([
      forcing("refund_order"),
      hardFilter,
      new AllowlistStage({ alwaysInclude: ["hydrate_context"] }),
    ]);
    const error = await pipeline.select(tools).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ForcedToolUnavailable);
    expect(error).toMatchObject({ toolName: "refund_order", reason: "dropped" });
  });

  it("raises ForcedToolUnavailable, a ContractViolationError, for a forced tool that does not exist", async () => {
    const pipeline = new SelectionPipeline([forcing("launch_rockets")]);
    const error = await pipeline.select(tools).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ForcedToolUnavailable);
    expect(error).toBeInstanceOf(ContractViolationError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: "ForcedToolUnavailable",
      toolName: "launch_rockets",
      reason: "not_offered",
    });
  });

  it("raises before returning even when a stamp forces the missing tool", async () => {
    const pipeline = new SelectionPipeline([new ForcedChoiceStage()]);
    await expect(
      pipeline.select(tools, { state: { forced_tool_choice: "ghost" } }),
    ).rejects.toBeInstanceOf(ForcedToolUnavailable);
  });

  it("lets a later stage clear the force with force(null)", async () => {
    const result = await new SelectionPipeline([forcing("refund_order"), forcing(null)]).select(
      tools,
    );
    expect(result.forcedChoice).toBeNull();
  });

  it("passes the forced choice resolved so far to later stages", async () => {
    const seen: (string | null)[] = [];
    const spy = stage("spy", (_current, ctx) => {
      seen.push(ctx.forcedChoice);
      return StageOutcome.abstain();
    });
    await new SelectionPipeline([spy, forcing("search_orders"), spy]).select(tools);
    expect(seen).toEqual([null, "search_orders"]);
  });
});

describe("SelectionPipeline: context", () => {
  it("passes state by identity and the original input tools to every stage", async () => {
    const state: SelectionState = { tenant: "acme" };
    const contexts: StageContext[] = [];
    const spy = stage("spy", (_current, ctx) => {
      contexts.push(ctx);
      return StageOutcome.select([search], "narrow");
    });
    await new SelectionPipeline([spy, spy]).select(tools, { state, role: "support", query: "q" });
    expect(contexts).toHaveLength(2);
    for (const ctx of contexts) {
      expect(ctx.state).toBe(state);
      expect(ctx.inputTools).toEqual(tools);
      expect(ctx.role).toBe("support");
      expect(ctx.query).toBe("q");
    }
  });

  it("reads messages from context.messages, else from state.messages", async () => {
    const fromState = [{ type: "human", content: "from state" }];
    const fromContext = [{ type: "human" as const, content: "from context" }];
    const seen: (readonly unknown[])[] = [];
    const spy = stage("spy", (_current, ctx) => {
      seen.push(ctx.messages);
      return StageOutcome.abstain();
    });
    const pipeline = new SelectionPipeline([spy]);
    await pipeline.select(tools, { state: { messages: fromState }, messages: fromContext });
    await pipeline.select(tools, { state: { messages: fromState }, messages: [] });
    await pipeline.select(tools, {});
    expect(seen).toEqual([fromContext, fromState, []]);
  });

  it("runs the stages in the order given", async () => {
    const order: string[] = [];
    const named = (name: string) =>
      stage(name, () => {
        order.push(name);
        return StageOutcome.abstain();
      });
    const pipeline = new SelectionPipeline([named("one"), named("two"), named("three")]);
    await pipeline.select(tools);
    expect(order).toEqual(["one", "two", "three"]);
    expect(pipeline.stages.map((s) => s.name)).toEqual(["one", "two", "three"]);
  });
});

describe("SelectionPipeline: always-include survives role narrowing", () => {
  it("re-adds an always-include tool the role palette dropped", async () => {
    const pipeline = new SelectionPipeline([
      new RolePaletteStage({ resolver: staticRolePaletteResolver({ support: ["search_orders"] }) }),
      new AllowlistStage({ alwaysInclude: ["hydrate_context"] }),
    ]);
    const result = await pipeline.select(tools, { role: "support" });
    expect(result.tools).toEqual([hydrate, search]);
    expect(result.trace[1]?.added).toEqual(["hydrate_context"]);
  });
});
