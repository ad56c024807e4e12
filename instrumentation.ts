/**
 * Runs once when a server process starts. A production server checks that sessions can be
 * signed (ROUTELENS_AUTH_SECRET) and stops at once with the fix when not; on an instance
 * without users it prints a one-time setup token: every page sends visitors to `/setup`,
 * which asks for it.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NODE_ENV !== "production") return;
  const { announceSetupToken, checkAuthConfig } = await import("@/lib/auth/first-run");
  const problem = checkAuthConfig();
  if (problem) {
    console.error(`[routelens] ${problem}`);
    process.exit(1);
  }
  await announceSetupToken();
}
