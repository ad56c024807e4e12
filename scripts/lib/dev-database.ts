/**
 * Command-line scripts run against DATABASE_URL when it is set, and otherwise against the
 * development database that `npm run dev` uses (.data/pg): reused when it is running, started
 * for the length of the command when it is not.
 */
import { migrate } from "@/lib/db/migrate";
import { ensureDatabase, type LocalPostgres, startLocalPostgres } from "./local-postgres";

export const DEV_DATA_DIR = ".data/pg";
export const DEV_DATABASE = "routelens";

export function devPostgresPort(): number {
  return Number(process.env.ROUTELENS_PG_PORT ?? 54329);
}

export interface DevDatabase {
  url: string;
  /** The embedded server, when DATABASE_URL was not set. */
  server: LocalPostgres | null;
  close(): Promise<void>;
}

/** Resolves the database, applies migrations and exports DATABASE_URL for lib/ modules. */
export async function openDevDatabase(
  log: (line: string) => void = () => {},
): Promise<DevDatabase> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) {
    await migrate(fromEnv, { log });
    return { url: fromEnv, server: null, close: async () => {} };
  }
  const server = await startLocalPostgres({
    dataDir: DEV_DATA_DIR,
    port: devPostgresPort(),
    log,
  });
  await ensureDatabase(server.adminUrl, DEV_DATABASE);
  const url = server.urlFor(DEV_DATABASE);
  await migrate(url, { log });
  process.env.DATABASE_URL = url;
  // A server this command started is stopped when it ends; one that was running stays up.
  return { url, server, close: () => (server.reused ? Promise.resolve() : server.stop()) };
}
