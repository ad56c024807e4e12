/**
 * `npm start`: the production server (`next start`), in one process or in several sharing one
 * port.
 *
 * WEB_CONCURRENCY=N (default 1) sets the number of server processes. With 1, this process is
 * the server: it runs `next start` itself, exactly as `npm start` always did. With N > 1 it
 * becomes a supervisor (Node's `node:cluster`): it forks N workers, each of which runs
 * `next start` on the same port — the supervisor holds the listening socket and hands incoming
 * connections to the workers in turn (round robin). Every worker gets this process's Node flags
 * (`--max-semi-space-size=16 --heap-growing-percent=100` from package.json), its environment,
 * and `PGAPPNAME` `routelens-<n>` unless one is set, so `pg_stat_activity` tells the workers'
 * connections apart.
 *
 * A worker serves once it listens and its start-up (`instrumentation-node.ts`, which tells
 * this process over the cluster channel) has finished. A worker that exits after it started
 * serving is started again, with a log line (after a pause that grows while workers keep dying
 * within a few seconds). A worker that exits before it ever served (a setting it refuses, a
 * port in use) stops everything with its exit code, as a single server would. SIGTERM and SIGINT stop every worker (each finishes as `next start`
 * does on that signal) and then the supervisor; a worker still running after 10 s is killed.
 *
 * Written as plain JavaScript for plain `node`: it must start with nothing beyond
 * `npm install` (no TypeScript loader in production). Arguments are passed on to `next start`
 * (`npm start -- --port 4000`).
 */
import cluster from "node:cluster";
import { createRequire } from "node:module";
import path from "node:path";

const NEXT_BIN = path.resolve("node_modules/next/dist/bin/next");
const STOP_GRACE_MS = 10_000;
/** A worker that ran at least this long before it died is restarted at once. */
const HEALTHY_RUN_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;

const log = (line) => console.log(`[routelens] ${line}`);

/** WEB_CONCURRENCY as a whole number of processes, or the reason it is refused. */
function parseProcesses(value) {
  if (value === undefined || value.trim() === "") return { processes: 1 };
  const text = value.trim();
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 64) {
    return {
      error: `WEB_CONCURRENCY must be a whole number of server processes from 1 to 64 (got "${value}")`,
    };
  }
  return { processes: Number(text) };
}

/** Runs `next start` with this process's arguments, in this process. */
function runNextStart() {
  process.argv = [process.argv[0], NEXT_BIN, "start", ...process.argv.slice(2)];
  createRequire(import.meta.url)(NEXT_BIN);
}

function supervise(processes) {
  let stopping = false;
  let exitCode = 0;
  let restartDelay = 0;
  /** Worker id → { slot, startedAt, listening, started, serving }. */
  const workers = new Map();

  const fork = (slot) => {
    const env = { ROUTELENS_PROCESS: String(slot) };
    if (!process.env.PGAPPNAME) env.PGAPPNAME = `routelens-${slot}`;
    const worker = cluster.fork(env);
    workers.set(worker.id, {
      slot,
      startedAt: Date.now(),
      listening: false,
      started: false,
      serving: false,
    });
    worker.on("message", (message) => {
      if (message?.routelens !== "started") return;
      const state = workers.get(worker.id);
      if (state) {
        state.started = true;
        markServing(worker, state);
      }
    });
  };

  const markServing = (worker, state) => {
    if (state.serving || !state.listening || !state.started) return;
    state.serving = true;
    log(`server process ${state.slot} (pid ${worker.process.pid}) is serving`);
  };

  const stopAll = (signal, why) => {
    if (stopping) return;
    stopping = true;
    log(`${why}: stopping ${workers.size} server process${workers.size === 1 ? "" : "es"}`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
    }, STOP_GRACE_MS).unref();
  };

  cluster.on("listening", (worker) => {
    const state = workers.get(worker.id);
    if (!state) return;
    state.listening = true;
    markServing(worker, state);
  });

  cluster.on("exit", (worker, code, signal) => {
    const state = workers.get(worker.id);
    workers.delete(worker.id);
    if (!state) return;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (stopping) {
      if (workers.size === 0) process.exit(exitCode);
      return;
    }
    if (!state.serving) {
      // It never served: the same fault would stop every restart. Stop like one server would.
      log(
        `server process ${state.slot} (pid ${worker.process.pid}) exited with ${how} before serving; stopping`,
      );
      exitCode = code ?? 1;
      stopAll("SIGTERM", "a server process could not start");
      if (workers.size === 0) process.exit(exitCode);
      return;
    }
    const ranMs = Date.now() - state.startedAt;
    restartDelay =
      ranMs >= HEALTHY_RUN_MS
        ? 0
        : Math.min(MAX_RESTART_DELAY_MS, Math.max(1_000, restartDelay * 2));
    log(
      `server process ${state.slot} (pid ${worker.process.pid}) exited with ${how}; starting another${restartDelay ? ` in ${restartDelay / 1000} s` : ""}`,
    );
    setTimeout(() => {
      if (!stopping) fork(state.slot);
    }, restartDelay);
  });

  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.on(signal, () => {
      exitCode = signal === "SIGINT" ? 130 : 143;
      stopAll(signal, signal);
    });
  }

  // Workers run this same file (cluster's default), and so `next start`.
  cluster.setupPrimary({ args: process.argv.slice(2) });
  log(`starting ${processes} server processes on one port (WEB_CONCURRENCY=${processes})`);
  for (let slot = 1; slot <= processes; slot++) fork(slot);
}

function main() {
  if (cluster.isWorker) return runNextStart();
  const parsed = parseProcesses(process.env.WEB_CONCURRENCY);
  if (parsed.error) {
    console.error(`[routelens] ${parsed.error}`);
    process.exit(1);
  }
  if (parsed.processes === 1) return runNextStart();
  supervise(parsed.processes);
}

main();
