/**
 * The tools table: per tool, how often it was offered, kept, dropped, called and harmfully
 * dropped, and the tokens dropping it saved; sorted as the URL asks.
 */
import type { CsvColumn } from "@/lib/dashboard/csv";
import type { SortDirection } from "@/lib/schemas/dashboard";
import { TOOL_SORT_DIRECTIONS, type ToolSortKey } from "@/lib/schemas/tools";
import { compareCodeUnits } from "@/lib/text-order";
import type { ContextTaxTenantToolRow, ToolUsageRow } from "./types";

export interface ToolLine extends ToolUsageRow {
  /** dropped / offered, null when never offered. */
  dropRate: number | null;
}

/** The tools table's measures that the per-(tenant, tool) rows carry under the same name. */
const SUMMED_ZERO = { offered: 0, selected: 0, dropped: 0, harmfulDrops: 0, droppedTokens: 0 };
const SUMMED = Object.keys(SUMMED_ZERO) as (keyof typeof SUMMED_ZERO)[];

/**
 * The tools table's sums per tool, from the per-(tenant, tool) rows of the same window (whose
 * `calls` are the table's `called`).
 */
export function sumToolUsagePerTool(
  rows: readonly Pick<ContextTaxTenantToolRow, "tool" | "calls" | keyof typeof SUMMED_ZERO>[],
): ToolUsageRow[] {
  const byTool = new Map<string, ToolUsageRow>();
  for (const row of rows) {
    let line = byTool.get(row.tool);
    if (!line) {
      line = { tool: row.tool, called: 0, ...SUMMED_ZERO };
      byTool.set(row.tool, line);
    }
    line.called += row.calls;
    for (const key of SUMMED) line[key] += row[key];
  }
  return [...byTool.values()];
}

/** Adds the drop rate and sorts; ties fall back to the tool name so the order is stable. */
export function prepareToolLines(
  rows: readonly ToolUsageRow[],
  sort: ToolSortKey,
  dir: SortDirection = TOOL_SORT_DIRECTIONS[sort],
): ToolLine[] {
  const sign = dir === "asc" ? 1 : -1;
  return rows
    .map((row) => ({ ...row, dropRate: row.offered > 0 ? row.dropped / row.offered : null }))
    .sort((a, b) => {
      const primary = sort === "tool" ? compareCodeUnits(a.tool, b.tool) : a[sort] - b[sort];
      return sign * primary || compareCodeUnits(a.tool, b.tool);
    });
}

export const toolsCsvColumns: CsvColumn<ToolLine>[] = [
  { header: "tool", value: (row) => row.tool },
  { header: "offered", value: (row) => row.offered },
  { header: "selected", value: (row) => row.selected },
  { header: "dropped", value: (row) => row.dropped },
  { header: "called", value: (row) => row.called },
  { header: "harmful_drops", value: (row) => row.harmfulDrops },
  { header: "estimated_tokens_saved", value: (row) => Math.round(row.droppedTokens) },
];
