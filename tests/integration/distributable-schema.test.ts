/**
 * The schema stays distributable by tenant (lib/db/distribution.ts): read from the live
 * catalog of the migrated database, every table is listed as distributed or reference, every
 * primary key and unique index of a distributed table contains tenant_id, and no foreign key
 * joins two distributed tables except through tenant_id on both sides.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DISTRIBUTED_TABLES, REFERENCE_TABLES } from "@/lib/db/distribution";

let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
});
afterAll(() => db.end());

const distributed = new Set<string>(DISTRIBUTED_TABLES);

/** Tables of the schema, partitions left out (they follow their parent's keys). */
async function tables(): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> '_prisma_migrations'
      ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}

describe("distributable schema", () => {
  it("lists every table once, as distributed by tenant_id or as a reference table", async () => {
    const names = await tables();
    const listed = [...DISTRIBUTED_TABLES, ...Object.keys(REFERENCE_TABLES)].sort();
    expect(new Set(listed).size).toBe(listed.length);
    expect(names).toEqual(listed);
  });

  it("gives every distributed table a tenant_id column that is never NULL", async () => {
    const { rows } = await db.query<{ table: string; not_null: boolean | null }>(
      `SELECT t.name AS table, a.attnotnull AS not_null
         FROM unnest($1::text[]) AS t(name)
         LEFT JOIN pg_attribute a ON a.attrelid = to_regclass(t.name) AND a.attname = 'tenant_id'
        ORDER BY 1`,
      [DISTRIBUTED_TABLES],
    );
    expect(rows.filter((r) => r.not_null !== true)).toEqual([]);
  });

  it("puts tenant_id in every primary key and unique index of a distributed table", async () => {
    const { rows } = await db.query<{ table: string; index: string; columns: string[] }>(
      `SELECT t.relname AS table, i.relname AS index,
              ARRAY(SELECT a.attname FROM unnest(x.indkey) AS k(attnum)
                      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS columns
         FROM pg_index x
         JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_class i ON i.oid = x.indexrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
        WHERE (x.indisprimary OR x.indisunique) AND t.relname = ANY($1::text[])
        ORDER BY 1, 2`,
      [DISTRIBUTED_TABLES],
    );
    // Each distributed table has a primary key; none of its unique keys leaves tenant_id out.
    expect(new Set(rows.map((r) => r.table))).toEqual(distributed);
    expect(rows.filter((r) => !r.columns.includes("tenant_id"))).toEqual([]);
  });

  it("joins two distributed tables by foreign key only through tenant_id on both sides", async () => {
    const { rows } = await db.query<{
      name: string;
      from: string;
      to: string;
      from_columns: string[];
      to_columns: string[];
    }>(
      `SELECT c.conname AS name, f.relname AS from, r.relname AS to,
              ARRAY(SELECT a.attname FROM unnest(c.conkey) AS k(n)
                      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n) AS from_columns,
              ARRAY(SELECT a.attname FROM unnest(c.confkey) AS k(n)
                      JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n) AS to_columns
         FROM pg_constraint c
         JOIN pg_class f ON f.oid = c.conrelid
         JOIN pg_class r ON r.oid = c.confrelid
         JOIN pg_namespace n ON n.oid = f.relnamespace AND n.nspname = current_schema()
        WHERE c.contype = 'f' AND NOT f.relispartition`,
    );
    const crossing = rows.filter(
      (fk) =>
        distributed.has(fk.from) &&
        distributed.has(fk.to) &&
        !(fk.from_columns.includes("tenant_id") && fk.to_columns.includes("tenant_id")),
    );
    expect(crossing).toEqual([]);
    // A reference table never points at a distributed one (Citus cannot keep that key).
    const fromReference = rows.filter((fk) => !distributed.has(fk.from) && distributed.has(fk.to));
    expect(fromReference).toEqual([]);
  });
});
