/**
 * A text as a SQL string literal, for the statements that go as one simple query (several
 * statements in one round trip cannot take parameters): the transaction's locks and rollup
 * rows as JSON.
 *
 * The same text node-postgres's `escapeLiteral` makes — single quotes doubled, and when there
 * is a backslash, backslashes doubled and an `E` prefix — built with two replaces instead of
 * one string concatenation per character: for a transaction's rollup rows (tens of kilobytes
 * of JSON) the driver's loop makes a rope of one-character pieces, tens of bytes of garbage
 * per character, which was the largest single source of the ingest server's garbage.
 */
export function sqlLiteral(text: string): string {
  const quoted = text.replaceAll("'", "''");
  return text.includes("\\") ? ` E'${quoted.replaceAll("\\", "\\\\")}'` : `'${quoted}'`;
}

/**
 * A list as PostgreSQL array text (`{"a","b\"c"}` for a and b"c), every element quoted: the text
 * node-postgres sends for an array parameter, built with one `join` instead of its
 * element-by-element concatenation, which made a twentieth of the ingest server's garbage
 * (the five arrays of a batch's event ids and join keys). Pass it as the parameter of a
 * `$n::text[]` (or `int[]`, `timestamptz[]`) placeholder.
 */
export function arrayLiteral(values: readonly (string | number)[]): string {
  return `{${values.map(quotedElement).join(",")}}`;
}

const quotedElement = (value: string | number) =>
  typeof value === "number"
    ? `"${value}"`
    : `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;

/**
 * A list as a SQL string literal of its array text, for a simple query (cast it: `::text[]`):
 * the way a transaction's keys are written into the statements that go as one round trip.
 */
export const sqlArrayLiteral = (values: readonly (string | number)[]): string =>
  sqlLiteral(arrayLiteral(values));
