/**
 * The overview's tenant × role breakdown: derived means and the order chosen in the URL.
 */
import {
  BREAKDOWN_SORT_DIRECTIONS,
  type BreakdownSortKey,
  type SortDirection,
} from "@/lib/schemas/dashboard";
import { meanPerDecision } from "./kpis";
import type { BreakdownRow } from "./types";

export interface BreakdownLine extends BreakdownRow {
  meanOffered: number;
  meanSelected: number;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Adds the means and sorts; ties fall back to tenant, then role, so the order is stable. */
export function prepareBreakdown(
  rows: readonly BreakdownRow[],
  sort: BreakdownSortKey,
  dir: SortDirection = BREAKDOWN_SORT_DIRECTIONS[sort],
): BreakdownLine[] {
  const lines = rows.map((row) => ({
    ...row,
    meanOffered: meanPerDecision(row.offeredTools, row.decisions),
    meanSelected: meanPerDecision(row.selectedTools, row.decisions),
  }));
  const sign = dir === "asc" ? 1 : -1;
  return lines.sort((a, b) => {
    const primary =
      sort === "tenant" || sort === "role"
        ? compareText(a[sort], b[sort])
        : (a[sort] as number) - (b[sort] as number);
    return sign * primary || compareText(a.tenant, b.tenant) || compareText(a.role, b.role);
  });
}
