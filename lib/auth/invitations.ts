/**
 * Invitations by one-time link (Settings → Users, `/invite/<token>`). The token is shown to
 * the admin once; only its SHA-256 hash is kept. A link is good for 7 days and for one user:
 * accepting claims the invitation with one conditional update before the user is created, so
 * two submits of the same link create one user.
 */
import "server-only";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { getPrisma } from "@/lib/db/client";
import { env } from "@/lib/env";
import { type TenantRoleEntry, tenantRoleEntrySchema } from "@/lib/schemas/accounts";
import type { Viewer } from "./access";
import { recordAudit } from "./audit";
import { assertAdmin, UserAdminError } from "./user-admin";
import { createUser, publicOrigin, UserExistsError } from "./users";

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The path an invitation link opens; the token follows it. */
export const INVITE_PATH = "/invite/";

export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The tenant roles an invitation grants, read back from its JSON column. */
function rolesOf(value: unknown): TenantRoleEntry[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    const parsed = tenantRoleEntrySchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * Where invitation links point: ROUTELENS_URL when set, else the origin the admin's request
 * came to (so a link made on a LAN address works on that LAN), else the local address.
 */
export function invitationOrigin(headers?: Headers | null): string {
  if (env().ROUTELENS_URL || !headers) return publicOrigin();
  const origin = headers.get("origin");
  if (origin && /^https?:\/\/[^/]+$/.test(origin)) return origin;
  const host = headers.get("host");
  if (host && /^[A-Za-z0-9.[\]:-]+$/.test(host)) {
    const proto = headers.get("x-forwarded-proto") === "https" ? "https" : "http";
    return `${proto}://${host}`;
  }
  return publicOrigin();
}

export interface NewInvitation {
  email: string;
  isAdmin: boolean;
  roles: TenantRoleEntry[];
}

/**
 * Creates an invitation and returns its one-time token (shown once, never stored). Refuses an
 * email that already has a user, and tenants that do not exist.
 */
export async function inviteUser(
  actor: Viewer | null,
  invitation: NewInvitation,
  headers?: Headers | null,
): Promise<{ id: string; token: string; expiresAt: Date }> {
  assertAdmin(actor);
  const prisma = getPrisma();
  const email = invitation.email.toLowerCase();
  if (await prisma.user.findUnique({ where: { email }, select: { id: true } })) {
    throw new UserAdminError(
      "This email belongs to a user of this Routelens already (one user per email): change their roles in the users table instead of inviting them.",
      "email",
    );
  }
  const roles = new Map(invitation.roles.map((entry) => [entry.tenant, entry.role]));
  const tenants = await prisma.tenant.findMany({
    where: { id: { in: [...roles.keys()] } },
    select: { id: true },
  });
  const missing = [...roles.keys()].filter((tenant) => !tenants.some((row) => row.id === tenant));
  if (missing.length > 0) {
    throw new UserAdminError(
      `Tenant roles must name existing tenants: ${missing.slice(0, 5).join(", ")} ${missing.length === 1 ? "does" : "do"} not exist.`,
      "roles",
    );
  }
  const token = randomBytes(24).toString("base64url");
  const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
  const granted = [...roles].map(([tenant, role]) => ({ tenant, role }));
  const created = await prisma.invitation.create({
    data: {
      id: randomUUID(),
      tokenHash: hashInvitationToken(token),
      email,
      isAdmin: invitation.isAdmin,
      roles: granted,
      createdBy: actor.userId,
      expiresAt,
    },
    select: { id: true },
  });
  await recordAudit({
    action: "user-invited",
    actorId: actor.userId,
    actorEmail: actor.email,
    target: email,
    detail: {
      admin: invitation.isAdmin,
      roles: granted.map((entry) => `${entry.tenant}: ${entry.role}`).join(", "),
    },
    headers,
  });
  return { id: created.id, token, expiresAt };
}

export type InvitationState = "pending" | "accepted" | "revoked" | "expired";

export interface InvitationSummary {
  id: string;
  email: string;
  isAdmin: boolean;
  roles: TenantRoleEntry[];
  invitedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
  state: InvitationState;
  /** When it was accepted or revoked. */
  closedAt: Date | null;
}

function stateOf(
  row: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date },
  now: Date,
): InvitationState {
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  return row.expiresAt <= now ? "expired" : "pending";
}

/** The latest invitations, newest first, with who invited and what became of them. */
export async function listInvitations(limit = 200): Promise<InvitationSummary[]> {
  const prisma = getPrisma();
  const rows = await prisma.invitation.findMany({ orderBy: { createdAt: "desc" }, take: limit });
  const inviterIds = [...new Set(rows.flatMap((row) => (row.createdBy ? [row.createdBy] : [])))];
  const inviters = await prisma.user.findMany({
    where: { id: { in: inviterIds } },
    select: { id: true, email: true },
  });
  const emailOf = new Map(inviters.map((user) => [user.id, user.email]));
  const now = new Date();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    isAdmin: row.isAdmin,
    roles: rolesOf(row.roles),
    invitedBy: row.createdBy ? (emailOf.get(row.createdBy) ?? null) : null,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    state: stateOf(row, now),
    closedAt: row.acceptedAt ?? row.revokedAt,
  }));
}

/** Revokes a pending invitation: its link stops working at once. */
export async function revokeInvitation(
  actor: Viewer | null,
  invitationId: string,
  headers?: Headers | null,
): Promise<void> {
  assertAdmin(actor);
  const prisma = getPrisma();
  const { count } = await prisma.invitation.updateMany({
    where: { id: invitationId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) {
    throw new UserAdminError(
      "That invitation is no longer pending (accepted or revoked already). Reload the page.",
    );
  }
  const invitation = await prisma.invitation.findUnique({
    where: { id: invitationId },
    select: { email: true },
  });
  await recordAudit({
    action: "invitation-revoked",
    actorId: actor.userId,
    actorEmail: actor.email,
    target: invitation?.email ?? null,
    headers,
  });
}

/** What an invitation link leads to. */
export type InvitationLookup =
  | { status: "valid"; email: string; isAdmin: boolean; roles: TenantRoleEntry[]; expiresAt: Date }
  | { status: "invalid" | "expired" | "revoked" | "accepted" };

/** Reads the invitation a link's token names, and whether it can still be accepted. */
export async function findInvitation(token: string): Promise<InvitationLookup> {
  if (token.length === 0 || token.length > 200) return { status: "invalid" };
  const row = await getPrisma().invitation.findUnique({
    where: { tokenHash: hashInvitationToken(token) },
  });
  if (!row) return { status: "invalid" };
  const state = stateOf(row, new Date());
  if (state !== "pending") return { status: state };
  return {
    status: "valid",
    email: row.email,
    isAdmin: row.isAdmin,
    roles: rolesOf(row.roles),
    expiresAt: row.expiresAt,
  };
}

/** Why a link cannot be used, and what to do next, in the invited person's words. */
export const INVITATION_PROBLEMS: Record<
  "invalid" | "expired" | "revoked" | "accepted" | "email-taken",
  string
> = {
  invalid:
    "This invitation link is not valid: check that the whole link was copied, or ask the admin who invited you for a new one.",
  expired:
    "This invitation link has expired (links work for 7 days). Ask the admin who invited you for a new one.",
  revoked:
    "This invitation was withdrawn by an admin. Ask the admin who invited you for a new link if you still need access.",
  accepted:
    "This invitation link was already used. Sign in with the email and password chosen then, or ask an admin for a new link.",
  "email-taken":
    "A user with this email exists already. Sign in instead, or ask an admin for help.",
};

export type AcceptResult =
  | { ok: true; userId: string; email: string }
  | { ok: false; reason: "invalid" | "expired" | "revoked" | "accepted" | "email-taken" };

/**
 * Accepts the invitation `token` names: claims it (one conditional update, so a second submit
 * finds it used), creates the user with `password`, gives them the invitation's tenant roles
 * (tenants deleted since are skipped) and writes `invitation-accepted`. Does not sign in.
 */
export async function acceptInvitation(
  token: string,
  user: { name: string; password: string },
  headers?: Headers | null,
): Promise<AcceptResult> {
  const prisma = getPrisma();
  const tokenHash = hashInvitationToken(token);
  const claimedAt = new Date();
  const { count } = await prisma.invitation.updateMany({
    where: { tokenHash, acceptedAt: null, revokedAt: null, expiresAt: { gt: claimedAt } },
    data: { acceptedAt: claimedAt },
  });
  if (count === 0) {
    const lookup = await findInvitation(token);
    // Claimed by nobody yet still valid cannot happen here; answer it as used.
    return { ok: false, reason: lookup.status === "valid" ? "accepted" : lookup.status };
  }
  const invitation = await prisma.invitation.findUniqueOrThrow({ where: { tokenHash } });
  let created: { id: string; email: string };
  try {
    created = await createUser({
      email: invitation.email,
      name: user.name,
      password: user.password,
      isAdmin: invitation.isAdmin,
    });
  } catch (error) {
    // Give the invitation back: nothing was created with it.
    await prisma.invitation.update({
      where: { id: invitation.id },
      data: { acceptedAt: null },
    });
    if (error instanceof UserExistsError) return { ok: false, reason: "email-taken" };
    throw error;
  }
  await grantInvitation(invitation, created, { method: "invitation link" }, headers);
  return { ok: true, userId: created.id, email: created.email };
}

/**
 * Gives `user` what `invitation` grants (admin rights, the roles of tenants that still exist)
 * and writes `invitation-accepted`. The invitation must already be claimed (accepted_at set).
 */
async function grantInvitation(
  invitation: { isAdmin: boolean; roles: unknown },
  user: { id: string; email: string },
  detail: { method: string },
  headers?: Headers | null,
): Promise<void> {
  const prisma = getPrisma();
  const roles = rolesOf(invitation.roles);
  const existing = await prisma.tenant.findMany({
    where: { id: { in: roles.map((entry) => entry.tenant) } },
    select: { id: true },
  });
  const kept = roles.filter((entry) => existing.some((tenant) => tenant.id === entry.tenant));
  if (invitation.isAdmin) {
    await prisma.user.update({ where: { id: user.id }, data: { isAdmin: true } });
  }
  await prisma.tenantMember.createMany({
    data: kept.map((entry) => ({ userId: user.id, tenantId: entry.tenant, role: entry.role })),
    skipDuplicates: true,
  });
  await recordAudit({
    action: "invitation-accepted",
    actorId: user.id,
    actorEmail: user.email,
    target: user.email,
    detail: {
      ...detail,
      admin: invitation.isAdmin,
      roles: kept.map((entry) => `${entry.tenant}: ${entry.role}`).join(", "),
    },
    headers,
  });
}

/**
 * A user created by single sign-on whose email has a pending invitation gets what it grants,
 * as if they had opened the link: the newest pending invitation is claimed (once, whoever
 * races) and the others for that email stay as they are.
 */
export async function applyPendingInvitation(
  user: { id: string; email: string },
  headers?: Headers | null,
): Promise<boolean> {
  const prisma = getPrisma();
  const now = new Date();
  const pending = await prisma.invitation.findFirst({
    where: {
      email: user.email.toLowerCase(),
      acceptedAt: null,
      revokedAt: null,
      expiresAt: { gt: now },
    },
    orderBy: { createdAt: "desc" },
  });
  if (!pending) return false;
  const { count } = await prisma.invitation.updateMany({
    where: { id: pending.id, acceptedAt: null },
    data: { acceptedAt: now },
  });
  if (count === 0) return false;
  await grantInvitation(pending, user, { method: "single sign-on" }, headers);
  return true;
}
