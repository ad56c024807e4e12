/**
 * The scratch database of a benchmark or fuzz run: a new database, with the schema migrated,
 * on the shared PostgreSQL in `.data/bench-pg` (started unless one is already running there).
 */
import { migrate } from "@/lib/db/migrate";
import {
  dropDatabase,
  ensureDatabase,
  type LocalPostgres,
  startLocalPostgres,
} from "./local-postgres";

export interface ScratchDatabase {
  server: LocalPostgres;
  /** `<prefix>_<milliseconds since 1970>`. */
  name: string;
  url: string;
  /** Drops the database, and stops PostgreSQL unless it was running before. */
  drop(): Promise<void>;
}

export async function startScratchDatabase(
  prefix: string,
  log: (line: string) => void,
): Promise<ScratchDatabase> {
  const server = await startLocalPostgres({ dataDir: ".data/bench-pg", port: 0, log });
  const name = `${prefix}_${Date.now()}`;
  await ensureDatabase(server.adminUrl, name);
  const url = server.urlFor(name);
  await migrate(url);
  return {
    server,
    name,
    url,
    async drop() {
      await dropDatabase(server.adminUrl, name).catch(() => {});
      if (!server.reused) await server.stop();
    },
  };
}
