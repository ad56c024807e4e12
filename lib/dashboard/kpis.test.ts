import { describe, expect, it } from "vitest";
import { compareValues, formatTileCount, meanPerDecision, prepareKpiTiles } from "./kpis";
import { type MetricTotals, ZERO_TOTALS } from "./types";

const current: MetricTotals = {
  decisions: 200,
  droppedTokens: 12_345,
  offeredTools: 2_400,
  selectedTools: 900,
  reinstatements: 6,
  emptyPaletteWarnings: 3,
  stageErrors: 0,
  harmfulDrops: 4,
};
const previous: MetricTotals = {
  decisions: 100,
  droppedTokens: 12_345,
  offeredTools: 1_000,
  selectedTools: 500,
  reinstatements: 8,
  emptyPaletteWarnings: 0,
  stageErrors: 0,
  harmfulDrops: 2,
};

describe("compareValues", () => {
  it("reports absolute and relative change", () => {
    expect(compareValues(200, 100)).toEqual({
      absolute: 100,
      relative: 1,
      trend: "up",
      text: "+100 (+100.0%)",
    });
    expect(compareValues(6, 8)).toMatchObject({ absolute: -2, relative: -0.25, trend: "down" });
    expect(compareValues(6, 8).text).toBe("−2 (−25.0%)");
  });

  it("has no relative change against zero, and says so", () => {
    expect(compareValues(3, 0)).toMatchObject({ relative: null, trend: "up", text: "+3 (new)" });
    expect(compareValues(0, 0)).toMatchObject({ relative: null, trend: "flat", text: "no change" });
  });

  it("treats changes below the shown precision of a mean as flat", () => {
    expect(compareValues(2.51, 2.5, 1).trend).toBe("flat");
    expect(compareValues(2.7, 2.5, 1)).toMatchObject({ trend: "up", text: "+0.2 (+8.0%)" });
  });
});

describe("meanPerDecision", () => {
  it("is zero without decisions", () => {
    expect(meanPerDecision(10, 0)).toBe(0);
    expect(meanPerDecision(10, 4)).toBe(2.5);
  });
});

describe("prepareKpiTiles", () => {
  const tiles = prepareKpiTiles(current, previous);
  const tile = (id: string) => {
    const found = tiles.find((t) => t.id === id);
    if (!found) throw new Error(`no tile ${id}`);
    return found;
  };

  it("shows the exact sums, formatted", () => {
    expect(tiles.map((t) => t.id)).toEqual([
      "decisions",
      "dropped-tokens",
      "tools",
      "reinstatements",
      "empty-palette",
      "stage-errors",
      "harmful-drops",
    ]);
    expect(tile("decisions").display).toBe("200");
    expect(tile("dropped-tokens").display).toBe("12,345");
    expect(tile("dropped-tokens").changes[0]?.trend).toBe("flat");
    expect(tile("reinstatements").values).toEqual([6]);
  });

  it("shows mean offered → selected with a change for each", () => {
    const tools = tile("tools");
    expect(tools.display).toBe("12.0 → 4.5");
    expect(tools.previousDisplay).toBe("10.0 → 5.0");
    expect(tools.changes.map((c) => [c.label, c.trend])).toEqual([
      ["offered", "up"],
      ["selected", "down"],
    ]);
  });

  it("marks warnings and errors as bad when they rise", () => {
    expect(tile("empty-palette").sentiment).toBe("bad");
    expect(tile("empty-palette").changes[0]?.text).toBe("+3 (new)");
    expect(tile("decisions").sentiment).toBe("neutral");
  });

  it("shows counts from a million on compactly, with the exact value beside", () => {
    const large = prepareKpiTiles(
      { ...ZERO_TOTALS, decisions: 999_999, droppedTokens: 70_311_631 },
      ZERO_TOTALS,
    );
    const dropped = large.find((t) => t.id === "dropped-tokens");
    expect(dropped?.display).toBe("70.3M");
    expect(dropped?.exact).toBe("70,311,631");
    expect(dropped?.values).toEqual([70_311_631]);
    const decisions = large.find((t) => t.id === "decisions");
    expect(decisions?.display).toBe("999,999");
    expect(decisions?.exact).toBe("999,999");
  });

  it("formats tile counts at the compact threshold", () => {
    expect(formatTileCount(999_999)).toBe("999,999");
    expect(formatTileCount(1_000_000)).toBe("1M");
    expect(formatTileCount(1_234_567_890)).toBe("1.2B");
  });

  it("works on an empty period", () => {
    const empty = prepareKpiTiles(ZERO_TOTALS, ZERO_TOTALS);
    expect(empty.find((t) => t.id === "tools")?.display).toBe("0.0 → 0.0");
    expect(empty.every((t) => t.changes.every((c) => c.trend === "flat"))).toBe(true);
  });
});
