/**
 * The auth library's instance (Better Auth): email and password, sessions in PostgreSQL,
 * one-time sign-in links, optional OpenID Connect. Password hashing, session cookies and
 * CSRF checks are the library's; Routelens adds who may read which tenant (`access.ts`), the
 * sign-in throttle (`sign-in-throttle.ts`) and the audit log (`audit.ts`).
 *
 * Sign-up is closed: users exist because an admin invited them, because they are the first
 * admin (`/setup`, `npm run users -- create-admin`), or because `npm run dev` created the
 * local admin. A deactivated user cannot start a session, and deactivating deletes theirs.
 */
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { magicLink } from "better-auth/plugins/magic-link";
import { getPrisma } from "@/lib/db/client";
import { env } from "@/lib/env";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/schemas/accounts";
import { recordAudit } from "./audit";
import { SESSION_COOKIE_PREFIX } from "./paths";

/** The longest user name stored (`users.name`). */
const USER_NAME_MAX = 200;

/** Where the auth API is served (`app/api/auth/[...all]/route.ts`). */
export const AUTH_BASE_PATH = "/api/auth";
/** The OpenID Connect provider's id in URLs (`/api/auth/callback/sso`). */
export const OIDC_PROVIDER_ID = "sso";
/** The error code a deactivated user's sign-in is refused with (`/sign-in?error=…` after SSO). */
export const ACCOUNT_DEACTIVATED = "ACCOUNT_DEACTIVATED";
/** One-time sign-in links (first run, `npm run users`) stay valid this long. */
export const SIGN_IN_LINK_TTL_SECONDS = 24 * 60 * 60;
const SESSION_DAYS = 7;

/** The hosts a server without ROUTELENS_URL answers sign-in on: this machine only. */
const LOCAL_HOSTS = ["localhost:*", "127.0.0.1:*", "[::1]:*", "localhost", "127.0.0.1"];

export class AuthConfigError extends Error {
  override name = "AuthConfigError";
}

/** The secret, or a sentence saying how to set one. */
function authSecret(): string {
  const secret = env().ROUTELENS_AUTH_SECRET;
  if (secret) return secret;
  throw new AuthConfigError(
    "ROUTELENS_AUTH_SECRET is not set: set it to at least 32 random characters (`openssl rand -base64 32`) before `npm start` (README, Running Routelens for a team).",
  );
}

/** The OpenID Connect provider when all three of its variables are set. */
export function oidcSettings(): {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
} | null {
  const config = env();
  const { ROUTELENS_OIDC_ISSUER: issuer, ROUTELENS_OIDC_CLIENT_ID: clientId } = config;
  const clientSecret = config.ROUTELENS_OIDC_CLIENT_SECRET;
  const set = [issuer, clientId, clientSecret].filter(Boolean).length;
  if (set === 0) return null;
  if (!issuer || !clientId || !clientSecret) {
    throw new AuthConfigError(
      "Single sign-on needs ROUTELENS_OIDC_ISSUER, ROUTELENS_OIDC_CLIENT_ID and ROUTELENS_OIDC_CLIENT_SECRET together; set all three or none.",
    );
  }
  return { issuer, clientId, clientSecret, name: config.ROUTELENS_OIDC_NAME };
}

/** Prints one-time links handed to `sendMagicLink` (they are only ever made server-side). */
type LinkSink = (link: { email: string; url: string }) => void;
const linkSinks: LinkSink[] = [];

/** Runs `make` with `sink` receiving the links it creates (see `users.ts`). */
export async function collectSignInLinks<T>(sink: LinkSink, make: () => Promise<T>): Promise<T> {
  linkSinks.push(sink);
  try {
    return await make();
  } finally {
    linkSinks.splice(linkSinks.indexOf(sink), 1);
  }
}

/** How a session was started, in the audit log's words. */
function signInMethod(path: string | undefined): string {
  if (path?.startsWith("/magic-link")) return "one-time link";
  if (path?.startsWith("/callback")) return "single sign-on";
  return "password";
}

function createAuth() {
  const config = env();
  const oidc = oidcSettings();
  return betterAuth({
    appName: "Routelens",
    basePath: AUTH_BASE_PATH,
    baseURL: config.ROUTELENS_URL ?? { allowedHosts: LOCAL_HOSTS, protocol: "http" },
    secret: authSecret(),
    database: prismaAdapter(getPrisma(), { provider: "postgresql" }),
    telemetry: { enabled: false },
    user: {
      additionalFields: {
        isAdmin: { type: "boolean", required: false, defaultValue: false, input: false },
        deactivatedAt: { type: "date", required: false, input: false },
      },
    },
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
    },
    session: {
      expiresIn: SESSION_DAYS * 24 * 60 * 60,
      updateAge: 24 * 60 * 60,
      // Every request reads the session row, so deleting it (sign-out, deactivation) takes
      // effect on the next request.
      cookieCache: { enabled: false },
    },
    account: {
      // A user invited by email may later sign in through the company's provider with the
      // same address: the provider vouches for it.
      accountLinking: { enabled: true, trustedProviders: [OIDC_PROVIDER_ID] },
    },
    advanced: {
      // The library turns its origin and CSRF checks off when it thinks it runs under a test
      // runner; Routelens keeps them on everywhere, so tests see what production does.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      cookiePrefix: SESSION_COOKIE_PREFIX,
      // Client addresses come from lib/ingest's rule (ROUTELENS_TRUST_PROXY) in the audit
      // log; the library's own reading of X-Forwarded-For is not trusted.
      ipAddress: { disableIpTracking: true },
    },
    // A single sign-on that fails before it knows where to go back (an expired or missing
    // state) lands on the sign-in page too, which says what the code means.
    onAPIError: { errorURL: "/sign-in" },
    // Sign-in attempts are limited per address and per account before they get here
    // (sign-in-throttle.ts), with a Retry-After header the library's limiter does not send.
    rateLimit: { enabled: false },
    databaseHooks: {
      user: {
        create: {
          // A provider may send any name: keep it within the column (users.name, 200).
          before: async (user) => ({
            data: { ...user, name: user.name.slice(0, USER_NAME_MAX) },
          }),
          // Someone invited who signs in through the provider before opening their link gets
          // what the invitation grants. (Imported here: it is server-only, this module is not.)
          after: async (user, context) => {
            if (!context?.path?.startsWith("/callback/")) return;
            const { applyPendingInvitation } = await import("./invitations");
            await applyPendingInvitation(
              { id: user.id, email: user.email },
              context.headers ?? context.request?.headers ?? null,
            );
          },
        },
      },
      session: {
        create: {
          before: async (session) => {
            const user = await getPrisma().user.findUnique({
              where: { id: session.userId },
              select: { deactivatedAt: true },
            });
            if (!user || user.deactivatedAt) {
              // The code lets single sign-on's callback send the browser back to /sign-in
              // with it (`?error=ACCOUNT_DEACTIVATED`) instead of failing the request.
              throw new APIError("FORBIDDEN", {
                code: ACCOUNT_DEACTIVATED,
                message: "This account is deactivated; ask an admin of this Routelens.",
              });
            }
          },
          after: async (session, context) => {
            await recordAudit({
              action: "sign-in",
              actorId: session.userId,
              detail: { method: signInMethod(context?.path) },
              headers: context?.headers ?? context?.request?.headers ?? null,
            });
          },
        },
      },
    },
    plugins: [
      magicLink({
        disableSignUp: true,
        storeToken: "hashed",
        expiresIn: SIGN_IN_LINK_TTL_SECONDS,
        sendMagicLink: async ({ email, url }) => {
          for (const sink of linkSinks) sink({ email, url });
        },
      }),
      ...(oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: OIDC_PROVIDER_ID,
                  discoveryUrl: `${oidc.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
                  clientId: oidc.clientId,
                  clientSecret: oidc.clientSecret,
                  scopes: ["openid", "email", "profile"],
                  pkce: true,
                  // HTTP Basic at the token endpoint: the method every OpenID provider
                  // supports (the discovery default), where client_secret_post is optional.
                  authentication: "basic",
                },
              ],
            }),
          ]
        : []),
      nextCookies(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const globalForAuth = globalThis as unknown as { routelensAuth?: Auth };

/** The process's auth instance, built on first use. */
export function getAuth(): Auth {
  globalForAuth.routelensAuth ??= createAuth();
  return globalForAuth.routelensAuth;
}
