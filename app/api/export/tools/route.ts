import { csvFileName, csvResponseHeaders, toCsv } from "@/lib/dashboard/csv";
import { resolveTimeRange, type TimeRange } from "@/lib/dashboard/time-range";
import { sumToolUsage } from "@/lib/db/queries/tools";
import { parseSearchParams } from "@/lib/schemas/dashboard";
import { toolsSearchSchema } from "@/lib/schemas/tools";
import { defaultToolsDirection, prepareToolLines, toolsCsvColumns } from "@/lib/tools/tool-lines";

export const dynamic = "force-dynamic";

/** The tools table as CSV, with the page's filters and order. */
export async function GET(request: Request) {
  const search = parseSearchParams(toolsSearchSchema, new URL(request.url).searchParams);
  const now = new Date();
  const range = resolveTimeRange(search, now) as TimeRange;
  const rows = await sumToolUsage(
    { tenant: search.tenant, role: search.role, mode: search.mode },
    range,
  );
  const lines = prepareToolLines(
    rows,
    search.sort,
    search.dir ?? defaultToolsDirection(search.sort),
  );
  return new Response(toCsv(toolsCsvColumns, lines), {
    headers: csvResponseHeaders(csvFileName("tools", now)),
  });
}
