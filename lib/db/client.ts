/**
 * The one database client of a process: a pg pool shared by Prisma (through the driver
 * adapter) and by the raw-SQL hot paths. Connection attempts are bounded so a request never
 * hangs on a database that is gone.
 */
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/generated/prisma/client";
import { env } from "@/lib/env";

interface Db {
  pool: pg.Pool;
  prisma: PrismaClient;
}

const globalForDb = globalThis as unknown as { routelensDb?: Db };

// BIGINT sums and counts arrive as strings by default; they fit in a double for every total
// Routelens shows, so parse them as numbers once here.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

function createDb(): Db {
  const { DATABASE_URL, DATABASE_POOL_MAX, DATABASE_CONNECT_TIMEOUT_MS } = env();
  if (!DATABASE_URL) {
    throw new Error(
      "DATABASE_URL is not set: start the app with `npm run dev` (which starts an embedded PostgreSQL) or set DATABASE_URL to a postgresql:// URL.",
    );
  }
  const pool = new pg.Pool({
    connectionString: DATABASE_URL,
    max: DATABASE_POOL_MAX,
    connectionTimeoutMillis: DATABASE_CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
  });
  // An idle client whose server went away must not crash the process.
  pool.on("error", () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return { pool, prisma };
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
