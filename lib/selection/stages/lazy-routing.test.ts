import { describe, expect, it } from "vitest";
import { LazyRoutingStage } from "./lazy-routing";

const a = { name: "a" };
const b = { name: "b" };
const c = { name: "c" };
const unnamed = { description: "no name" };

describe("LazyRoutingStage", () => {
  it("abstains when no routing ran (allowedNames undefined or null)", () => {
    expect(new LazyRoutingStage().apply([a, b]).tools).toBeNull();
    expect(new LazyRoutingStage({ allowedNames: null }).apply([a, b]).tools).toBeNull();
  });

  it("narrows to the allowed names, keeping input order and identity", () => {
    const outcome = new LazyRoutingStage({ allowedNames: ["c", "a"] }).apply([a, b, c]);
    expect(outcome.tools).toEqual([a, c]);
    expect(outcome.tools?.[0]).toBe(a);
  });

  it("keeps unnamed tools when it narrows", () => {
    const outcome = new LazyRoutingStage({ allowedNames: ["b"] }).apply([unnamed, a, b]);
    expect(outcome.tools).toEqual([unnamed, b]);
  });

  it("abstains rather than empty the palette when routing matched no offered tool", () => {
    expect(new LazyRoutingStage({ allowedNames: [] }).apply([a, b]).tools).toBeNull();
    expect(new LazyRoutingStage({ allowedNames: ["zzz"] }).apply([a, b]).tools).toBeNull();
  });
});
