import { breakdownCsvColumns } from "@/lib/dashboard/csv-columns";
import { csvExportRoute, listedRows } from "@/lib/dashboard/export-route";
import { resolveTimeRange } from "@/lib/dashboard/time-range";
import { listBreakdownLines } from "@/lib/db/queries/table-lines";
import { overviewSearchSchema } from "@/lib/schemas/dashboard";

export const dynamic = "force-dynamic";

/** The overview's tenant × role breakdown with the overview's filters and order. */
export const GET = csvExportRoute({
  schema: overviewSearchSchema,
  columns: breakdownCsvColumns,
  fileStem: "breakdown",
  load: async (search, now) => {
    const { lines } = await listBreakdownLines(search, resolveTimeRange(search, now));
    return listedRows(lines);
  },
});
