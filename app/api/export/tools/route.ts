import { csvExportRoute, pageTableRows } from "@/lib/dashboard/export-route";
import { listToolLines } from "@/lib/db/queries/table-lines";
import { toolsSearchSchema } from "@/lib/schemas/tools";
import { toolsCsvColumns } from "@/lib/tools/tool-lines";

export const dynamic = "force-dynamic";

/** The tools table as CSV, with the page's filters and order. */
export const GET = csvExportRoute({
  schema: toolsSearchSchema,
  columns: toolsCsvColumns,
  fileStem: "tools",
  load: pageTableRows(listToolLines),
});
