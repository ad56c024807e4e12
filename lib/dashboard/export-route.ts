/**
 * Every CSV download (`app/api/export/*`) is one `csvExportRoute`: a URL schema, the columns,
 * a row limit and a loader. The factory does the rest in one place, the same way for each:
 *
 * 1. reads the query strictly (400 naming the parameter and the rule it broke);
 * 2. asks `checkExportAccess` whether the request may read what it names;
 * 3. calls the loader (null → 404);
 * 4. streams the header line and then the rows, a batch at a time as the client reads them,
 *    so memory stays bounded whatever the size of the export; at most `rowLimit` rows, and
 *    the response says so in its headers:
 *    - `X-Routelens-Row-Limit`: the most rows this export writes;
 *    - `X-Routelens-Row-Count`: rows matching when the download started (at most the limit);
 *    - `X-Routelens-Truncated`: `true` when more rows matched than the limit.
 */
import type { z } from "zod";
import { EXPORT_ROW_LIMIT, readSearchParams } from "@/lib/schemas/dashboard";
import { type CsvColumn, csvFileName, csvHeaderLine, csvLines, csvResponseHeaders } from "./csv";
import { checkExportAccess, type ExportScope } from "./export-access";

/** What a loader found: how many rows match, and a way to read them in order. */
export interface ExportRows<Row> {
  /** Rows matching the query (before the limit). */
  total: number;
  /** The rows in order, a batch at a time, at most `limit` in all. */
  batches(limit: number): AsyncIterable<readonly Row[]>;
}

export interface CsvExportDefinition<Schema extends z.ZodType<ExportScope>, Row> {
  /** The query's schema (usually the page's own, so a download mirrors its page). */
  schema: Schema;
  columns: readonly CsvColumn<Row>[];
  /** The most rows one download writes (default `EXPORT_ROW_LIMIT`). */
  rowLimit?: number;
  /** File name before the date, e.g. `runs` → `runs-2026-01-31.csv`. */
  fileStem: string | ((search: z.infer<Schema>) => string);
  /** Reads the rows; null when what the query names does not exist (404). */
  load: (search: z.infer<Schema>, now: Date) => Promise<ExportRows<Row> | null>;
  /** The 404 message. */
  notFound?: string;
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
    const denied = await checkExportAccess(request, read.data);
    if (denied) return denied;
    const now = new Date();
    const rows = await definition.load(read.data, now);
    if (!rows) {
      return Response.json({ error: definition.notFound ?? "Nothing to export." }, { status: 404 });
    }
    const limit = definition.rowLimit ?? EXPORT_ROW_LIMIT;
    const { fileStem } = definition;
    const stem = typeof fileStem === "string" ? fileStem : fileStem(read.data);
    return new Response(streamCsv(definition.columns, rows.batches(limit)), {
      headers: {
        ...csvResponseHeaders(csvFileName(stem, now)),
        [EXPORT_HEADERS.rowLimit]: String(limit),
        [EXPORT_HEADERS.rowCount]: String(Math.min(rows.total, limit)),
        [EXPORT_HEADERS.truncated]: String(rows.total > limit),
      },
    });
  };
}

/** A CSV body read from `batches` only as fast as the client takes it. */
export function streamCsv<Row>(
  columns: readonly CsvColumn<Row>[],
  batches: AsyncIterable<readonly Row[]>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = batches[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvHeaderLine(columns)));
    },
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(csvLines(columns, next.value)));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
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
