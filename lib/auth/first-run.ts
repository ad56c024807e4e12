/**
 * First run (SPEC §7): a production server without users prints a setup token; `npm run dev`
 * creates a local admin and prints a one-time sign-in link.
 */
import { getPrisma } from "@/lib/db/client";
import { EnvError, env } from "@/lib/env";
import { AuthConfigError, oidcSettings } from "./server";
import { createSignInLink, createUser, issueSetupToken, publicOrigin } from "./users";

const log = (line: string) => console.log(`[routelens] ${line}`);

/** The local admin `npm run dev` creates on an instance without users. */
export const LOCAL_ADMIN_EMAIL = "admin@routelens.local";

/** What keeps a production server from signing anyone in, as a sentence; null when nothing. */
export function checkAuthConfig(): string | null {
  try {
    if (!env().ROUTELENS_AUTH_SECRET) {
      return "ROUTELENS_AUTH_SECRET is not set: set it to at least 32 random characters (`openssl rand -base64 32`) and start again (README, Running Routelens for a team).";
    }
    oidcSettings();
    return null;
  } catch (error) {
    if (error instanceof AuthConfigError || error instanceof EnvError) return error.message;
    throw error;
  }
}

export async function announceSetupToken(): Promise<void> {
  try {
    const token = await issueSetupToken();
    if (!token) return;
    log(`no users yet: open ${publicOrigin()}/setup and enter this one-time setup token`);
    log(`setup token: ${token}`);
  } catch (error) {
    log(
      `could not check for users (${error instanceof Error ? error.message : String(error)}); restart the server once the database answers to get a setup token`,
    );
  }
}

/**
 * `npm run dev`: on an instance without users, creates the local admin (no password: they
 * sign in by one-time link). While that admin is the only user and has no password, every
 * start prints a fresh link, so a developer is never locked out of their own machine.
 */
export async function ensureLocalAdmin(): Promise<string | null> {
  const prisma = getPrisma();
  const users = await prisma.user.findMany({
    take: 2,
    select: { email: true, accounts: { select: { password: true } } },
  });
  if (users.length === 0) {
    await createUser({
      email: LOCAL_ADMIN_EMAIL,
      name: "Local admin",
      password: null,
      isAdmin: true,
    });
  } else {
    const only = users.length === 1 ? users[0] : undefined;
    const hasPassword = only?.accounts.some((account) => account.password);
    if (only?.email !== LOCAL_ADMIN_EMAIL || hasPassword) return null;
  }
  return createSignInLink(LOCAL_ADMIN_EMAIL);
}
