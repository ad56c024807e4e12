import { runsCsvColumns } from "@/lib/dashboard/csv-columns";
import { csvExportRoute } from "@/lib/dashboard/export-route";
import { resolveTimeRange } from "@/lib/dashboard/time-range";
import { countRunsUpTo, listRunsInBatches, runsFilterOf } from "@/lib/db/queries/runs";
import {
  EXPORT_ROW_LIMIT,
  RUN_SORT_DIRECTIONS,
  runsSearchSchema,
  sortDirectionOf,
} from "@/lib/schemas/dashboard";

export const dynamic = "force-dynamic";

/** Every run matching the runs page's filters, in its order. */
export const GET = csvExportRoute({
  schema: runsSearchSchema,
  columns: runsCsvColumns,
  fileStem: "runs",
  load: async (search, now, scope) => {
    const filter = runsFilterOf(search, resolveTimeRange(search, now), scope);
    const order = { sort: search.sort, dir: sortDirectionOf(search, RUN_SORT_DIRECTIONS) };
    return {
      // Counted up to one past the limit: enough to say whether the download is cut short.
      total: await countRunsUpTo(filter, EXPORT_ROW_LIMIT),
      batches: (max) => listRunsInBatches(filter, order, { max }),
    };
  },
});
