/**
 * Users outside the sign-in forms: creating them (first admin, invitations, `npm run users`),
 * one-time sign-in links, the setup token of an instance without users, deactivation.
 * Passwords are hashed and accounts linked by the auth library (`getAuth().$context`).
 */
import { createHash, randomBytes } from "node:crypto";
import { getPrisma } from "@/lib/db/client";
import { env } from "@/lib/env";
import { signInErrorPath } from "./paths";
import { collectSignInLinks, getAuth } from "./server";

export class UserExistsError extends Error {
  override name = "UserExistsError";
}

export interface NewUser {
  email: string;
  name: string;
  /** Null: the user signs in by one-time link or single sign-on only, until they set one. */
  password: string | null;
  isAdmin: boolean;
}

/** Creates a user (and their password account); refuses an email already in use. */
export async function createUser(user: NewUser): Promise<{ id: string; email: string }> {
  const context = await getAuth().$context;
  const email = user.email.toLowerCase();
  if (await context.internalAdapter.findUserByEmail(email)) {
    throw new UserExistsError(`A user with the email ${email} already exists.`);
  }
  const created = await context.internalAdapter.createUser(
    {
      email,
      name: user.name,
      emailVerified: true,
      isAdmin: user.isAdmin,
    },
    { method: "admin" },
  );
  if (user.password !== null) {
    await context.internalAdapter.linkAccount({
      userId: created.id,
      providerId: "credential",
      accountId: created.id,
      password: await context.password.hash(user.password),
    });
  }
  return { id: created.id, email };
}

/** The address sign-in links point at when no request is at hand (CLI, server start). */
export function publicOrigin(): string {
  return env().ROUTELENS_URL?.replace(/\/$/, "") ?? `http://localhost:${env().PORT}`;
}

/**
 * A one-time link that signs `email` in and opens `callbackPath`. Valid for 24 hours, used
 * once; it signs in only an existing user. Opened again, or late, it leads to the sign-in page,
 * which says so.
 */
export async function createSignInLink(email: string, callbackPath = "/"): Promise<string> {
  const origin = new URL(publicOrigin());
  let link: string | undefined;
  await collectSignInLinks(
    (made) => {
      if (made.email === email.toLowerCase()) link = made.url;
    },
    () =>
      getAuth().api.signInMagicLink({
        body: {
          email: email.toLowerCase(),
          callbackURL: callbackPath,
          errorCallbackURL: signInErrorPath(callbackPath),
        },
        headers: new Headers({ host: origin.host, origin: origin.origin }),
      }),
  );
  if (!link) throw new Error(`No sign-in link was made for ${email}.`);
  return link;
}

/** Ends every session of a user at once and keeps them from starting another. */
export async function deactivateUser(userId: string): Promise<void> {
  const prisma = getPrisma();
  await prisma.$transaction([
    prisma.user.update({ where: { id: userId }, data: { deactivatedAt: new Date() } }),
    prisma.session.deleteMany({ where: { userId } }),
  ]);
}

export async function reactivateUser(userId: string): Promise<void> {
  await getPrisma().user.update({ where: { id: userId }, data: { deactivatedAt: null } });
}

const SETUP_IDENTIFIER = "routelens-setup";
const SETUP_TTL_MS = 7 * 24 * 60 * 60 * 1000;

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * On a production server without users: a fresh one-time setup token, kept hashed (any
 * process of the instance can check it). Returns null when users exist.
 */
export async function issueSetupToken(): Promise<string | null> {
  const prisma = getPrisma();
  if ((await prisma.user.count({ take: 1 })) > 0) return null;
  const token = randomBytes(18).toString("base64url");
  const now = new Date();
  await prisma.verification.create({
    data: {
      id: randomBytes(16).toString("hex"),
      identifier: SETUP_IDENTIFIER,
      value: hashToken(token),
      expiresAt: new Date(now.getTime() + SETUP_TTL_MS),
      createdAt: now,
      updatedAt: now,
    },
  });
  return token;
}

/**
 * Creates the first admin when `token` is a setup token issued while the instance had no user.
 * Every setup token is used up with it. Null when the token is wrong or users exist already.
 */
export async function completeSetup(
  token: string,
  admin: { email: string; name: string; password: string },
): Promise<{ id: string; email: string } | null> {
  const prisma = getPrisma();
  const found = await prisma.verification.findFirst({
    where: { identifier: SETUP_IDENTIFIER, value: hashToken(token), expiresAt: { gt: new Date() } },
  });
  if (!found) return null;
  // Deleting every token first makes two concurrent setups race for one deletion.
  const { count } = await prisma.verification.deleteMany({
    where: { identifier: SETUP_IDENTIFIER },
  });
  if (count === 0 || (await prisma.user.count({ take: 1 })) > 0) return null;
  return createUser({ ...admin, isAdmin: true });
}
