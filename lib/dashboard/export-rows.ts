/**
 * A CSV download's rows and their bytes: what a loader finds (`ExportRows`), and the CSV it
 * becomes, a chunk of bytes per batch of rows (`openCsv`). The same code runs in the request's
 * thread and in the export thread (export-thread.ts), so nothing here may need the request.
 */
import type { z } from "zod";
import type { TenantScope } from "@/lib/auth/scope";
import { type CsvColumn, csvHeaderLine, csvLines } from "./csv";
import type { ExportScope } from "./export-access";
import type { StreamedExportName } from "./streamed-exports";

/** What a loader found: how many rows match, and a way to read them in order. */
export interface ExportRows<Row> {
  /** Rows matching the query (before the limit). */
  total: number;
  /** The rows in order, a batch at a time, at most `limit` in all. */
  batches(limit: number): AsyncIterable<readonly Row[]>;
}

/** The columns of a download and how its rows are read. */
export interface CsvSource<Search, Row> {
  columns: readonly CsvColumn<Row>[];
  /** Reads the rows; null when what the query names does not exist (404). */
  load: (search: Search, now: Date, scope: TenantScope) => Promise<ExportRows<Row> | null>;
}

/** One CSV download (`csvExportRoute`, export-route.ts). */
export interface CsvExportDefinition<Schema extends z.ZodType<ExportScope>, Row>
  extends CsvSource<z.infer<Schema>, Row> {
  /** The query's schema (usually the page's own, so a download mirrors its page). */
  schema: Schema;
  /** The most rows one download writes (default `EXPORT_ROW_LIMIT`). */
  rowLimit?: number;
  /** File name before the date, e.g. `runs` → `runs-2026-01-31.csv`. */
  fileStem: string | ((search: z.infer<Schema>) => string);
  /** The 404 message. */
  notFound?: string;
  /** Written in the export thread, which knows it by this name (streamed-exports.ts). */
  thread?: StreamedExportName;
}

/** `definition` as it is, its types inferred from its schema and columns. */
export function defineCsvExport<Schema extends z.ZodType<ExportScope>, Row>(
  definition: CsvExportDefinition<Schema, Row>,
): CsvExportDefinition<Schema, Row> {
  return definition;
}

/** An opened download: rows matching, and its CSV, the header line first, read on demand. */
export interface OpenedCsv {
  total: number;
  /** UTF-8 bytes: the header line, then one chunk per batch of rows. */
  chunks: AsyncGenerator<Uint8Array, void, undefined>;
}

/** Loads `source`'s rows for `search`; null when there is nothing by that name (404). */
export async function openCsv<Search, Row>(
  source: CsvSource<Search, Row>,
  search: Search,
  now: Date,
  scope: TenantScope,
  limit: number,
): Promise<OpenedCsv | null> {
  const rows = await source.load(search, now, scope);
  if (!rows) return null;
  return { total: rows.total, chunks: csvChunks(source.columns, rows.batches(limit)) };
}

/** The header line, then each batch's lines, as UTF-8. Reads a batch only when asked. */
export async function* csvChunks<Row>(
  columns: readonly CsvColumn<Row>[],
  batches: AsyncIterable<readonly Row[]>,
): AsyncGenerator<Uint8Array, void, undefined> {
  const encoder = new TextEncoder();
  yield encoder.encode(csvHeaderLine(columns));
  for await (const batch of batches) yield encoder.encode(csvLines(columns, batch));
}
