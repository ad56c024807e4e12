/**
 * CSV for the table downloads (RFC 4180: CRLF line ends, fields quoted when they contain a
 * comma, quote or line break). Tool names, run ids and roles come from agents, so a cell that a
 * spreadsheet would read as a formula is prefixed with a single quote: one starting with =, +,
 * -, @, tab or carriage return, also after leading whitespace (some spreadsheets skip it before
 * evaluating).
 */

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined | readonly string[];
}

/** `\s` covers spaces, tabs, line breaks, no-break and other Unicode spaces and the BOM. */
const FORMULA_START = /^(?:\s*[=+\-@]|[\t\r])/;

/** One field, escaped and neutralised. Numbers are written as they are. */
export function escapeCsvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  let text = value;
  if (FORMULA_START.test(text)) text = `'${text}`;
  if (/[",\r\n]/.test(text)) text = `"${text.replaceAll('"', '""')}"`;
  return text;
}

function cell<T>(column: CsvColumn<T>, row: T): string {
  const value = column.value(row);
  if (Array.isArray(value)) return escapeCsvField(value.join(" "));
  return escapeCsvField(value as string | number | boolean | null | undefined);
}

export function csvHeaderLine<T>(columns: readonly CsvColumn<T>[]): string {
  return `${columns.map((column) => escapeCsvField(column.header)).join(",")}\r\n`;
}

export function csvLines<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  let out = "";
  for (const row of rows) out += `${columns.map((column) => cell(column, row)).join(",")}\r\n`;
  return out;
}

/** A whole document: header line then one line per row. */
export function toCsv<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  return csvHeaderLine(columns) + csvLines(columns, rows);
}

/** A file name safe in a Content-Disposition header, e.g. `runs-2026-01-31.csv`. */
export function csvFileName(stem: string, now: Date): string {
  const safe = stem.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "export";
  return `${safe}-${now.toISOString().slice(0, 10)}.csv`;
}

/** Headers of a CSV download. */
export function csvResponseHeaders(fileName: string): Record<string, string> {
  return {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${fileName}"`,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  };
}
