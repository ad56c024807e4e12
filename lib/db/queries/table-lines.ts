/**
 * The lines of the rollup tables a page shows and downloads (the overview's tenant × role
 * breakdown, the tools table, the context tax), in the order their URL asks for. The page's
 * section and its CSV download both read them here, so the download always holds the rows the
 * table shows.
 */
import "server-only";
import { cache } from "react";
import type { TenantScope } from "@/lib/auth/scope";
import { type BreakdownLine, prepareBreakdown } from "@/lib/dashboard/breakdown";
import type { Period } from "@/lib/dashboard/time-range";
import {
  BREAKDOWN_SORT_DIRECTIONS,
  type OverviewSearch,
  type SortDirection,
  sortDirectionOf,
} from "@/lib/schemas/dashboard";
import type { StoredMode } from "@/lib/schemas/events";
import { TOOL_SORT_DIRECTIONS, type ToolsSearch } from "@/lib/schemas/tools";
import {
  type ContextTaxLine,
  prepareContextTaxLines,
  sumContextTaxPerTool,
} from "@/lib/tools/context-tax";
import { prepareToolLines, sumToolUsagePerTool, type ToolLine } from "@/lib/tools/tool-lines";
import type { ContextTaxTenantToolRow } from "@/lib/tools/types";
import { sumContextTaxByTenantTool } from "./context-tax";
import { sumMetricsByTenantRole } from "./overview";
import { type RollupWindow, rollupFilterOf } from "./rollup";

export interface SortedLines<Line> {
  lines: Line[];
  /** The direction applied: the URL's, or the sort column's default. */
  dir: SortDirection;
}

/** The breakdown's lines for the overview's filters, range and order. */
export async function listBreakdownLines(
  search: OverviewSearch,
  range: RollupWindow,
  scope: TenantScope,
): Promise<SortedLines<BreakdownLine>> {
  const rows = await sumMetricsByTenantRole(rollupFilterOf(search, scope), range);
  const dir = sortDirectionOf(search, BREAKDOWN_SORT_DIRECTIONS);
  return { lines: prepareBreakdown(rows, search.sort, dir), dir };
}

/**
 * The per-(tenant, tool) sums both tables of the tools page are made of, read once per
 * request for a filter and window (both sections ask for them; `cache` keys on the scope
 * object and primitives).
 */
const loadTenantTools = cache(
  (
    scope: TenantScope,
    tenant: string | undefined,
    role: string | undefined,
    mode: StoredMode | undefined,
    fromMs: number,
    toMs: number,
  ) =>
    sumContextTaxByTenantTool(
      { scope, tenant, role, mode },
      { from: new Date(fromMs), to: new Date(toMs) },
    ),
);

function tenantToolsOf(search: ToolsSearch, period: Period, scope: TenantScope) {
  const { tenant, role, mode } = rollupFilterOf(search, scope);
  return loadTenantTools(scope, tenant, role, mode, period.from.getTime(), period.to.getTime());
}

/** The tools table's lines for the tools page's filters, window and order. */
export async function listToolLines(
  search: ToolsSearch,
  period: Period,
  scope: TenantScope,
): Promise<SortedLines<ToolLine>> {
  const rows = sumToolUsagePerTool(await tenantToolsOf(search, period, scope));
  const dir = sortDirectionOf(search, TOOL_SORT_DIRECTIONS);
  return { lines: prepareToolLines(rows, search.sort, dir), dir };
}

/**
 * The context tax's per-tool lines for the tools page's filters and window, costliest
 * never-called tools first, and the per-(tenant, tool) rows they were summed from (whose
 * estimates the daily totals use).
 */
export async function listContextTaxLines(
  search: ToolsSearch,
  period: Period,
  scope: TenantScope,
): Promise<{ lines: ContextTaxLine[]; tenantTools: ContextTaxTenantToolRow[] }> {
  const tenantTools = await tenantToolsOf(search, period, scope);
  return { lines: prepareContextTaxLines(sumContextTaxPerTool(tenantTools)), tenantTools };
}
