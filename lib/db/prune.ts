/**
 * Retention: removes raw rows and rollups older than a horizon. The time-partitioned raw tables
 * (`decisions`, `outcomes`, lib/db/partitions.ts) lose every week partition that lies wholly
 * before the horizon at once (DROP TABLE: the same short time whatever its size); rows before
 * the horizon are deleted only in the week that straddles it and in the default partition. The
 * other tables are deleted from in short transactions of a bounded number of rows each, so
 * ingest keeps running while a large prune is under way. Tool lists (`palettes`) no decision
 * from the horizon on names go first (lib/ingest/palettes.ts says why first).
 */
import type pg from "pg";
import { prunePalettes } from "@/lib/ingest/palettes";
import { listPartitions, PARTITIONED_TABLES } from "./partitions";
import { TENANT_TABLES, type TenantTableName } from "./tenant-tables";
import { inTransactionOn } from "./transaction";

export interface PruneResult {
  decisions: number;
  outcomes: number;
  runs: number;
  /** OpenTelemetry LLM-call and tool-run spans. */
  spans: number;
  rollupRows: number;
  /** Tool lists no decision from the horizon on names. */
  palettes: number;
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

  const palettes = await prunePalettes(pool, horizon, {
    chunkSize,
    onChunk: progress("palettes"),
  });
  const deleted = new Map<TenantTableName, number>();
  const partitions = await listPartitions(pool);
  const partitioned = new Set<string>(PARTITIONED_TABLES);
  for (const table of PARTITIONED_TABLES) {
    let total = 0;
    for (const partition of partitions.filter((p) => p.table === table)) {
      if (partition.to !== null && partition.to.getTime() <= horizon.getTime()) {
        const dropped = await dropPartition(pool, partition.name);
        total += dropped;
        onProgress(table, dropped);
      } else if (partition.from === null || partition.from.getTime() < horizon.getTime()) {
        total += await deleteInChunks(
          pool,
          chunked(partition.name, "ts"),
          [horizon],
          progress(table),
        );
      }
    }
    deleted.set(table, total);
  }
  for (const table of TENANT_TABLES) {
    if (partitioned.has(table.name)) continue;
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
    palettes,
  };
}

/**
 * Drops one partition of a raw table; returns the rows it held. The partition is locked first,
 * so the count is of exactly the rows dropped.
 */
async function dropPartition(pool: pg.Pool, name: string): Promise<number> {
  return inTransactionOn(pool, async (client) => {
    await client.query(`LOCK TABLE "${name}" IN ACCESS EXCLUSIVE MODE`);
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${name}"`);
    await client.query(`DROP TABLE "${name}"`);
    return Number(rows[0]?.n ?? 0);
  });
}
