/**
 * Reading PostgreSQL's plans (EXPLAIN (FORMAT JSON)) in tests that check how the real
 * statements are planned.
 */
import type pg from "pg";

export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Alias?: string;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

/**
 * The root of each named relation's partition tree (a relation that is not a partition maps
 * to itself), read from the catalog, so a test does not depend on how partitions are named.
 */
export async function partitionRoots(
  client: pg.Client,
  names: readonly string[],
): Promise<Map<string, string>> {
  const { rows } = await client.query<{ name: string; root: string }>(
    `SELECT c.relname AS name, coalesce(root.relname, c.relname) AS root
       FROM pg_class c
       LEFT JOIN pg_class root ON root.oid = pg_partition_root(c.oid)
      WHERE c.relname = ANY($1::text[])`,
    [names],
  );
  return new Map(rows.map((row) => [row.name, row.root]));
}

/** A PL/pgSQL function whose body is one `RETURN QUERY`: its parameters and that statement. */
export interface QueryFunction {
  parameters: string[];
  /** Each parameter's type, as SQL writes it (`text[]`). */
  types: string[];
  query: string;
}

/**
 * The database's functions that run one `RETURN QUERY` (ingest's join look-ups,
 * `routelens_waiting_joins` and `routelens_join_outcomes`: migration
 * 20261215000000_ingest_join_functions), read from the catalog: a plan of a call shows only a
 * function scan, so tests that plan the recorded statements plan the statement inside instead
 * (`inFunctionCall`).
 */
export async function queryFunctions(client: pg.Client): Promise<Map<string, QueryFunction>> {
  const { rows } = await client.query<{
    name: string;
    source: string;
    parameters: string[];
    types: string[];
  }>(
    `SELECT proname AS name, prosrc AS source, proargnames[1:pronargs] AS parameters,
            (SELECT array_agg(format_type(t, NULL) ORDER BY n)
               FROM unnest(proargtypes::oid[]) WITH ORDINALITY AS a(t, n)) AS types
       FROM pg_proc
      WHERE pronamespace = 'public'::regnamespace
        AND prolang = (SELECT oid FROM pg_language WHERE lanname = 'plpgsql')`,
  );
  const functions = new Map<string, QueryFunction>();
  for (const { name, source, parameters, types } of rows) {
    const query = /^\s*(?:#\w+ \w+\s*)?BEGIN\s+RETURN QUERY([\s\S]*);\s*END\s*$/.exec(source)?.[1];
    if (query !== undefined) functions.set(name, { parameters, types, query });
  }
  return functions;
}

/**
 * The statement inside a recorded `SELECT * FROM <function>(…)` of one of `functions`, twice:
 * with the call's arguments written in for the parameters (as PostgreSQL plans it at a
 * connection's first calls) and with `$1`, `$2`, … (as it plans it generically after); null
 * for any other statement.
 */
export function inFunctionCall(
  text: string,
  functions: ReadonlyMap<string, QueryFunction>,
): { withArguments: string; generic: string } | null {
  const call = /^\s*SELECT \* FROM (\w+)\(([\s\S]*)\)\s*$/.exec(text);
  const fn = call && functions.get(call[1] as string);
  if (!call || !fn) return null;
  const args = splitOutsideLiterals(call[2] as string, ",").map((arg) => arg.trim());
  if (args.length !== fn.parameters.length) {
    throw new Error(`${call[1]} called with ${args.length} arguments`);
  }
  const written = (replacement: (i: number) => string) =>
    fn.parameters.reduce(
      (query, name, i) => query.replaceAll(new RegExp(`\\b${name}\\b`, "g"), () => replacement(i)),
      fn.query,
    );
  return {
    withArguments: written((i) => args[i] as string),
    generic: written((i) => `$${i + 1}::${fn.types[i]}`),
  };
}

/**
 * A simple query's text split at `separator` outside quoted literals (`'…'` with doubled
 * quotes, and `E'…'` with backslash escapes, as the driver's `escapeLiteral` and
 * lib/db/sql-literal.ts write them): its statements at `;`, a call's arguments at `,`.
 */
export function splitOutsideLiterals(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  let backslashes = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (backslashes && c === "\\") i++;
      else if (c === "'" && text[i + 1] === "'") i++;
      else if (c === "'") quoted = false;
    } else if (c === "'") {
      quoted = true;
      backslashes = /(?:^|[^\w])[Ee]$/.test(text.slice(Math.max(0, i - 2), i));
    } else if (c === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
