/**
 * `npm run bench:backfill` — how long `npm run simulate -- --backfill 7d` takes against the
 * production server on a fresh database.
 *
 * Starts a scratch embedded PostgreSQL and the production build (`npm start`'s server) on a new
 * database, gives each demo tenant an API key, then runs the simulator exactly as a user would
 * (`scripts/simulate.ts --backfill <span> --keys-file …` in a process of its own) and prints its
 * summary line, the wall-clock time, the decisions and outcomes stored (counted in the
 * database), and the CPU seconds of the simulator, the server and PostgreSQL.
 *
 *   npm run bench:backfill -- [--span 7d] [--repeat 1] [--profile <dir>]
 *
 * `--profile` writes V8 CPU profiles of the simulator and of the server into that directory.
 *
 * Linux only (reads /proc for CPU time). Figures are printed; nothing is asserted.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { migrate } from "@/lib/db/migrate";
import { DEMO_PROFILES } from "@/lib/demo/profiles";
import { ensureBuild, startAppServer } from "./lib/app-server";
import { parseCommandLine, positiveWholeNumber } from "./lib/command-line";
import { dropDatabase, ensureDatabase, startLocalPostgres } from "./lib/local-postgres";
import { cpuSeconds, cpuSecondsOf, isPostgresOf, postmasterOf } from "./lib/process-cpu";
import { seedApiKey } from "./lib/seed-key";

/** Runs the simulator to the end; its output and CPU seconds (from the child's rusage). */
function runSimulator(
  args: string[],
  profileDir: string | undefined,
): Promise<{ output: string; cpu: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // One process (tsx as a loader, not its CLI, which would start a second one).
    const profile = profileDir
      ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir, "simulator")}`]
      : [];
    const child = spawn(
      process.execPath,
      [...profile, "--import", "tsx", "scripts/simulate.ts", ...args],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      output += text;
    });
    let cpu = 0;
    const sample = setInterval(() => {
      const pid = child.pid;
      if (pid) cpu = Math.max(cpu, cpuSecondsOf(pid));
    }, 200);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearInterval(sample);
      const seconds = (performance.now() - started) / 1000;
      if (code === 0) resolve({ output: output.trim(), cpu, seconds });
      else reject(new Error(`simulate exited with code ${code}:\n${output}`));
    });
  });
}

async function main() {
  const { values } = parseCommandLine(
    { span: { type: "string" }, repeat: { type: "string" }, profile: { type: "string" } },
    "usage: npm run bench:backfill -- [--span 7d] [--repeat 1] [--profile <dir>]",
  );
  const profileDir = values.profile;
  const span = values.span ?? "7d";
  const repeat = positiveWholeNumber("repeat", values.repeat, 1);
  const log = (line: string) => console.error(`· ${line}`);
  ensureBuild(log);
  const postgres = await startLocalPostgres({ dataDir: ".data/bench-pg", port: 0, log });
  const postmaster = postmasterOf(path.resolve(".data/bench-pg"));
  const scratch = mkdtempSync(path.join(tmpdir(), "routelens-backfill-"));
  try {
    for (let round = 1; round <= repeat; round++) {
      const database = `bench_backfill_${Date.now()}`;
      const url = postgres.urlFor(database);
      await ensureDatabase(postgres.adminUrl, database);
      await migrate(url);
      const keys: Record<string, string> = {};
      for (const { tenantId } of DEMO_PROFILES) keys[tenantId] = await seedApiKey(url, tenantId);
      const keysFile = path.join(scratch, `keys-${round}.json`);
      writeFileSync(keysFile, JSON.stringify(keys));
      const app = await startAppServer({
        databaseUrl: url,
        cpuProfileDir: profileDir && path.join(profileDir, "server"),
      });
      try {
        // The server's processes, read once: `npm start` runs one unless told otherwise.
        const serverPids = new Set(app.pids());
        const serverCpu = () => [...serverPids].reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
        const serverBefore = serverCpu();
        const postgresBefore = cpuSeconds(isPostgresOf(postmaster));
        log(`round ${round}: simulate --backfill ${span} against ${app.baseUrl}`);
        const simulated = await runSimulator(
          ["--backfill", span, "--endpoint", app.baseUrl, "--keys-file", keysFile],
          profileDir,
        );
        const serverUsed = serverCpu() - serverBefore;
        const postgresCpu = cpuSeconds(isPostgresOf(postmaster)) - postgresBefore;
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        const counts = await client.query<{ decisions: string; outcomes: string }>(
          "SELECT (SELECT count(*) FROM decisions) AS decisions, (SELECT count(*) FROM outcomes) AS outcomes",
        );
        await client.end();
        const row = counts.rows[0];
        console.log(simulated.output);
        console.log(
          [
            `round ${round}: backfill ${span} · ${simulated.seconds.toFixed(1)} s wall clock (the simulator's start-up included)`,
            `  stored: ${Number(row?.decisions).toLocaleString("en-US")} decisions, ${Number(row?.outcomes).toLocaleString("en-US")} outcomes`,
            `  CPU: simulator ${simulated.cpu.toFixed(1)} s · server ${serverUsed.toFixed(1)} s · PostgreSQL ${postmaster === null ? "(postmaster not found)" : `${postgresCpu.toFixed(1)} s`}`,
          ].join("\n"),
        );
      } finally {
        await app.stop();
        await dropDatabase(postgres.adminUrl, database).catch(() => {});
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    if (!postgres.reused) await postgres.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
