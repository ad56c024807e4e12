/**
 * The job queue of a server process: one pg-boss instance (jobs kept in this PostgreSQL,
 * schema `pgboss`, created at first start), shared by the alerts (`lib/alerts/runner.ts`) and
 * the backtests (`lib/backtest/runner.ts`), each on queues of its own. Started by the first of
 * them to need it; stopped once, when the process is told to stop.
 */
import "server-only";
import { PgBoss } from "pg-boss";
import { env } from "@/lib/env";

interface JobQueue {
  boss: PgBoss;
  started: Promise<PgBoss>;
  stopping: Promise<void> | null;
}

const globalForJobs = globalThis as unknown as { routelensJobQueue?: JobQueue };

/** The process's job queue, started on first use. */
export function startJobQueue(): Promise<PgBoss> {
  const existing = globalForJobs.routelensJobQueue;
  if (existing) return existing.started;
  const databaseUrl = env().DATABASE_URL;
  if (!databaseUrl) {
    return Promise.reject(new Error("DATABASE_URL is not set: background jobs need the database"));
  }
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: "pgboss",
    max: 4,
    application_name: "routelens-jobs",
    // Cron occurrences are picked up within ~10 s of the minute: part of the delay from a
    // threshold crossing to the webhook call (docs/ALERTS.md).
    cronMonitorIntervalSeconds: 10,
    cronWorkerIntervalSeconds: 2,
  });
  boss.on("error", (error: unknown) => {
    console.error("[routelens] job queue:", error instanceof Error ? error.message : error);
  });
  const queue: JobQueue = {
    boss,
    started: boss.start().then(() => boss),
    stopping: null,
  };
  globalForJobs.routelensJobQueue = queue;
  queue.started.catch(() => {
    if (globalForJobs.routelensJobQueue === queue) globalForJobs.routelensJobQueue = undefined;
  });
  return queue.started;
}

/** The started job queue of this process, or null when none was started. */
export function runningJobQueue(): PgBoss | null {
  const queue = globalForJobs.routelensJobQueue;
  return queue && !queue.stopping ? queue.boss : null;
}

/** Stops this process's workers, letting running jobs finish for up to 5 seconds. */
export async function stopJobQueue(): Promise<void> {
  const queue = globalForJobs.routelensJobQueue;
  if (!queue) return;
  queue.stopping ??= queue.started
    .then((boss) => boss.stop({ graceful: true, timeout: 5_000 }))
    .catch(() => {});
  await queue.stopping;
  if (globalForJobs.routelensJobQueue === queue) globalForJobs.routelensJobQueue = undefined;
}
