import { describe, expect, it } from "vitest";
import { toCsv } from "@/lib/dashboard/csv";
import { prepareToolLines, sumToolUsagePerTool, toolsCsvColumns } from "./tool-lines";
import type { ToolUsageRow } from "./types";

const row = (tool: string, values: Partial<ToolUsageRow>): ToolUsageRow => ({
  tool,
  offered: 0,
  selected: 0,
  dropped: 0,
  called: 0,
  harmfulDrops: 0,
  droppedTokens: 0,
  ...values,
});

const rows = [
  row("search_docs", { offered: 90, selected: 90, called: 60 }),
  row("refund_order", {
    offered: 90,
    selected: 30,
    dropped: 60,
    harmfulDrops: 3,
    droppedTokens: 3_547.5,
  }),
  row("escalate_to_human", {
    offered: 90,
    selected: 30,
    dropped: 60,
    harmfulDrops: 1,
    droppedTokens: 3_547.5,
  }),
  row("=cmd", { offered: 0 }),
];

describe("prepareToolLines", () => {
  it("sorts by harmful drops, largest first, ties by name", () => {
    const lines = prepareToolLines(rows, "harmfulDrops");
    expect(lines.map((line) => line.tool)).toEqual([
      "refund_order",
      "escalate_to_human",
      "=cmd",
      "search_docs",
    ]);
  });

  it("sorts by name A→Z by default and in either direction", () => {
    expect(prepareToolLines(rows, "tool").map((line) => line.tool)[0]).toBe("=cmd");
    expect(prepareToolLines(rows, "tool", "desc").map((line) => line.tool)[0]).toBe("search_docs");
    expect(prepareToolLines(rows, "dropped", "asc").map((line) => line.tool)).toEqual([
      "=cmd",
      "search_docs",
      "escalate_to_human",
      "refund_order",
    ]);
  });

  it("adds the drop rate, empty for a tool never offered", () => {
    const lines = prepareToolLines(rows, "tool");
    expect(lines.find((line) => line.tool === "refund_order")?.dropRate).toBeCloseTo(2 / 3, 12);
    expect(lines.find((line) => line.tool === "=cmd")?.dropRate).toBeNull();
  });
});

describe("toolsCsvColumns", () => {
  it("writes the table with whole token estimates and neutralised formulas", () => {
    const csv = toCsv(toolsCsvColumns, prepareToolLines(rows.slice(1), "harmfulDrops"));
    expect(csv.split("\r\n")).toEqual([
      "tool,offered,selected,dropped,called,harmful_drops,estimated_tokens_saved",
      "refund_order,90,30,60,0,3,3548",
      "escalate_to_human,90,30,60,0,1,3548",
      "'=cmd,0,0,0,0,0,0",
      "",
    ]);
  });
});

describe("sumToolUsagePerTool", () => {
  it("adds every tenant's sums up per tool", () => {
    const tenantTool = (
      tool: string,
      offered: number,
      harmfulDrops: number,
      droppedTokens: number,
    ) => ({
      tool,
      offered,
      selected: offered - 2,
      dropped: 2,
      calls: 1,
      harmfulDrops,
      droppedTokens,
    });
    const lines = sumToolUsagePerTool([
      tenantTool("search", 10, 0, 120),
      tenantTool("refund", 4, 1, 30.5),
      tenantTool("search", 6, 2, 80),
    ]);
    expect(lines).toEqual([
      {
        tool: "search",
        offered: 16,
        selected: 12,
        dropped: 4,
        called: 2,
        harmfulDrops: 2,
        droppedTokens: 200,
      },
      {
        tool: "refund",
        offered: 4,
        selected: 2,
        dropped: 2,
        called: 1,
        harmfulDrops: 1,
        droppedTokens: 30.5,
      },
    ]);
  });
});
