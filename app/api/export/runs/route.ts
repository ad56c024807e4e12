import { csvExportRoute } from "@/lib/dashboard/export-route";
import { runsExport } from "@/lib/dashboard/streamed-exports";

export const dynamic = "force-dynamic";

/** Every run matching the runs page's filters, in its order. */
export const GET = csvExportRoute(runsExport);
