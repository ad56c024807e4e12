import { defaultBreakdownDirection, prepareBreakdown } from "@/lib/dashboard/breakdown";
import { csvFileName, csvResponseHeaders, toCsv } from "@/lib/dashboard/csv";
import { breakdownCsvColumns } from "@/lib/dashboard/csv-columns";
import { resolveTimeRange, type TimeRange } from "@/lib/dashboard/time-range";
import { sumMetricsByTenantRole } from "@/lib/db/queries/overview";
import { overviewSearchSchema, parseSearchParams } from "@/lib/schemas/dashboard";

export const dynamic = "force-dynamic";

/** The overview's tenant × role breakdown with the overview's filters and order. */
export async function GET(request: Request) {
  const search = parseSearchParams(overviewSearchSchema, new URL(request.url).searchParams);
  const now = new Date();
  const range = resolveTimeRange(search, now) as TimeRange;
  const rows = await sumMetricsByTenantRole(
    { tenant: search.tenant, role: search.role, mode: search.mode },
    range,
  );
  const lines = prepareBreakdown(
    rows,
    search.sort,
    search.dir ?? defaultBreakdownDirection(search.sort),
  );
  return new Response(toCsv(breakdownCsvColumns, lines), {
    headers: csvResponseHeaders(csvFileName("breakdown", now)),
  });
}
