/**
 * Every CSV download (`app/api/export/*`) is one `csvExportRoute`: a URL schema, the columns,
 * a row limit and a loader. The factory does the rest in one place, the same way for each:
 *
 * 1. reads the query strictly (400 naming the parameter and the rule it broke);
 * 2. asks `checkExportAccess` whether the request may read what it names (401 or 404), and
 *    for the tenants it may read, which the loader's queries are scoped to;
 * 3. calls the loader (null → 404) — for the downloads read from the raw tables in batches
 *    (streamed-exports.ts), in the export thread (export-streams.ts);
 * 4. streams the header line and then the rows, a batch at a time as the client reads them,
 *    so memory stays bounded whatever the size of the export; at most `rowLimit` rows, and
 *    the response says so in its headers:
 *    - `X-Routelens-Row-Limit`: the most rows this export writes;
 *    - `X-Routelens-Row-Count`: rows matching when the download started (at most the limit);
 *    - `X-Routelens-Truncated`: `true` when more rows matched than the limit.
 *
 * Steps 3 and 4 hold one of the process's download slots (`DownloadSlots`): at most
 * `ROUTELENS_EXPORT_STREAMS` downloads load and stream at once, the others wait in line for up
 * to `ROUTELENS_EXPORT_WAIT_MS`, and a download that finds the line full or waits too long gets
 * 503 with `Retry-After`. The slot is given back when the body ends, fails or is cancelled
 * (the client went away). Between batches the stream yields to the event loop, so requests
 * that arrived meanwhile run before the next batch is written, and waits (a bounded time)
 * while short ingest requests are being served (`ShortFirst`, lib/ingest/short-first.ts).
 */
import type { z } from "zod";
import type { TenantScope } from "@/lib/auth/scope";
import { env } from "@/lib/env";
import { shortFirst } from "@/lib/ingest/short-first";
import { EXPORT_ROW_LIMIT, readSearchParams } from "@/lib/schemas/dashboard";
import { csvFileName, csvResponseHeaders } from "./csv";
import { DownloadSlots, isRelease, type ReleaseSlot } from "./download-slots";
import { checkExportAccess, type ExportScope } from "./export-access";
import { type CsvExportDefinition, type ExportRows, type OpenedCsv, openCsv } from "./export-rows";
import { openStreamedDownload } from "./export-streams";
import { type RangeInput, resolveTimeRange, type TimeRange } from "./time-range";

/**
 * Downloads that may wait for a slot. Waiting costs a pending promise and an open connection,
 * nothing else; the line only smooths a burst (a few people clicking "Download CSV" at once)
 * into the slots instead of refusing it.
 */
export const DOWNLOAD_MAX_WAITING = 8;
/**
 * Seconds a refused download is told to wait before retrying (`Retry-After`): about what the
 * slots need to finish what they hold. The wait in line (`ROUTELENS_EXPORT_WAIT_MS`) defaults
 * to the same 5 s: a 20,000-row export streams in about a second on an idle server, so a few
 * seconds lets a short line drain; past it the client is told to retry rather than left
 * hanging behind downloads it cannot see.
 */
export const DOWNLOAD_RETRY_AFTER_S = 5;

let downloadSlots: DownloadSlots | undefined;

/** The process's download slots, sized from the environment on first use. */
function slots(): DownloadSlots {
  downloadSlots ??= new DownloadSlots(
    env().ROUTELENS_EXPORT_STREAMS,
    DOWNLOAD_MAX_WAITING,
    env().ROUTELENS_EXPORT_WAIT_MS,
  );
  return downloadSlots;
}

export const EXPORT_HEADERS = {
  rowLimit: "X-Routelens-Row-Limit",
  rowCount: "X-Routelens-Row-Count",
  truncated: "X-Routelens-Truncated",
} as const;

/** The GET handler of one CSV download. */
export function csvExportRoute<Schema extends z.ZodType<ExportScope>, Row>(
  definition: CsvExportDefinition<Schema, Row>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const read = readSearchParams(definition.schema, new URL(request.url).searchParams);
    if (!read.ok) return Response.json({ error: read.message }, { status: 400 });
    const scope = await checkExportAccess(request, read.data);
    if (scope instanceof Response) return scope;
    // A HEAD request gets the headers only: it writes no CSV, so it takes no slot (the server
    // answers it from this handler and drops the body without cancelling it).
    const slot = request.method === "HEAD" ? () => {} : await slots().acquire(request.signal);
    if (!isRelease(slot)) {
      const retryAfter = DOWNLOAD_RETRY_AFTER_S;
      return Response.json(
        {
          error:
            `Too many CSV downloads at once: ${slot.streaming} in progress and ${slot.waiting} ` +
            `waiting on this server. Retry in ${retryAfter} s.`,
        },
        { status: 503, headers: { "Retry-After": String(retryAfter) } },
      );
    }
    const now = new Date();
    const limit = definition.rowLimit ?? EXPORT_ROW_LIMIT;
    let opened: OpenedCsv | null;
    try {
      opened = await openDownload(
        definition,
        read.data,
        now,
        scope,
        limit,
        request.method === "HEAD",
      );
    } catch (error) {
      slot();
      throw error;
    }
    if (!opened) {
      slot();
      return Response.json({ error: definition.notFound ?? "Nothing to export." }, { status: 404 });
    }
    const { fileStem } = definition;
    const stem = typeof fileStem === "string" ? fileStem : fileStem(read.data);
    let body: ReadableStream<Uint8Array> | null = null;
    if (request.method === "HEAD") void opened.chunks.return();
    else body = streamChunks(opened.chunks, slot);
    return new Response(body, {
      headers: {
        ...csvResponseHeaders(csvFileName(stem, now)),
        [EXPORT_HEADERS.rowLimit]: String(limit),
        [EXPORT_HEADERS.rowCount]: String(Math.min(opened.total, limit)),
        [EXPORT_HEADERS.truncated]: String(opened.total > limit),
      },
    });
  };
}

/**
 * A client that takes nothing of its download for this long loses it: the body ends with an
 * error and its slot goes to the next download. A client that stops reading would otherwise
 * hold a slot for as long as it keeps the connection open; 30 s is far longer than any reader
 * pauses for, even on a slow link (a batch of 100 rows is about 36 kB).
 */
export const DOWNLOAD_STALL_MS = 30_000;

/**
 * A download body of `chunks` (the header line, then a chunk per batch of rows), read only as
 * fast as the client takes it, yielding to the event loop before each chunk (and to short
 * requests in flight: `ShortFirst.turn`). `done` runs once when the body ends, fails, is
 * cancelled or stalls (nothing read for `stallMs`).
 */
export function streamChunks(
  chunks: AsyncGenerator<Uint8Array, void, undefined>,
  done: ReleaseSlot = () => {},
  stallMs = DOWNLOAD_STALL_MS,
): ReadableStream<Uint8Array> {
  let stall: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  const finish = () => {
    finished = true;
    clearTimeout(stall);
    done();
  };
  // Armed whenever something waits to be read; the next pull (the client took some) clears it.
  const watchForStall = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    stall = setTimeout(() => {
      finish();
      controller.error(new Error(`download stalled: nothing read for ${stallMs} ms`));
      void chunks.return();
    }, stallMs);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      clearTimeout(stall);
      try {
        await shortFirst().turn();
        const next = await chunks.next();
        if (next.done) {
          finish();
          controller.close();
          return;
        }
        controller.enqueue(next.value);
        if (!finished) watchForStall(controller);
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    async cancel() {
      finish();
      await chunks.return();
    },
  });
}

/** Opens a download: in the export thread when it is written there, otherwise here. */
function openDownload<Schema extends z.ZodType<ExportScope>, Row>(
  definition: CsvExportDefinition<Schema, Row>,
  search: z.infer<Schema>,
  now: Date,
  scope: TenantScope,
  limit: number,
  headersOnly: boolean,
): Promise<OpenedCsv | null> {
  const inThread = () => openCsv(definition, search, now, scope, limit);
  if (!definition.thread) return inThread();
  return openStreamedDownload(
    { name: definition.thread, search, now, scope, limit, headersOnly },
    inThread,
  );
}

/** Rows already in memory (a rollup aggregate), written in batches like the others. */
export function listedRows<Row>(rows: readonly Row[], batchSize = 1_000): ExportRows<Row> {
  return {
    total: rows.length,
    async *batches(limit) {
      const end = Math.min(limit, rows.length);
      for (let start = 0; start < end; start += batchSize) {
        yield rows.slice(start, Math.min(start + batchSize, end));
      }
    },
  };
}

/**
 * The loader of a download that mirrors a page's table: the page's own sorted lines for the
 * query's time range, read at once (such tables are capped by their query).
 */
export function pageTableRows<
  Search extends RangeInput & { range: Exclude<RangeInput["range"], "all"> },
  Line,
>(
  listLines: (
    search: Search,
    range: TimeRange,
    scope: TenantScope,
  ) => Promise<{ lines: readonly Line[] }>,
) {
  return async (search: Search, now: Date, scope: TenantScope): Promise<ExportRows<Line>> =>
    listedRows((await listLines(search, resolveTimeRange(search, now), scope)).lines);
}
