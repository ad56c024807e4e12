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
 * Ingest's join look-ups (`routelens_waiting_joins`, `routelens_join_outcomes`; migration
 * 20261215000000_ingest_join_functions), read from the catalog: a plan of a call shows only a
 * function scan, so tests that plan the recorded statements plan the statement inside instead
 * (`inFunctionCall`).
 */
export async function ingestJoinFunctions(client: pg.Client): Promise<Map<string, QueryFunction>> {
  const { rows } = await client.query<{
    name: string;
    source: string;
    parameters: string[];
    types: string[];
  }>(
    `SELECT proname AS name, prosrc AS source, proargnames[1:pronargs] AS parameters,
            (SELECT array_agg(format_type(t, NULL) ORDER BY n)
               FROM unnest(proargtypes::oid[]) WITH ORDINALITY AS a(t, n)) AS types
       FROM pg_proc WHERE proname IN ('routelens_waiting_joins', 'routelens_join_outcomes')`,
  );
  const functions = new Map<string, QueryFunction>();
  for (const { name, source, parameters, types } of rows) {
    const query = /RETURN QUERY([\s\S]*);\s*END\s*$/.exec(source)?.[1];
    if (query === undefined) throw new Error(`${name} is not one RETURN QUERY`);
    functions.set(name, { parameters, types, query });
  }
  if (functions.size !== 2) throw new Error("ingest's join functions are missing");
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
  const args = topLevelArguments(call[2] as string);
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

/** A call's argument list split at its top-level commas (string literals kept whole). */
function topLevelArguments(list: string): string[] {
  const args: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === "'") quoted = !quoted;
    else if (list[i] === "," && !quoted) {
      args.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  args.push(list.slice(start).trim());
  return args;
}
