/**
 * Runs backtests in a server process, on the process's job queue (`lib/jobs/queue.ts`), queue
 * `routelens-backtests`: one job per backtest (its id is the job's singleton key, so a backtest
 * is queued or running once across every server), one backtest at a time per process.
 *
 * - A worker that stops (a restart, a crash) stops sending heartbeats; pg-boss fails its job
 *   after 30 s and retries it, and the retry resumes from the last checkpoint.
 * - Every minute, and when the process starts, backtests still queued or running are sent
 *   again (the singleton key drops duplicates): one created by a server that runs no
 *   backtests, or whose job was lost, still runs.
 *
 * Started by `instrumentation.ts` in `npm run dev` and `npm start` unless
 * ROUTELENS_BACKTESTS=0.
 */
import "server-only";
import type { PgBoss } from "pg-boss";
import { unfinishedBacktests } from "@/lib/db/queries/backtest-job";
import { runningJobQueue, startJobQueue } from "@/lib/jobs/queue";
import { runBacktest } from "./job";

export const BACKTEST_QUEUE = "routelens-backtests";
const SWEEP_MS = 60_000;

const globalForBacktests = globalThis as unknown as {
  routelensBacktests?: { timer: NodeJS.Timeout | null };
};

async function send(boss: PgBoss, id: string): Promise<void> {
  await boss.send(BACKTEST_QUEUE, { id }, { singletonKey: id });
}

async function sweep(boss: PgBoss): Promise<void> {
  for (const id of await unfinishedBacktests()) await send(boss, id);
}

/** Starts the backtest worker in this process (once). */
export async function startBacktests(): Promise<void> {
  if (globalForBacktests.routelensBacktests) return;
  const runner: { timer: NodeJS.Timeout | null } = { timer: null };
  globalForBacktests.routelensBacktests = runner;
  const boss = await startJobQueue();
  await boss.createQueue(BACKTEST_QUEUE, {
    policy: "exclusive",
    retryLimit: 20,
    retryDelay: 5,
    heartbeatSeconds: 30,
    // A month's window at the measured speed takes minutes; this bounds a job that hangs.
    expireInSeconds: 6 * 3_600,
  });
  await boss.work<{ id: string }>(
    BACKTEST_QUEUE,
    { pollingIntervalSeconds: 1, batchSize: 1 },
    async ([job]) => {
      if (job) await runBacktest(job.data.id);
    },
  );
  await sweep(boss);
  runner.timer = setInterval(() => {
    sweep(boss).catch((error: unknown) => console.error("[routelens] backtests sweep:", error));
  }, SWEEP_MS);
  runner.timer.unref();
}

/** Stops the sweep; the worker stops with the job queue. */
export function stopBacktests(): void {
  const runner = globalForBacktests.routelensBacktests;
  if (runner?.timer) clearInterval(runner.timer);
  globalForBacktests.routelensBacktests = undefined;
}

/**
 * Hands a stored backtest to the job queue of this process when it runs one; otherwise the
 * next sweep of a process that does picks it up (within a minute).
 */
export async function enqueueBacktest(id: string): Promise<void> {
  const boss = runningJobQueue();
  if (boss) await send(boss, id);
}
