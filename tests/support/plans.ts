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
