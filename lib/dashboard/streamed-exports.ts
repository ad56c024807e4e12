/**
 * The downloads that read their rows from the raw tables a batch at a time, up to tens of
 * thousands of rows: a run's iterations and the runs list. They are written in the export
 * thread (export-thread.ts), which looks them up here by name; their routes
 * (`app/api/export/run`, `app/api/export/runs`) take the same definitions.
 */

import type { TenantScope } from "@/lib/auth/scope";
import { iterationsCsvColumns, runsCsvColumns } from "@/lib/dashboard/csv-columns";
import { resolveTimeRange } from "@/lib/dashboard/time-range";
import { listRunDecisionsInBatches } from "@/lib/db/queries/run-trace";
import { countRunsUpTo, getRun, listRunsInBatches, runsFilterOf } from "@/lib/db/queries/runs";
import {
  EXPORT_ROW_LIMIT,
  RUN_EXPORT_ROW_LIMIT,
  RUN_SORT_DIRECTIONS,
  type RunExportSearch,
  type RunsSearch,
  runExportSearchSchema,
  runsSearchSchema,
  sortDirectionOf,
} from "@/lib/schemas/dashboard";
import { defineCsvExport, type OpenedCsv, openCsv } from "./export-rows";

/** Every iteration of one run (`?tenant=…&runId=…`), in iteration order. */
export const runIterationsExport = defineCsvExport({
  thread: "run",
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

/** Every run matching the runs page's filters, in its order. */
export const runsExport = defineCsvExport({
  thread: "runs",
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

/** The names the export thread knows its downloads by. */
export type StreamedExportName = "run" | "runs";

/** Opens a streamed download by name, for a query its route has already read. */
export const STREAMED_EXPORTS: Record<
  StreamedExportName,
  (search: unknown, now: Date, scope: TenantScope, limit: number) => Promise<OpenedCsv | null>
> = {
  // The route read the query with the download's own schema before it crossed to the thread.
  run: (search, now, scope, limit) =>
    openCsv(runIterationsExport, search as RunExportSearch, now, scope, limit),
  runs: (search, now, scope, limit) => openCsv(runsExport, search as RunsSearch, now, scope, limit),
};
