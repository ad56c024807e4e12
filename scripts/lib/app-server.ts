/**
 * Runs the production build (`next start`) as a child process against a given database, for
 * integration tests, end-to-end tests and benchmarks.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { findFreePort } from "./local-postgres";

const NEXT_BIN = path.resolve("node_modules/next/dist/bin/next");

/**
 * Node flags of the production server, as in `npm start`. A young generation of 16 MiB
 * semi-spaces keeps the server within 512 MiB under the hostile report load (483–485 MiB
 * against 579–583 MiB with 64 MiB), at about 4 % of ingest throughput and 9 % more server CPU
 * per decision (docs/RELIABILITY.md, "The young generation, decided").
 */
const SERVER_NODE_FLAGS = ["--max-semi-space-size=16"];

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
  child: ChildProcess;
  /** Resident memory of the server process in bytes (Linux), or null when unknown. */
  rssBytes(): number | null;
  stop(): Promise<void>;
}

export async function startAppServer({
  databaseUrl,
  port = 0,
  env = {},
  quiet = true,
  onOutput,
}: {
  databaseUrl: string;
  port?: number;
  env?: Record<string, string>;
  quiet?: boolean;
  /** Receives the server's standard output (e.g. the setup token it prints). */
  onOutput?: (text: string) => void;
}): Promise<AppServer> {
  const chosen = port > 0 ? port : await findFreePort();
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, NEXT_BIN, "start", "--port", String(chosen)],
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
      },
      stdio: ["ignore", onOutput ? "pipe" : quiet ? "ignore" : "inherit", "inherit"],
    },
  );
  child.stdout?.setEncoding("utf8").on("data", (text: string) => onOutput?.(text));
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
      if (response.status === 200 || response.status === 503) break;
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
    rssBytes: () => readRss(child.pid),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      }),
  };
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
