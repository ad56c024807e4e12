import { describe, expect, it } from "vitest";
import { BREAKDOWN_SORT_DIRECTIONS, sortDirectionOf } from "@/lib/schemas/dashboard";
import { prepareBreakdown } from "./breakdown";
import { type BreakdownRow, ZERO_TOTALS } from "./types";

const rows: BreakdownRow[] = [
  {
    ...ZERO_TOTALS,
    tenant: "b",
    role: "action",
    decisions: 10,
    offeredTools: 50,
    selectedTools: 20,
  },
  {
    ...ZERO_TOTALS,
    tenant: "a",
    role: "reasoning",
    decisions: 10,
    offeredTools: 100,
    selectedTools: 10,
  },
  {
    ...ZERO_TOTALS,
    tenant: "a",
    role: "action",
    decisions: 30,
    offeredTools: 30,
    selectedTools: 30,
    harmfulDrops: 2,
  },
];

describe("prepareBreakdown", () => {
  it("derives mean tools offered and selected per decision", () => {
    const lines = prepareBreakdown(rows, "decisions");
    expect(lines[0]).toMatchObject({
      tenant: "a",
      role: "action",
      meanOffered: 1,
      meanSelected: 1,
    });
    expect(lines.find((l) => l.role === "reasoning")?.meanOffered).toBe(10);
  });

  it("sorts by the chosen column with tenant, role as tie-breakers", () => {
    expect(prepareBreakdown(rows, "decisions", "desc").map((l) => `${l.tenant}/${l.role}`)).toEqual(
      ["a/action", "a/reasoning", "b/action"],
    );
    expect(prepareBreakdown(rows, "decisions", "asc").map((l) => `${l.tenant}/${l.role}`)).toEqual([
      "a/reasoning",
      "b/action",
      "a/action",
    ]);
    expect(prepareBreakdown(rows, "meanOffered").map((l) => l.meanOffered)).toEqual([10, 5, 1]);
    expect(prepareBreakdown(rows, "tenant").map((l) => `${l.tenant}/${l.role}`)).toEqual([
      "a/action",
      "a/reasoning",
      "b/action",
    ]);
    expect(prepareBreakdown(rows, "role", "desc").map((l) => l.role)).toEqual([
      "reasoning",
      "action",
      "action",
    ]);
  });

  it("sorts text A→Z and numbers largest first by default", () => {
    expect(sortDirectionOf({ sort: "tenant" }, BREAKDOWN_SORT_DIRECTIONS)).toBe("asc");
    expect(sortDirectionOf({ sort: "harmfulDrops" }, BREAKDOWN_SORT_DIRECTIONS)).toBe("desc");
    expect(prepareBreakdown(rows, "harmfulDrops")).toEqual(
      prepareBreakdown(rows, "harmfulDrops", "desc"),
    );
  });

  it("does not modify its input", () => {
    const copy = structuredClone(rows);
    prepareBreakdown(rows, "tenant");
    expect(rows).toEqual(copy);
  });
});
