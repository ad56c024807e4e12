/**
 * Server start in the Node.js runtime (see `instrumentation.ts`). A production server checks
 * that sessions can be signed (ROUTELENS_AUTH_SECRET) and stops at once with the fix when not;
 * on an instance without users it prints a one-time setup token: every page sends visitors to
 * `/setup`, which asks for it. Every server also starts the alert evaluator and delivery jobs
 * (lib/alerts/runner.ts) unless ROUTELENS_ALERTS=0 and the backtest worker
 * (lib/backtest/runner.ts) unless ROUTELENS_BACKTESTS=0, on one job queue (lib/jobs/queue.ts),
 * and stops them when told to stop. Every server keeps the raw tables' week partitions ready
 * (lib/db/partitions.ts): at start and once a day; and opens its database connections at start,
 * warmed (lib/db/warm-connections.ts).
 *
 * With several server processes on one database (`WEB_CONCURRENCY`, scripts/start.mjs) each of
 * them starts the same jobs; every one of them is safe to run N times over (the comments at the
 * top of lib/alerts/runner.ts and lib/backtest/runner.ts say why).
 */
export async function registerNode() {
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  if (process.env.NODE_ENV === "production") {
    const { announceSetupToken, checkAuthConfig } = await import("@/lib/auth/first-run");
    const problem = checkAuthConfig();
    if (problem) {
      console.error(`[routelens] ${problem}`);
      process.exit(1);
    }
    // Under `WEB_CONCURRENCY=N` (scripts/start.mjs) every server process runs this; one setup
    // token is enough, so only the first process prints one (any unused token stays valid).
    const processSlot = process.env.ROUTELENS_PROCESS;
    if (processSlot === undefined || processSlot === "1") await announceSetupToken();
  }
  await keepPartitionsReady();
  await warmConnectionsInBackground();
  await startJobsInBackground();
  // A worker of `npm start` with WEB_CONCURRENCY > 1 tells its supervisor it has started, which
  // counts a worker that exits before this as a failed start rather than a crash to restart.
  const { default: cluster } = await import("node:cluster");
  if (cluster.isWorker) process.send?.({ routelens: "started" });
}

async function keepPartitionsReady() {
  const { env } = await import("@/lib/env");
  if (!env().DATABASE_URL) return;
  const { getPool } = await import("@/lib/db/client");
  const { keepPartitionsReady: keep } = await import("@/lib/db/partitions");
  // Not awaited: an event of a week without its partition waits in the default partition
  // and moves into its own when that is created.
  const { stop } = keep(getPool(), (error) => {
    console.error(
      "[routelens] week partitions not created:",
      error instanceof Error ? error.message : error,
    );
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, stop);
}

async function warmConnectionsInBackground() {
  const { env } = await import("@/lib/env");
  const { DATABASE_URL, DATABASE_POOL_MAX } = env();
  if (!DATABASE_URL) return;
  const { getPool } = await import("@/lib/db/client");
  const { warmConnections } = await import("@/lib/db/warm-connections");
  // Not awaited: requests are served meanwhile; one that finds no warm connection opens its own.
  warmConnections(getPool(), DATABASE_POOL_MAX).catch(() => {});
}

async function startJobsInBackground() {
  const { env } = await import("@/lib/env");
  const { ROUTELENS_ALERTS, ROUTELENS_BACKTESTS, DATABASE_URL } = env();
  if (!DATABASE_URL || (!ROUTELENS_ALERTS && !ROUTELENS_BACKTESTS)) return;
  const { stopJobQueue } = await import("@/lib/jobs/queue");
  const report = (what: string) => (error: unknown) => {
    console.error(
      `[routelens] ${what} did not start:`,
      error instanceof Error ? error.message : error,
    );
  };
  // Not awaited: the server answers while the job queue connects; a failure is logged.
  if (ROUTELENS_ALERTS) {
    const { startAlerts, stopAlerts } = await import("@/lib/alerts/runner");
    startAlerts().catch(report("alerts"));
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, stopAlerts);
  }
  if (ROUTELENS_BACKTESTS) {
    const { startBacktests, stopBacktests } = await import("@/lib/backtest/runner");
    startBacktests().catch(report("backtests"));
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, stopBacktests);
  }
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      stopJobQueue().catch(() => {});
    });
  }
}
