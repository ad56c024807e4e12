/**
 * The database clients of a process: a pg pool shared by Prisma (through the driver adapter)
 * and by the raw-SQL hot paths, and one connection of its own for the health check.
 * Connection attempts are bounded so a request never hangs on a database that is gone.
 */
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/generated/prisma/client";
import { env } from "@/lib/env";

interface Db {
  pool: pg.Pool;
  prisma: PrismaClient;
  /**
   * At most one connection, used by `GET /api/health` alone: the check proves that PostgreSQL
   * answers, so it must not wait for a free connection of the shared pool, which a busy ingest
   * load may hold entirely. Kept open while idle; a connection that fails is dropped by the
   * pool and the next check opens a new one.
   */
  healthPool: pg.Pool;
}

/** Longest a health query may run before its connection is given up. */
const HEALTH_QUERY_TIMEOUT_MS = 2_000;

const globalForDb = globalThis as unknown as { routelensDb?: Db };

// BIGINT sums and counts arrive as strings by default; they fit in a double for every total
// Routelens shows, so parse them as numbers once here.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

function createDb(): Db {
  const {
    DATABASE_URL,
    DATABASE_POOL_MAX,
    DATABASE_CONNECT_TIMEOUT_MS,
    DATABASE_PARALLEL_WORKERS,
    DATABASE_WORK_MEM_MB,
  } = env();
  if (!DATABASE_URL) {
    throw new Error(
      "DATABASE_URL is not set: start the app with `npm run dev` (which starts an embedded PostgreSQL) or set DATABASE_URL to a postgresql:// URL.",
    );
  }
  const pool = new pg.Pool({
    connectionString: DATABASE_URL,
    max: DATABASE_POOL_MAX,
    connectionTimeoutMillis: DATABASE_CONNECT_TIMEOUT_MS,
    // 0: connections stay open while the process lives. A new connection's first statements
    // wait while its backend reads the tables' catalog entries (tens to hundreds of ms under
    // load), so the server opens and warms them at start (lib/db/warm-connections.ts) and
    // keeps them, rather than paying that again after every quiet spell.
    idleTimeoutMillis: 0,
    // Set when each connection opens, so no query pays a round trip for them.
    options: `-c max_parallel_workers_per_gather=${DATABASE_PARALLEL_WORKERS} -c work_mem=${DATABASE_WORK_MEM_MB}MB`,
  });
  const healthPool = new pg.Pool({
    connectionString: DATABASE_URL,
    max: 1,
    connectionTimeoutMillis: DATABASE_CONNECT_TIMEOUT_MS,
    // 0: the one connection stays open between checks instead of being reopened each time.
    idleTimeoutMillis: 0,
    // A check whose query hangs (a server that stopped answering without closing the
    // connection) fails, and the pool drops that connection, so the next check opens a new one.
    query_timeout: HEALTH_QUERY_TIMEOUT_MS,
  });
  // An idle client whose server went away must not crash the process.
  pool.on("error", () => {});
  healthPool.on("error", () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return { pool, prisma, healthPool };
}

function db(): Db {
  globalForDb.routelensDb ??= createDb();
  return globalForDb.routelensDb;
}

export function getPool(): pg.Pool {
  return db().pool;
}

export function getPrisma(): PrismaClient {
  return db().prisma;
}

/** The health check's own connection (see `Db.healthPool`); for `lib/db/health.ts` only. */
export function getHealthPool(): pg.Pool {
  return db().healthPool;
}
