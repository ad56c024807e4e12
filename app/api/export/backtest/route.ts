import type { TenantScope } from "@/lib/auth/scope";
import {
  backtestRoleCsvColumns,
  backtestToolCsvColumns,
  roleArmLines,
} from "@/lib/backtest/csv-columns";
import { prepareToolRows } from "@/lib/backtest/result-view";
import { backtestExampleHref } from "@/lib/backtest/url";
import { csvExportRoute, listedRows } from "@/lib/dashboard/export-route";
import { getBacktest } from "@/lib/db/queries/backtests";
import {
  BACKTEST_TOOL_SORT_DIRECTIONS,
  type BacktestExportSearch,
  backtestExportSearchSchema,
} from "@/lib/schemas/backtest-pages";
import { sortDirectionOf } from "@/lib/schemas/dashboard";

export const dynamic = "force-dynamic";

const NOT_FOUND = "No such finished backtest among your tenants.";

/** A finished backtest's result in the viewer's scope (and of `tenant`, when named), or null. */
async function finishedResult(search: BacktestExportSearch, scope: TenantScope) {
  const backtest = await getBacktest(search.id, scope);
  if (!backtest || (search.tenant !== undefined && backtest.tenantId !== search.tenant)) {
    return null;
  }
  return backtest.state === "done" ? backtest.result : null;
}

const tools = csvExportRoute({
  schema: backtestExportSearchSchema,
  columns: backtestToolCsvColumns,
  fileStem: ({ id }) => `backtest-${id.slice(0, 8)}-tools`,
  notFound: NOT_FOUND,
  load: async (search, _now, scope) => {
    const result = await finishedResult(search, scope);
    if (!result) return null;
    const exampleHref = (example: Parameters<typeof backtestExampleHref>[1]) =>
      backtestExampleHref(search.id, example);
    const dir = sortDirectionOf(search, BACKTEST_TOOL_SORT_DIRECTIONS);
    return listedRows(prepareToolRows(result, exampleHref, search.sort, dir));
  },
});

const roles = csvExportRoute({
  schema: backtestExportSearchSchema,
  columns: backtestRoleCsvColumns,
  fileStem: ({ id }) => `backtest-${id.slice(0, 8)}-roles`,
  notFound: NOT_FOUND,
  load: async (search, _now, scope) => {
    const result = await finishedResult(search, scope);
    return result ? listedRows(roleArmLines(result.overall, result.roles)) : null;
  },
});

/**
 * One finished backtest's result as CSV (`?id=…`): per tool in the page's order (default,
 * `table=tools`, with `sort` and `dir`), or per role and arm (`table=roles`).
 */
export function GET(request: Request): Promise<Response> {
  const table = new URL(request.url).searchParams.get("table");
  return (table === "roles" ? roles : tools)(request);
}
