import { csvFileName, csvHeaderLine, csvLines, csvResponseHeaders } from "@/lib/dashboard/csv";
import { runsCsvColumns } from "@/lib/dashboard/csv-columns";
import { resolveTimeRange } from "@/lib/dashboard/time-range";
import { defaultRunsDirection, listRunsInBatches, runsFilterOf } from "@/lib/db/queries/runs";
import { parseSearchParams, runsSearchSchema } from "@/lib/schemas/dashboard";

export const dynamic = "force-dynamic";

/** Every run matching the runs page's filters, in its order (at most 100,000 rows). */
export async function GET(request: Request) {
  const search = parseSearchParams(runsSearchSchema, new URL(request.url).searchParams);
  const now = new Date();
  const filter = runsFilterOf(search, resolveTimeRange(search, now));
  const order = { sort: search.sort, dir: search.dir ?? defaultRunsDirection(search.sort) };
  const batches = listRunsInBatches(filter, order);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvHeaderLine(runsCsvColumns)));
    },
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(csvLines(runsCsvColumns, next.value)));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return new Response(body, { headers: csvResponseHeaders(csvFileName("runs", now)) });
}
