/**
 * Server start in the Node.js runtime (see `instrumentation.ts`). A production server checks
 * that sessions can be signed (ROUTELENS_AUTH_SECRET) and stops at once with the fix when not;
 * on an instance without users it prints a one-time setup token: every page sends visitors to
 * `/setup`, which asks for it. Every server also starts the alert evaluator and delivery jobs
 * (lib/alerts/runner.ts) unless ROUTELENS_ALERTS=0, and stops them when told to stop.
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
    await announceSetupToken();
  }
  await startAlertsInBackground();
}

async function startAlertsInBackground() {
  const { env } = await import("@/lib/env");
  if (!env().ROUTELENS_ALERTS || !env().DATABASE_URL) return;
  const { startAlerts, stopAlerts } = await import("@/lib/alerts/runner");
  // Not awaited: the server answers while the job queue connects; a failure is logged.
  startAlerts().catch((error: unknown) => {
    console.error(
      "[routelens] alerts did not start:",
      error instanceof Error ? error.message : error,
    );
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      stopAlerts().catch(() => {});
    });
  }
}
