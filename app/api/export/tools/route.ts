import { csvExportRoute, listedRows } from "@/lib/dashboard/export-route";
import { resolveTimeRange } from "@/lib/dashboard/time-range";
import { sumToolUsage } from "@/lib/db/queries/tools";
import { AGGREGATE_EXPORT_ROW_LIMIT } from "@/lib/schemas/dashboard";
import { toolsSearchSchema } from "@/lib/schemas/tools";
import { defaultToolsDirection, prepareToolLines, toolsCsvColumns } from "@/lib/tools/tool-lines";

export const dynamic = "force-dynamic";

/** The tools table as CSV, with the page's filters and order. */
export const GET = csvExportRoute({
  schema: toolsSearchSchema,
  columns: toolsCsvColumns,
  rowLimit: AGGREGATE_EXPORT_ROW_LIMIT,
  fileStem: () => "tools",
  load: async (search, now) => {
    const rows = await sumToolUsage(
      { tenant: search.tenant, role: search.role, mode: search.mode },
      resolveTimeRange(search, now),
    );
    const dir = search.dir ?? defaultToolsDirection(search.sort);
    return listedRows(prepareToolLines(rows, search.sort, dir));
  },
});
