/**
 * Time partitions of the raw tables (docs/PARTITIONS.md). `decisions`, `outcomes` and
 * `decision_outcomes` (a decision's outcome, dated by its decision) are partitioned by range of
 * `ts`, one partition per ISO week (Monday 00:00 UTC), named `<table>_p<yyyymmdd>` after the
 * week's Monday, plus `<table>_default` for any event of a week without one. Every server
 * process creates the partitions of the past four weeks and of the next two at start and once
 * a day (`routelens_create_week_partitions`, from the migration: idempotent and safe with
 * several processes at once), so ingest always finds the current week's partition, and a
 * backfill within the retention period finds its own.
 */
import type pg from "pg";

export const PARTITIONED_TABLES = ["decisions", "outcomes", "decision_outcomes"] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

const WEEK_MS = 7 * 86_400_000;
/** Weeks created behind and ahead of now. */
export const WEEKS_BEHIND = 4;
export const WEEKS_AHEAD = 2;

/** Creates the week partitions from `from` to `to` that do not exist; returns how many were. */
export async function createWeekPartitions(
  db: pg.Pool | pg.Client,
  from: Date,
  to: Date,
): Promise<number> {
  const { rows } = await db.query<{ created: number }>(
    "SELECT routelens_create_week_partitions($1, $2) AS created",
    [from, to],
  );
  return rows[0]?.created ?? 0;
}

/** The partitions a server keeps ready around `now`. */
export function createPartitionsAround(db: pg.Pool | pg.Client, now = new Date()) {
  return createWeekPartitions(
    db,
    new Date(now.getTime() - WEEKS_BEHIND * WEEK_MS),
    new Date(now.getTime() + WEEKS_AHEAD * WEEK_MS),
  );
}

export interface Partition {
  table: PartitionedTable;
  name: string;
  /** Null for the default partition. */
  from: Date | null;
  to: Date | null;
}

/** The partitions of the raw tables, oldest first, default partitions last. */
export async function listPartitions(db: pg.Pool | pg.Client): Promise<Partition[]> {
  const { rows } = await db.query<{
    parent: PartitionedTable;
    name: string;
    from_ms: string | null;
    to_ms: string | null;
  }>(
    // The bounds as PostgreSQL reads them back from the partition's definition.
    `SELECT p.relname AS parent, c.relname AS name,
            (extract(epoch FROM lower_bound) * 1000)::bigint AS from_ms,
            (extract(epoch FROM upper_bound) * 1000)::bigint AS to_ms
       FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
       JOIN pg_class p ON p.oid = i.inhparent
       JOIN pg_namespace n ON n.oid = p.relnamespace AND n.nspname = current_schema()
       LEFT JOIN LATERAL (
         SELECT (regexp_match(pg_get_expr(c.relpartbound, c.oid),
                   '^FOR VALUES FROM \\(''([^'']+)''\\) TO \\(''([^'']+)''\\)$')) AS m) AS b ON true
       LEFT JOIN LATERAL (
         SELECT b.m[1]::timestamptz AS lower_bound, b.m[2]::timestamptz AS upper_bound) AS r ON true
      WHERE p.relname = ANY($1::text[]) AND p.relkind = 'p'`,
    [PARTITIONED_TABLES],
  );
  const partitions = rows.map(
    (row): Partition => ({
      table: row.parent,
      name: row.name,
      from: row.from_ms === null ? null : new Date(Number(row.from_ms)),
      to: row.to_ms === null ? null : new Date(Number(row.to_ms)),
    }),
  );
  const order = (p: Partition) => p.from?.getTime() ?? Number.POSITIVE_INFINITY;
  return partitions.sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name));
}

const DAY_MS = 86_400_000;

/**
 * Keeps the partitions ready: now, then once a day, until the returned stop function is
 * called. A failure is reported and tried again at the next turn.
 */
export function keepPartitionsReady(
  db: pg.Pool,
  report: (error: unknown) => void,
): { ready: Promise<void>; stop: () => void } {
  const run = () => createPartitionsAround(db).then(() => undefined, report);
  const ready = run();
  const timer = setInterval(run, DAY_MS);
  timer.unref();
  return { ready, stop: () => clearInterval(timer) };
}
