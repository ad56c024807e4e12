import { defaultBreakdownDirection, prepareBreakdown } from "@/lib/dashboard/breakdown";
import { breakdownCsvColumns } from "@/lib/dashboard/csv-columns";
import { csvExportRoute, listedRows } from "@/lib/dashboard/export-route";
import { resolveTimeRange } from "@/lib/dashboard/time-range";
import { sumMetricsByTenantRole } from "@/lib/db/queries/overview";
import { AGGREGATE_EXPORT_ROW_LIMIT, overviewSearchSchema } from "@/lib/schemas/dashboard";

export const dynamic = "force-dynamic";

/** The overview's tenant × role breakdown with the overview's filters and order. */
export const GET = csvExportRoute({
  schema: overviewSearchSchema,
  columns: breakdownCsvColumns,
  rowLimit: AGGREGATE_EXPORT_ROW_LIMIT,
  fileStem: () => "breakdown",
  load: async (search, now) => {
    const rows = await sumMetricsByTenantRole(
      { tenant: search.tenant, role: search.role, mode: search.mode },
      resolveTimeRange(search, now),
    );
    const dir = search.dir ?? defaultBreakdownDirection(search.sort);
    return listedRows(prepareBreakdown(rows, search.sort, dir));
  },
});
