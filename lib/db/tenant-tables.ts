/**
 * The tables that hold a tenant's data: every one has a `tenant_id` column. Retention, the
 * demo reset, the benchmarks and the tests walk this list, so a new table is added once.
 * `dated` is the column retention compares with its horizon; a rollup's bucket is removed
 * only when all of it (`bucketMs`) lies before the horizon.
 */
export const TENANT_TABLES = [
  { name: "decisions", kind: "raw", dated: "ts" },
  { name: "outcomes", kind: "raw", dated: "ts" },
  { name: "decision_outcomes", kind: "raw", dated: "ts" },
  { name: "event_ids", kind: "raw", dated: "ts" },
  { name: "runs", kind: "summary", dated: "last_seen" },
  { name: "rollup_minute", kind: "rollup", dated: "bucket", bucketMs: 60_000 },
  { name: "rollup_hour", kind: "rollup", dated: "bucket", bucketMs: 3_600_000 },
  { name: "rollup_day", kind: "rollup", dated: "bucket", bucketMs: 86_400_000 },
  { name: "tool_rollup_hour", kind: "rollup", dated: "bucket", bucketMs: 3_600_000 },
  { name: "tool_rollup_day", kind: "rollup", dated: "bucket", bucketMs: 86_400_000 },
  { name: "otel_spans", kind: "raw", dated: "ts" },
  { name: "otel_call_rollup_hour", kind: "rollup", dated: "bucket", bucketMs: 3_600_000 },
] as const;

export type TenantTable = (typeof TENANT_TABLES)[number];
export type TenantTableName = TenantTable["name"];

export const TENANT_TABLE_NAMES: readonly TenantTableName[] = TENANT_TABLES.map((t) => t.name);

/**
 * The tenant's data tables, its tools' size estimates (kept as last seen, never pruned), its
 * tool lists (`palettes`, named by its decisions; pruned once no decision from the horizon on
 * names them, lib/ingest/palettes.ts) and its API keys: everything deleted with a tenant.
 */
export const TENANT_SCOPED_TABLES: readonly string[] = [
  ...TENANT_TABLE_NAMES,
  "tool_sizes",
  "palettes",
  "api_keys",
];
