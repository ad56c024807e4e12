/**
 * `npm run dev`: the whole app on one command.
 *
 * Without DATABASE_URL it starts (or reuses) an embedded PostgreSQL with its data under
 * `.data/pg`; with DATABASE_URL it uses that server and starts nothing. Then it applies
 * migrations, loads demo traffic into an empty database, and serves Next.js on PORT.
 * Ctrl-C stops the server and the database it started.
 */
import { spawn } from "node:child_process";
import { migrate } from "@/lib/db/migrate";
import { env } from "@/lib/env";
import { ensureDatabase, type LocalPostgres, startLocalPostgres } from "./lib/local-postgres";

const log = (line: string) => console.log(`[routelens] ${line}`);

async function main() {
  const config = env();
  let database: LocalPostgres | null = null;
  let databaseUrl = config.DATABASE_URL;

  if (!databaseUrl) {
    const port = Number(process.env.ROUTELENS_PG_PORT ?? 54329);
    database = await startLocalPostgres({ dataDir: ".data/pg", port, log });
    await ensureDatabase(database.adminUrl, "routelens");
    databaseUrl = database.urlFor("routelens");
  } else {
    log("using the PostgreSQL at DATABASE_URL");
  }

  const result = await migrate(databaseUrl, { log });
  log(`migrations: ${result.applied.length} applied, ${result.alreadyApplied} already in place`);

  const next = spawn("npx", ["--no-install", "next", "dev", "--port", String(config.PORT)], {
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (next.exitCode === null) next.kill("SIGTERM");
    if (database) {
      log("stopping PostgreSQL");
      await database.stop();
    }
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  next.on("exit", (code) => void stop(code ?? 0));
}

main().catch((error: unknown) => {
  console.error(`[routelens] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
