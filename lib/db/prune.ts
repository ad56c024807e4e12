/**
 * Retention: deletes raw rows and rollups older than a horizon, in short transactions of a
 * bounded number of rows each, so ingest keeps running while a large prune is under way.
 */
import type pg from "pg";

export interface PruneResult {
  decisions: number;
  outcomes: number;
  runs: number;
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

  const decisions = await deleteInChunks(
    pool,
    chunked("decisions", "ts"),
    [horizon],
    progress("decisions"),
  );
  const outcomes = await deleteInChunks(
    pool,
    chunked("outcomes", "ts"),
    [horizon],
    progress("outcomes"),
  );
  const runs = await deleteInChunks(
    pool,
    chunked("runs", "last_seen"),
    [horizon],
    progress("runs"),
  );
  let rollupRows = 0;
  // A bucket is removed only when all of it lies before the horizon.
  rollupRows += await deleteInChunks(
    pool,
    chunked("rollup_minute", "bucket"),
    [new Date(Math.floor(horizon.getTime() / 60_000) * 60_000)],
    progress("rollup_minute"),
  );
  const hour = new Date(Math.floor(horizon.getTime() / 3_600_000) * 3_600_000);
  rollupRows += await deleteInChunks(
    pool,
    chunked("rollup_hour", "bucket"),
    [hour],
    progress("rollup_hour"),
  );
  rollupRows += await deleteInChunks(
    pool,
    chunked("tool_rollup_hour", "bucket"),
    [hour],
    progress("tool_rollup_hour"),
  );
  return { decisions, outcomes, runs, rollupRows };
}
