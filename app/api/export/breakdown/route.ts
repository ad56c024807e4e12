import { breakdownCsvColumns } from "@/lib/dashboard/csv-columns";
import { csvExportRoute, pageTableRows } from "@/lib/dashboard/export-route";
import { listBreakdownLines } from "@/lib/db/queries/table-lines";
import { overviewSearchSchema } from "@/lib/schemas/dashboard";

export const dynamic = "force-dynamic";

/** The overview's tenant × role breakdown with the overview's filters and order. */
export const GET = csvExportRoute({
  schema: overviewSearchSchema,
  columns: breakdownCsvColumns,
  fileStem: "breakdown",
  load: pageTableRows(listBreakdownLines),
});
