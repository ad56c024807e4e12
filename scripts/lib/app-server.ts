/**
 * Runs the production build as a child process against a given database, for integration
 * tests, end-to-end tests and benchmarks, the way `npm start` runs it: through
 * `scripts/start.mjs`, which runs `next start` itself (one process, the default) or supervises
 * `processes` of them on one port (WEB_CONCURRENCY).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { findFreePort } from "./local-postgres";

const NEXT_BIN = path.resolve("node_modules/next/dist/bin/next");
const START_SCRIPT = path.resolve("scripts/start.mjs");

/**
 * Node flags of the production server, as in `npm start`. A young generation of 16 MiB
 * semi-spaces keeps the server within 512 MiB under the hostile report load (483–485 MiB
 * against 579–583 MiB with 64 MiB), at about 4 % of ingest throughput and 9 % more server CPU
 * per decision (docs/RELIABILITY.md, "The young generation, decided"). An old generation let
 * grow to twice what survives a full collection, not four times, keeps it within 512 MiB while
 * pages are served beside a backtest (354–365 MiB against 540–544 MiB), with no loss of ingest
 * throughput (docs/PERFORMANCE.md, "Backtests").
 */
const SERVER_NODE_FLAGS = ["--max-semi-space-size=16", "--heap-growing-percent=100"];

/** Builds the app when there is no production build yet. */
export function ensureBuild(log: (line: string) => void = () => {}): void {
  if (existsSync(".next/BUILD_ID")) return;
  log("no production build found: running next build");
  const result = spawnSync(process.execPath, [NEXT_BIN, "build"], { stdio: "inherit" });
  if (result.status !== 0) throw new Error("next build failed");
}

export interface AppServer {
  baseUrl: string;
  port: number;
  /** The process `npm start` would be: the server itself, or the supervisor of `processes`. */
  child: ChildProcess;
  /** The server's process ids (Linux): the child and the server processes it started. */
  pids(): number[];
  /** Resident memory of every server process together in bytes (Linux), or null when unknown. */
  rssBytes(): number | null;
  stop(): Promise<void>;
}

export async function startAppServer({
  databaseUrl,
  port = 0,
  env = {},
  quiet = true,
  onOutput,
  processes = 1,
  cpuProfileDir,
}: {
  databaseUrl: string;
  port?: number;
  /** Server processes sharing the port (WEB_CONCURRENCY of `npm start`). */
  processes?: number;
  env?: Record<string, string>;
  quiet?: boolean;
  /** Receives the server's standard output (e.g. the setup token it prints). */
  onOutput?: (text: string) => void;
  /**
   * Where each server process writes a V8 CPU profile (`.cpuprofile`, for Chrome DevTools or
   * any profile viewer) when it stops; the build's source maps name the functions.
   */
  cpuProfileDir?: string;
}): Promise<AppServer> {
  const chosen = port > 0 ? port : await findFreePort();
  const child = spawn(
    process.execPath,
    [
      ...SERVER_NODE_FLAGS,
      ...(cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProfileDir)}`] : []),
      START_SCRIPT,
      "--port",
      String(chosen),
    ],
    {
      env: {
        // Sessions are signed with a secret `next start` requires; a throwaway one per server.
        ROUTELENS_AUTH_SECRET: randomBytes(32).toString("base64url"),
        // Alerts and backtests run only in the servers of tests that ask for them (`env`).
        ROUTELENS_ALERTS: "0",
        ROUTELENS_BACKTESTS: "0",
        ...process.env,
        ...env,
        DATABASE_URL: databaseUrl,
        PORT: String(chosen),
        WEB_CONCURRENCY: String(processes),
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  // With several processes the supervisor says when each one serves; until all of them do,
  // connections would all go to the first ones.
  let serving = 0;
  child.stdout?.setEncoding("utf8").on("data", (text: string) => {
    serving += text.match(/server process \d+ \(pid \d+\) is serving/g)?.length ?? 0;
    if (onOutput) onOutput(text);
    else if (!quiet) process.stdout.write(text);
  });
  const baseUrl = `http://127.0.0.1:${chosen}`;
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`next start exited early with code ${code}`))),
  );
  exited.catch(() => {});
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) await exited;
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      const answered = response.status === 200 || response.status === 503;
      if (answered && (processes === 1 || serving >= processes)) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`next start did not answer on ${baseUrl} within 60 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    port: chosen,
    child,
    pids: () => processTree(child.pid),
    rssBytes: () => {
      const sizes = processTree(child.pid).map(readRss);
      return sizes.length === 0 || sizes.includes(null)
        ? null
        : sizes.reduce<number>((sum, size) => sum + (size ?? 0), 0);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      }),
  };
}

/** `pid` and its descendants, from /proc (Linux); empty when unknown. */
function processTree(pid: number | undefined): number[] {
  if (!pid) return [];
  const found: number[] = [];
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop() as number;
    let children: string;
    try {
      children = readFileSync(`/proc/${next}/task/${next}/children`, "utf8");
    } catch {
      continue; // gone meanwhile, or not Linux
    }
    found.push(next);
    for (const child of children.trim().split(/\s+/)) if (child) pending.push(Number(child));
  }
  return found;
}

function readRss(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = status.match(/^VmRSS:\s+(\d+)\s+kB/m);
    return match?.[1] ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}
