import { describe, expect, it, vi } from "vitest";
import type { StageContext } from "../stage";
import type { SelectionState, Tool } from "../types";
import { RolePaletteStage, staticRolePaletteResolver } from "./role-palette";

const search = { name: "search_orders" };
const refund = { name: "refund_order" };
const weather = { name: "get_weather" };
const tools = [search, refund, weather];

function context(state: SelectionState = {}, role = "action"): StageContext {
  return { state, messages: [], role, query: "", inputTools: tools, forcedChoice: null };
}

const returning = (palette: readonly Tool[] | null) => ({ resolve: () => palette });

describe("RolePaletteStage: three answers, three meanings", () => {
  it("abstains without a resolver", async () => {
    expect((await new RolePaletteStage().apply(tools, context())).tools).toBeNull();
  });

  it("abstains when the resolver returns null (no policy)", async () => {
    const outcome = await new RolePaletteStage({ resolver: returning(null) }).apply(
      tools,
      context(),
    );
    expect(outcome.tools).toBeNull();
    expect(outcome.warning).toBeNull();
  });

  it("narrows to a non-empty palette, in input order with the input objects", async () => {
    const stage = new RolePaletteStage({ resolver: returning([weather, search]) });
    const outcome = await stage.apply(tools, context());
    expect(outcome.tools).toEqual([search, weather]);
    expect(outcome.tools?.[0]).toBe(search);
  });

  it("never widens: tools the resolver returns that were not offered are not honoured", async () => {
    const impostor = { name: "search_orders" };
    const foreign = { name: "delete_account" };
    const stage = new RolePaletteStage({ resolver: returning([refund, foreign, impostor]) });
    const outcome = await stage.apply(tools, context());
    expect(outcome.tools).toEqual([refund]);
    expect(outcome.tools?.[0]).toBe(refund);
    expect(outcome.detail).toContain("ignored 2 tool(s) that were not offered");
  });

  it("abstains with an empty_palette warning when the resolver returns []", async () => {
    const outcome = await new RolePaletteStage({ resolver: returning([]) }).apply(tools, context());
    expect(outcome.tools).toBeNull();
    expect(outcome.warning).toBe("empty_palette");
    expect(outcome.degraded).toBe(true);
  });

  it("abstains with an empty_palette warning when none of the returned tools was offered", async () => {
    const stage = new RolePaletteStage({ resolver: returning([{ name: "other" }]) });
    const outcome = await stage.apply(tools, context());
    expect(outcome.tools).toBeNull();
    expect(outcome.warning).toBe("empty_palette");
  });

  it("passes the state by identity, the role and the current candidates to the resolver", async () => {
    const state: SelectionState = { tenant: "acme" };
    const resolve = vi.fn(
      (_state: SelectionState, _role: string, _all: readonly Tool[]): readonly Tool[] | null =>
        null,
    );
    const candidates = [search, refund];
    await new RolePaletteStage({ resolver: { resolve } }).apply(
      candidates,
      context(state, "support"),
    );
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(resolve.mock.calls[0]?.[0]).toBe(state);
    expect(resolve.mock.calls[0]?.[1]).toBe("support");
    expect(resolve.mock.calls[0]?.[2]).toEqual(candidates);
  });

  it("resolves for its configured role over the context's role", async () => {
    const resolver = staticRolePaletteResolver({ support: ["refund_order"] });
    const stage = new RolePaletteStage({ resolver, role: "support" });
    expect((await stage.apply(tools, context({}, "action"))).tools).toEqual([refund]);
  });
});

describe("staticRolePaletteResolver", () => {
  const resolver = staticRolePaletteResolver({
    action: ["refund_order", "search_orders", "not_registered"],
    empty: [],
    abstaining: null,
  });

  it("returns null for an unmapped role and for a role mapped to null", async () => {
    expect(await resolver.resolve({}, "reflection", tools)).toBeNull();
    expect(await resolver.resolve({}, "constructor", tools)).toBeNull();
    expect(await resolver.resolve({}, "abstaining", tools)).toBeNull();
  });

  it("returns the offered tools the role lists, in offered order", async () => {
    const palette = await resolver.resolve({}, "action", tools);
    expect(palette).toEqual([search, refund]);
    expect(palette?.[0]).toBe(search);
  });

  it("returns [] for a role mapped to no tools (the stage then warns)", async () => {
    expect(await resolver.resolve({}, "empty", tools)).toEqual([]);
  });

  it("abstains for every role with an empty map", async () => {
    expect(await staticRolePaletteResolver({}).resolve({}, "action", tools)).toBeNull();
  });
});

describe("staticRolePaletteResolver and unnamed tools", () => {
  const unnamed = { description: "no name" };
  const resolver = staticRolePaletteResolver({ action: ["refund_order"] });

  it("keeps unnamed tools alongside the listed ones", async () => {
    expect(await resolver.resolve({}, "action", [unnamed, search, refund])).toEqual([
      unnamed,
      refund,
    ]);
  });

  it("returns [] when none of the listed names is offered, even with unnamed tools", async () => {
    expect(await resolver.resolve({}, "action", [unnamed, search])).toEqual([]);
  });
});
