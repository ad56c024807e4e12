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
import type { ContextTaxDayRow, ContextTaxTenantToolRow } from "@/lib/tools/types";
import {
  countContextTaxDayLines,
  sumContextTaxByDay,
  sumContextTaxByTenantTool,
  sumContextTaxWithDays,
} from "./context-tax";
import { sumMetricsByTenantRole } from "./overview";
import { type RollupFilter, type RollupWindow, rollupFilterOf } from "./rollup";

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

/** The daily context-tax lines the tools page shows (newest first); a window with more says so. */
export const DAY_LINES_SHOWN = 100;

/** The per-(tenant, tool) sums of a window and, for the tools page, its newest daily lines. */
interface ToolsWindow {
  tenantTools: ContextTaxTenantToolRow[];
  /** Null when not asked for (the downloads). */
  days: { rows: ContextTaxDayRow[]; total: number } | null;
}

/**
 * The daily lines the page shows: only the days of the newest `DAY_LINES_SHOWN` lines are read
 * (`countContextTaxDayLines`), or every day when those days fall short. When they are all the
 * window's days anyway (windows of a few days), both tables come from one pass over the
 * rollups (`sumContextTaxWithDays`); longer windows sum the tenants' tools over the whole
 * window and the lines over their days.
 */
async function loadToolsWindow(
  filter: RollupFilter,
  period: Period,
  withDays: boolean,
): Promise<ToolsWindow> {
  if (!withDays) {
    return { tenantTools: await sumContextTaxByTenantTool(filter, period), days: null };
  }
  const counted = await countContextTaxDayLines(filter, period, DAY_LINES_SHOWN);
  const firstDay = counted.firstDay && counted.firstDay > period.from ? counted.firstDay : null;
  if (firstDay === null) {
    const { tenantTools, days } = await sumContextTaxWithDays(filter, period);
    return { tenantTools, days: { rows: days, total: Math.max(counted.total, days.length) } };
  }
  const tenantTools = await sumContextTaxByTenantTool(filter, period);
  let rows = await sumContextTaxByDay(filter, { from: firstDay, to: period.to }, tenantTools);
  if (rows.length < DAY_LINES_SHOWN) rows = await sumContextTaxByDay(filter, period, tenantTools);
  return { tenantTools, days: { rows, total: Math.max(counted.total, rows.length) } };
}

/**
 * `loadToolsWindow` once per request for a filter and window: the page's sections both ask
 * for it (`cache` keys on the scope object and primitives).
 */
const loadToolsWindowOnce = cache(
  (
    scope: TenantScope,
    tenant: string | undefined,
    role: string | undefined,
    mode: StoredMode | undefined,
    fromMs: number,
    toMs: number,
    withDays: boolean,
  ) =>
    loadToolsWindow(
      { scope, tenant, role, mode },
      { from: new Date(fromMs), to: new Date(toMs) },
      withDays,
    ),
);

/** Whether the daily lines are read too: the page's sections share one read with them. */
interface ToolsRead {
  withDays?: boolean;
}

function toolsWindowOf(
  search: ToolsSearch,
  period: Period,
  scope: TenantScope,
  { withDays = false }: ToolsRead,
) {
  const { tenant, role, mode } = rollupFilterOf(search, scope);
  const { from, to } = period;
  return loadToolsWindowOnce(scope, tenant, role, mode, from.getTime(), to.getTime(), withDays);
}

/** The tools table's lines for the tools page's filters, window and order. */
export async function listToolLines(
  search: ToolsSearch,
  period: Period,
  scope: TenantScope,
  read: ToolsRead = {},
): Promise<SortedLines<ToolLine>> {
  const { tenantTools } = await toolsWindowOf(search, period, scope, read);
  const dir = sortDirectionOf(search, TOOL_SORT_DIRECTIONS);
  return { lines: prepareToolLines(sumToolUsagePerTool(tenantTools), search.sort, dir), dir };
}

/**
 * The context tax's per-tool lines for the tools page's filters and window, costliest
 * never-called tools first, with the daily lines when asked for (`withDays`).
 */
export async function listContextTaxLines(
  search: ToolsSearch,
  period: Period,
  scope: TenantScope,
  read: ToolsRead = {},
): Promise<{ lines: ContextTaxLine[]; days: ToolsWindow["days"] }> {
  const { tenantTools, days } = await toolsWindowOf(search, period, scope, read);
  return { lines: prepareContextTaxLines(sumContextTaxPerTool(tenantTools)), days };
}
