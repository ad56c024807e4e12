import { iterationsCsvColumns } from "@/lib/dashboard/csv-columns";
import { csvExportRoute } from "@/lib/dashboard/export-route";
import { listRunDecisionsInBatches } from "@/lib/db/queries/run-trace";
import { getRun } from "@/lib/db/queries/runs";
import { RUN_EXPORT_ROW_LIMIT, runExportSearchSchema } from "@/lib/schemas/dashboard";

export const dynamic = "force-dynamic";

/** Every iteration of one run (`?tenant=…&runId=…`), in iteration order. */
export const GET = csvExportRoute({
  schema: runExportSearchSchema,
  columns: iterationsCsvColumns,
  rowLimit: RUN_EXPORT_ROW_LIMIT,
  fileStem: ({ runId }) => `run-${runId}`,
  notFound: "No such run for this tenant.",
  load: async ({ tenant, runId }) => {
    const run = await getRun(tenant, runId);
    if (!run) return null;
    return {
      total: run.decisions,
      batches: (max) => listRunDecisionsInBatches(tenant, runId, { max }),
    };
  },
});
