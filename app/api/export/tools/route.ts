import { csvExportRoute, listedRows } from "@/lib/dashboard/export-route";
import { resolveTimeRange } from "@/lib/dashboard/time-range";
import { listToolLines } from "@/lib/db/queries/table-lines";
import { toolsSearchSchema } from "@/lib/schemas/tools";
import { toolsCsvColumns } from "@/lib/tools/tool-lines";

export const dynamic = "force-dynamic";

/** The tools table as CSV, with the page's filters and order. */
export const GET = csvExportRoute({
  schema: toolsSearchSchema,
  columns: toolsCsvColumns,
  fileStem: "tools",
  load: async (search, now) => {
    const { lines } = await listToolLines(search, resolveTimeRange(search, now));
    return listedRows(lines);
  },
});
