import { z } from "zod";
import { csvFileName, csvResponseHeaders, toCsv } from "@/lib/dashboard/csv";
import { iterationsCsvColumns } from "@/lib/dashboard/csv-columns";
import { listRunDecisionsForExport } from "@/lib/db/queries/run-trace";
import { runExportSearchSchema } from "@/lib/schemas/dashboard";

export const dynamic = "force-dynamic";

/** Every iteration of one run (`?tenant=…&runId=…`). */
export async function GET(request: Request) {
  const parsed = runExportSearchSchema.safeParse(
    Object.fromEntries(new URL(request.url).searchParams),
  );
  if (!parsed.success) {
    return Response.json(
      { error: `Invalid query: ${z.prettifyError(parsed.error)}` },
      { status: 400 },
    );
  }
  const { tenant, runId } = parsed.data;
  const decisions = await listRunDecisionsForExport(tenant, runId);
  if (decisions.length === 0) {
    return Response.json({ error: "No such run for this tenant." }, { status: 404 });
  }
  return new Response(toCsv(iterationsCsvColumns, decisions), {
    headers: csvResponseHeaders(csvFileName(`run-${runId}`, new Date())),
  });
}
