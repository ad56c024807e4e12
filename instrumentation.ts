/**
 * Runs once when a server process starts. A production server on an instance without users
 * prints a one-time setup token: every page sends visitors to `/setup`, which asks for it.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NODE_ENV !== "production") return;
  const { announceSetupToken } = await import("@/lib/auth/first-run");
  await announceSetupToken();
}
