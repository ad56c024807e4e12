import { describe, expect, it } from "vitest";
import { ToolCatalog } from "../catalog";
import type { StageContext } from "../stage";
import type { Tool } from "../types";
import { AllowlistStage } from "./allowlist";

const hydrate = { name: "hydrate_context" };
const search = { name: "search_orders" };
const refund = { name: "refund_order" };
const input = [hydrate, search, refund];

function context(inputTools: readonly Tool[] = input): StageContext {
  return { state: {}, messages: [], role: "", query: "", inputTools, forcedChoice: null };
}

describe("AllowlistStage", () => {
  it("abstains with nothing mandated", () => {
    expect(new AllowlistStage().apply([search], context()).tools).toBeNull();
  });

  it("re-adds a mandated tool an earlier stage dropped, from the input tools", () => {
    const outcome = new AllowlistStage({ alwaysInclude: ["hydrate_context"] }).apply(
      [search],
      context(),
    );
    expect(outcome.tools).toContain(hydrate);
    expect(outcome.tools).toContain(search);
    expect(outcome.detail).toBe("re-added hydrate_context");
  });

  it("never fabricates a tool no input tool has", () => {
    const outcome = new AllowlistStage({ alwaysInclude: ["ghost"] }).apply([search], context());
    expect(outcome.tools).toEqual([search]);
    expect(outcome.detail).toContain("ignored, no such tool: ghost");
  });

  it("ignores a mandated name the catalogue does not know, even if a tool has it", () => {
    const catalog = new ToolCatalog([search, refund]);
    const outcome = new AllowlistStage({ alwaysInclude: ["hydrate_context"], catalog }).apply(
      [search],
      context(),
    );
    expect(outcome.tools).toEqual([search]);
  });

  it("re-adds a catalogued mandated tool", () => {
    const catalog = new ToolCatalog(input);
    const outcome = new AllowlistStage({ alwaysInclude: ["refund_order"], catalog }).apply(
      [search],
      context(),
    );
    expect(outcome.tools).toEqual([search, refund]);
  });
});
