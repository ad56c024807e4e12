/**
 * The overview's tenant × role breakdown: derived means and the order chosen in the URL.
 */
import {
  BREAKDOWN_SORT_DIRECTIONS,
  type BreakdownSortKey,
  type SortDirection,
} from "@/lib/schemas/dashboard";
import { compareCodeUnits } from "@/lib/text-order";
import { meanPerDecision } from "./kpis";
import type { BreakdownRow } from "./types";

export interface BreakdownLine extends BreakdownRow {
  meanOffered: number;
  meanSelected: number;
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
        ? compareCodeUnits(a[sort], b[sort])
        : (a[sort] as number) - (b[sort] as number);
    return (
      sign * primary || compareCodeUnits(a.tenant, b.tenant) || compareCodeUnits(a.role, b.role)
    );
  });
}
