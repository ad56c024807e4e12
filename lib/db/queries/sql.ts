import "server-only";

/** Collects positional parameters while a query's text is assembled: `where.push(\`x = ${p.add(v)}\`)`. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** `WHERE a AND b`, or nothing. */
export function whereClause(conditions: readonly string[]): string {
  return conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "";
}

/** A LIKE pattern matching values that start with `prefix` (wildcards in it are literal). */
export function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
