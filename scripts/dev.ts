/**
 * `npm run dev`: the whole app on one command.
 *
 * Without DATABASE_URL it starts an embedded PostgreSQL with its data under `.data/pg` (or
 * reuses one a crashed run left running); with DATABASE_URL it uses that server and starts
 * nothing. It applies migrations, loads demo traffic into an empty database (unless
 * ROUTELENS_DEMO=0), and serves Next.js on PORT. Ctrl-C stops the server and the embedded
 * database.
 */
import { spawn } from "node:child_process";
import { env } from "@/lib/env";
import { openDevDatabase } from "./lib/dev-database";

const log = (line: string) => console.log(`[routelens] ${line}`);

async function main() {
  const config = env();
  if (config.DATABASE_URL) log("using the PostgreSQL at DATABASE_URL; starting no database");
  const database = await openDevDatabase(log);

  const next = spawn("npx", ["--no-install", "next", "dev", "--port", String(config.PORT)], {
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: database.url },
  });

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (next.exitCode === null) next.kill("SIGTERM");
    if (database.server) {
      log("stopping PostgreSQL");
      await database.server.stop();
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
