import { describe, expect, it } from "vitest";
import { parseSearchParams } from "@/lib/schemas/dashboard";
import { rolloutsSearchSchema } from "@/lib/schemas/rollouts";
import { toolsSearchSchema } from "@/lib/schemas/tools";
import { harmfulDropExampleHref, rolloutsHref, toolExamplesHref, toolsHref } from "./url";

describe("rollouts URL state", () => {
  it("parses defaults and falls back on bad values", () => {
    expect(parseSearchParams(rolloutsSearchSchema, {})).toMatchObject({
      range: "7d",
      threshold: 1,
    });
    const bad = parseSearchParams(rolloutsSearchSchema, {
      range: "9y",
      threshold: "-3",
      compareMode: "sideways",
    });
    expect(bad).toMatchObject({ range: "7d", threshold: 1, compareMode: undefined });
    expect(parseSearchParams(rolloutsSearchSchema, { threshold: "0.5" }).threshold).toBe(0.5);
  });

  it("round-trips through rolloutsHref, leaving defaults out", () => {
    const state = parseSearchParams(rolloutsSearchSchema, {
      tenant: "acme",
      threshold: "0.5",
      before: "(none)",
      after: "v2",
    });
    const href = rolloutsHref(state);
    expect(href).toBe("/rollouts?tenant=acme&threshold=0.5&before=%28none%29&after=v2");
    const parsed = parseSearchParams(
      rolloutsSearchSchema,
      new URLSearchParams(href.slice("/rollouts?".length)),
    );
    expect(parsed).toEqual(state);
    expect(rolloutsHref(parseSearchParams(rolloutsSearchSchema, {}))).toBe("/rollouts");
  });
});

describe("tools URL state", () => {
  it("keeps sort, direction and the selected tool", () => {
    const state = parseSearchParams(toolsSearchSchema, {
      sort: "dropped",
      dir: "asc",
      mode: "observe",
    });
    expect(toolsHref(state, { tool: "refund_order" })).toBe(
      "/tools?mode=observe&sort=dropped&dir=asc&tool=refund_order",
    );
    expect(parseSearchParams(toolsSearchSchema, { sort: "nope" }).sort).toBe("harmfulDrops");
  });

  it("links a rollout window to the tool's examples", () => {
    const period = { from: new Date("2026-03-01T00:00:00Z"), to: new Date("2026-03-02T00:00:00Z") };
    expect(
      toolExamplesHref(
        { range: "7d", tenant: "acme", role: undefined },
        period,
        "refund_order",
        "observe",
      ),
    ).toBe("/tools?range=7d&tenant=acme&mode=observe&tool=refund_order#harmful-examples");
    expect(toolExamplesHref({ range: "custom", tenant: undefined, role: "r" }, period, "x")).toBe(
      "/tools?range=custom&from=2026-03-01T00%3A00%3A00.000Z&to=2026-03-02T00%3A00%3A00.000Z&role=r&tool=x#harmful-examples",
    );
  });
});

describe("harmfulDropExampleHref", () => {
  it("opens the iteration in the run's issues-only trace", () => {
    expect(
      harmfulDropExampleHref({
        tool: "refund_order",
        tenantId: "acme",
        runId: "run 1/2",
        iteration: 3,
        ts: "2026-03-02T07:12:00.000Z",
      }),
    ).toBe("/runs/run%201%2F2?tenant=acme&issues=1#iteration-3");
  });
});

describe("renamed parameters", () => {
  it("reads an old link's cmode as compareMode and writes compareMode", () => {
    const old = parseSearchParams(rolloutsSearchSchema, new URLSearchParams("cmode=enforce"));
    expect(old.compareMode).toBe("enforce");
    expect(rolloutsHref(old)).toBe("/rollouts?compareMode=enforce");
    expect(parseSearchParams(rolloutsSearchSchema, { cmode: "observe" }).compareMode).toBe(
      "observe",
    );
    const both = parseSearchParams(
      rolloutsSearchSchema,
      new URLSearchParams("cmode=enforce&compareMode=observe"),
    );
    expect(both.compareMode).toBe("observe");
  });
});
