/**
 * Compares a migrated database with what prisma/schema.prisma declares: tables, columns,
 * types, nullability, defaults, primary keys, unique constraints and indexes. Reads the schema
 * with Prisma's own parser (WebAssembly, offline), so it agrees with `prisma generate`.
 */
import { get_dmmf } from "@prisma/prisma-schema-wasm";
import type pg from "pg";

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: string;
  type: string;
  isList: boolean;
  isRequired: boolean;
  hasDefaultValue: boolean;
  default?: unknown;
  nativeType?: [string, string[]] | null;
}

interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}

interface DmmfIndex {
  model: string;
  type: "id" | "unique" | "normal" | "fulltext";
  dbName?: string | null;
  fields: { name: string; sortOrder?: "asc" | "desc" }[];
}

const SCALAR_TYPES: Record<string, string> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Boolean: "boolean",
  DateTime: "timestamp(3) without time zone",
  Float: "double precision",
  Json: "jsonb",
  Bytes: "bytea",
  Decimal: "numeric(65,30)",
};

function nativeTypeName(field: DmmfField): string {
  const native = field.nativeType;
  if (!native) return SCALAR_TYPES[field.type] ?? field.type.toLowerCase();
  const [name, args] = native;
  const arg = args.length > 0 ? `(${args.join(",")})` : "";
  switch (name) {
    case "VarChar":
      return `character varying${arg}`;
    case "Char":
      return `character${arg}`;
    case "Timestamptz":
      return `timestamp${arg} with time zone`;
    case "Timestamp":
      return `timestamp${arg} without time zone`;
    case "Uuid":
      return "uuid";
    case "Text":
      return "text";
    case "DoublePrecision":
      return "double precision";
    case "Integer":
      return "integer";
    default:
      return `${name.toLowerCase()}${arg}`;
  }
}

function expectedDefault(field: DmmfField): string {
  if (!field.hasDefaultValue) return "none";
  const value = field.default;
  if (value && typeof value === "object" && !Array.isArray(value) && "name" in value) {
    const fn = (value as { name: string }).name;
    if (fn === "autoincrement") return "sequence";
    if (fn === "now") return "now";
    return `function ${fn}`;
  }
  if (Array.isArray(value))
    return value.length === 0 ? "empty array" : `array ${JSON.stringify(value)}`;
  // The DMMF gives a BigInt default as a string ("0"); PostgreSQL stores the number.
  if (field.type === "BigInt" && typeof value === "string") return `value ${value}`;
  return `value ${JSON.stringify(value)}`;
}

function actualDefault(expression: string | null): string {
  if (expression === null) return "none";
  if (expression.startsWith("nextval(")) return "sequence";
  if (expression === "CURRENT_TIMESTAMP" || expression === "now()") return "now";
  if (/^ARRAY\[\]::/.test(expression) || expression === "'{}'::text[]") return "empty array";
  if (expression === "true" || expression === "false") return `value ${expression}`;
  const text = expression.match(/^'(.*)'::[\w\s]+$/);
  if (text) return `value ${JSON.stringify(text[1]?.replaceAll("''", "'"))}`;
  if (/^-?\d+(\.\d+)?$/.test(expression)) return `value ${expression}`;
  return `expression ${expression}`;
}

/** One line per column and per index, as the schema declares them. */
export function describeSchema(schemaText: string): string[] {
  const dmmf = JSON.parse(
    get_dmmf(JSON.stringify({ prismaSchema: [["schema.prisma", schemaText]] })),
  );
  const models = dmmf.datamodel.models as DmmfModel[];
  const lines: string[] = [];
  const tableOf = new Map<string, { table: string; columns: Map<string, string> }>();
  for (const model of models) {
    const table = model.dbName ?? model.name;
    const columns = new Map<string, string>();
    for (const field of model.fields) {
      if (field.kind !== "scalar" && field.kind !== "enum") continue;
      const column = field.dbName ?? field.name;
      columns.set(field.name, column);
      const type = nativeTypeName(field) + (field.isList ? "[]" : "");
      const nullable = field.isList || !field.isRequired ? "null" : "not null";
      lines.push(`column ${table}.${column} ${type} ${nullable} default ${expectedDefault(field)}`);
    }
    tableOf.set(model.name, { table, columns });
  }
  for (const index of dmmf.datamodel.indexes as DmmfIndex[]) {
    const model = tableOf.get(index.model);
    if (!model) continue;
    const columns = index.fields.map((f) => model.columns.get(f.name) ?? f.name);
    const name =
      index.dbName ??
      (index.type === "id"
        ? `${model.table}_pkey`
        : `${model.table}_${columns.join("_")}_${index.type === "unique" ? "key" : "idx"}`);
    const kind = index.type === "id" ? "primary" : index.type === "unique" ? "unique" : "index";
    const parts = index.fields.map(
      (f, i) => `${columns[i]}${f.sortOrder === "desc" ? " desc" : ""}`,
    );
    lines.push(`${kind} ${model.table}.${name} (${parts.join(", ")})`);
  }
  return lines.sort();
}

/**
 * The same lines, read from the live database (everything but Prisma's own table). A
 * partitioned table is described by its parent; its partitions are checked by
 * `describePartitions`.
 */
export async function describeDatabase(client: pg.Client): Promise<string[]> {
  const lines: string[] = [];
  const columns = await client.query<{
    table_name: string;
    column_name: string;
    type: string;
    not_null: boolean;
    default_expr: string | null;
  }>(`
    SELECT c.relname AS table_name, a.attname AS column_name,
           format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
           pg_get_expr(d.adbin, d.adrelid) AS default_expr
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relname <> '_prisma_migrations'`);
  for (const row of columns.rows) {
    const type =
      row.type === "timestamp(3) with time zone" ? "timestamp(3) with time zone" : row.type;
    lines.push(
      `column ${row.table_name}.${row.column_name} ${type} ${row.not_null ? "not null" : "null"} default ${actualDefault(row.default_expr)}`,
    );
  }
  const indexes = await client.query<{
    table_name: string;
    index_name: string;
    is_primary: boolean;
    is_unique: boolean;
    columns: string[];
  }>(`
    SELECT t.relname AS table_name, i.relname AS index_name, x.indisprimary AS is_primary,
           x.indisunique AS is_unique,
           ARRAY(
             SELECT a.attname || CASE WHEN (x.indoption[k.n - 1] & 1) = 1 THEN ' desc' ELSE '' END
               FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
               JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
              ORDER BY k.n) AS columns
      FROM pg_index x
      JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_class i ON i.oid = x.indexrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
     WHERE t.relname <> '_prisma_migrations' AND NOT t.relispartition`);
  for (const row of indexes.rows) {
    const kind = row.is_primary ? "primary" : row.is_unique ? "unique" : "index";
    lines.push(`${kind} ${row.table_name}.${row.index_name} (${row.columns.join(", ")})`);
  }
  return lines.sort();
}

/**
 * What a partition lacks of its parent: one line per column whose type or nullability differs
 * and per index of the parent with no index of the partition attached to it. Empty when every
 * partition matches its parent.
 */
export async function describePartitions(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ problem: string }>(`
    WITH parts AS (
      SELECT i.inhparent AS parent, i.inhrelid AS part FROM pg_inherits i
        JOIN pg_class p ON p.oid = i.inhparent AND p.relkind = 'p'
        JOIN pg_namespace n ON n.oid = p.relnamespace AND n.nspname = current_schema())
    SELECT format('column %s.%s %s %s', c.relname, pa.attname,
                  format_type(pa.atttypid, pa.atttypmod),
                  CASE WHEN pa.attnotnull THEN 'not null' ELSE 'null' END) AS problem
      FROM parts
      JOIN pg_class c ON c.oid = parts.part
      JOIN pg_attribute pa ON pa.attrelid = parts.parent AND pa.attnum > 0 AND NOT pa.attisdropped
      LEFT JOIN pg_attribute ca ON ca.attrelid = parts.part AND ca.attname = pa.attname
                               AND NOT ca.attisdropped
     WHERE ca.attname IS NULL OR ca.atttypid <> pa.atttypid OR ca.atttypmod <> pa.atttypmod
        OR ca.attnotnull <> pa.attnotnull
    UNION ALL
    SELECT format('index %s missing for %s', pi.relname, c.relname)
      FROM parts
      JOIN pg_class c ON c.oid = parts.part
      JOIN pg_index px ON px.indrelid = parts.parent
      JOIN pg_class pi ON pi.oid = px.indexrelid
     WHERE NOT EXISTS (
       SELECT 1 FROM pg_inherits ii JOIN pg_index cx ON cx.indexrelid = ii.inhrelid
        WHERE ii.inhparent = px.indexrelid AND cx.indrelid = parts.part)
     ORDER BY 1`);
  return rows.map((row) => row.problem);
}

export interface Drift {
  missingInDatabase: string[];
  notInSchema: string[];
}

export function compareSchema(expected: string[], actual: string[]): Drift {
  const have = new Set(actual);
  const want = new Set(expected);
  return {
    missingInDatabase: expected.filter((line) => !have.has(line)),
    notInSchema: actual.filter((line) => !want.has(line)),
  };
}
