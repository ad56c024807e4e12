import { csvExportRoute, pageTableRows } from "@/lib/dashboard/export-route";
import { listContextTaxLines } from "@/lib/db/queries/table-lines";
import { toolsSearchSchema } from "@/lib/schemas/tools";
import { contextTaxCsvColumns } from "@/lib/tools/context-tax";

export const dynamic = "force-dynamic";

/** The tools page's context tax per tool as CSV, costliest never-called tools first. */
export const GET = csvExportRoute({
  schema: toolsSearchSchema,
  columns: contextTaxCsvColumns,
  fileStem: "context-tax",
  load: pageTableRows(listContextTaxLines),
});
