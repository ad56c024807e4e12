/**
 * Retention: deletes raw rows and rollups older than a horizon, in short transactions of a
 * bounded number of rows each, so ingest keeps running while a large prune is under way.
 */
import type pg from "pg";
import { TENANT_TABLES, type TenantTableName } from "./tenant-tables";

export interface PruneResult {
  decisions: number;
  outcomes: number;
  runs: number;
  /** OpenTelemetry LLM-call and tool-run spans. */
  spans: number;
  rollupRows: number;
}

const DURATION = /^(\d+)(m|h|d|w)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** Parses `30d`, `12h`, `90m`, `2w` into milliseconds; null when malformed. */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  if (!match) return null;
  const amount = Number(match[1]);
  const unit = match[2] as keyof typeof UNIT_MS;
  return amount > 0 ? amount * UNIT_MS[unit] : null;
}

async function deleteInChunks(
  pool: pg.Pool,
  sql: string,
  params: unknown[],
  onChunk: (deleted: number) => void,
): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await pool.query(sql, params);
    const deleted = rowCount ?? 0;
    total += deleted;
    if (deleted > 0) onChunk(deleted);
    if (deleted === 0) return total;
  }
}

export async function pruneOlderThan(
  pool: pg.Pool,
  horizon: Date,
  { chunkSize = 5_000, onProgress = (_table: string, _deleted: number) => {} } = {},
): Promise<PruneResult> {
  const chunked = (table: string, column: string) =>
    `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
       SELECT ctid FROM ${table} WHERE ${column} < $1 LIMIT ${chunkSize}))`;
  const progress = (table: string) => (deleted: number) => onProgress(table, deleted);

  const deleted = new Map<TenantTableName, number>();
  for (const table of TENANT_TABLES) {
    // A bucket is removed only when all of it lies before the horizon.
    const before =
      "bucketMs" in table
        ? new Date(Math.floor(horizon.getTime() / table.bucketMs) * table.bucketMs)
        : horizon;
    deleted.set(
      table.name,
      await deleteInChunks(pool, chunked(table.name, table.dated), [before], progress(table.name)),
    );
  }
  const count = (name: TenantTableName) => deleted.get(name) ?? 0;
  return {
    decisions: count("decisions"),
    outcomes: count("outcomes"),
    runs: count("runs"),
    spans: count("otel_spans"),
    rollupRows: TENANT_TABLES.filter((t) => t.kind === "rollup").reduce(
      (sum, t) => sum + count(t.name),
      0,
    ),
  };
}
