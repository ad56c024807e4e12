import { csvExportRoute } from "@/lib/dashboard/export-route";
import { runIterationsExport } from "@/lib/dashboard/streamed-exports";

export const dynamic = "force-dynamic";

/** Every iteration of one run (`?tenant=…&runId=…`), in iteration order. */
export const GET = csvExportRoute(runIterationsExport);
