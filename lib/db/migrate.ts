/**
 * The project's migrator (SPEC §4). Applies `prisma/migrations/<timestamp>_<name>/migration.sql`
 * in order, each in its own transaction, under the same PostgreSQL advisory lock Prisma takes,
 * and records each in `_prisma_migrations` exactly as `prisma migrate deploy` does
 * (checksum = SHA-256 of the file), so both tools agree on what is applied.
 */
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

/** The advisory lock key Prisma's migrate engine uses. */
const MIGRATION_LOCK_KEY = 72707369;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

export class MigrationError extends Error {
  override name = "MigrationError";
}

export const DEFAULT_MIGRATIONS_DIR = path.resolve(process.cwd(), "prisma/migrations");

export async function readMigrations(dir = DEFAULT_MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/** Applies every pending migration to the database at `databaseUrl`. */
export async function migrate(
  databaseUrl: string,
  { dir = DEFAULT_MIGRATIONS_DIR, log = (_: string) => {} } = {},
): Promise<MigrateResult> {
  const migrations = await readMigrations(dir);
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query("SET client_min_messages = warning");
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await client.query(CREATE_MIGRATIONS_TABLE);
      const { rows } = await client.query<AppliedRow>(
        `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
      );
      const applied = new Map<string, AppliedRow>();
      for (const row of rows) {
        if (row.rolled_back_at !== null) continue;
        if (row.finished_at === null) {
          throw new MigrationError(
            `Migration ${row.migration_name} started but never finished; inspect the database, then mark it rolled back (rolled_back_at) or finished in _prisma_migrations.`,
          );
        }
        applied.set(row.migration_name, row);
      }
      for (const migration of migrations) {
        const row = applied.get(migration.name);
        if (row && row.checksum !== migration.checksum) {
          throw new MigrationError(
            `Migration ${migration.name} was changed after it was applied (checksum ${row.checksum.slice(0, 12)}… in the database, ${migration.checksum.slice(0, 12)}… on disk). Restore the file and put the change in a new migration.`,
          );
        }
      }
      const pending = migrations.filter((migration) => !applied.has(migration.name));
      for (const migration of pending) {
        log(`applying ${migration.name}`);
        await applyOne(client, migration);
      }
      return { applied: pending.map((m) => m.name), alreadyApplied: applied.size };
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

async function applyOne(client: pg.Client, migration: MigrationFile): Promise<void> {
  await client.query("BEGIN");
  try {
    const started = new Date();
    await client.query(migration.sql);
    await client.query(
      `INSERT INTO "_prisma_migrations"
         (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
       VALUES ($1, $2, now(), $3, NULL, NULL, $4, 1)`,
      [randomUUID(), migration.checksum, migration.name, started],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${reason}`);
  }
}
