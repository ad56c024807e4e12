/**
 * The pool's connections, opened and warmed when a server starts.
 *
 * A PostgreSQL connection's first statements on a table are slow: the new backend reads the
 * table's catalog entries — its columns, its indexes, and for `decisions` and `outcomes` every
 * week partition with its own indexes — into its caches before it can plan anything. Measured
 * under `npm run bench:hostile`: a bystander's ingest transaction took 41–308 ms (median
 * about 70) on a connection's first use and 42 ms on average after it, and with the pool
 * opening connections as concurrent requests needed them, those first uses were most of the
 * slowest answers of every load.
 *
 * So each server opens its pool's connections at start (`DATABASE_POOL_MAX`) and plans, on
 * each, a statement that reads every table ingest and the dashboard use by tenant — planned,
 * not run (EXPLAIN), which is what loads the caches — and the pool keeps them open while the
 * process lives (`idleTimeoutMillis: 0`, lib/db/client.ts). Best effort: a database that is
 * not migrated yet, or unreachable, is left to the requests to report.
 */
import type pg from "pg";
import { TENANT_SCOPED_TABLES } from "./tenant-tables";

/** One statement over every tenant table, each read by `tenant_id` as every reader does. */
export const WARM_STATEMENT = `EXPLAIN ${TENANT_SCOPED_TABLES.map(
  (table) => `SELECT 1 FROM ${table} WHERE tenant_id = ''`,
).join(" UNION ALL ")}`;

/** Opens `count` connections of `pool` at once and plans `WARM_STATEMENT` on each. */
export async function warmConnections(pool: pg.Pool, count: number): Promise<number> {
  const opened = await Promise.allSettled(Array.from({ length: count }, () => pool.connect()));
  const clients = opened.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  let warmed = 0;
  await Promise.all(
    clients.map(async (client) => {
      try {
        await client.query(WARM_STATEMENT);
        warmed += 1;
        client.release();
      } catch (error) {
        client.release(error instanceof Error ? error : true);
      }
    }),
  );
  return warmed;
}
