/**
 * What an instance admin does to other users (Settings → Users): tenant roles, admin rights,
 * deactivation. Every function takes the acting viewer and refuses anyone but an admin, so a
 * server action or a test cannot skip the check; every change writes its audit row.
 */
import "server-only";
import { getPrisma } from "@/lib/db/client";
import { type TenantRole, tenantRoleSchema } from "@/lib/schemas/accounts";
import type { Viewer } from "./access";
import { recordAudit } from "./audit";
import { deactivateUser, reactivateUser } from "./users";

/** A refused change, with the form field it concerns (if one) and a sentence saying why. */
export class UserAdminError extends Error {
  override name = "UserAdminError";
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Refused because the actor is not an instance admin (their rights may have changed). */
export class NotAdminError extends UserAdminError {
  override name = "NotAdminError";
  constructor() {
    super("Only an admin of this Routelens may manage users. Sign in again as an admin.");
  }
}

/** Throws NotAdminError unless `actor` is an admin. */
export function assertAdmin(actor: Viewer | null): asserts actor is Viewer {
  if (!actor?.isAdmin) throw new NotAdminError();
}

async function findTarget(userId: string): Promise<{ id: string; email: string }> {
  const user = await getPrisma().user.findUnique({
    where: { id: userId },
    select: { id: true, email: true },
  });
  if (!user) throw new UserAdminError("That user does not exist (any more). Reload the page.");
  return user;
}

/**
 * Gives `userId` the role `role` in `tenant`, or takes their role there away (`null`).
 * Returns the role they had before. Audited as `role-changed` or `member-removed`.
 */
export async function setTenantRole(
  actor: Viewer | null,
  change: { userId: string; tenant: string; role: TenantRole | null },
  headers?: Headers | null,
): Promise<{ before: TenantRole | null }> {
  assertAdmin(actor);
  const prisma = getPrisma();
  const target = await findTarget(change.userId);
  const key = { userId_tenantId: { userId: target.id, tenantId: change.tenant } };
  const existing = await prisma.tenantMember.findUnique({ where: key, select: { role: true } });
  const parsed = tenantRoleSchema.safeParse(existing?.role);
  const before = parsed.success ? parsed.data : null;
  if (before === change.role) return { before };

  if (change.role === null) {
    await prisma.tenantMember.deleteMany({
      where: { userId: target.id, tenantId: change.tenant },
    });
  } else {
    const tenant = await prisma.tenant.findUnique({
      where: { id: change.tenant },
      select: { id: true },
    });
    if (!tenant) {
      throw new UserAdminError(
        `The tenant must exist: ${change.tenant} is not a tenant of this Routelens.`,
        "tenant",
      );
    }
    await prisma.tenantMember.upsert({
      where: key,
      create: { userId: target.id, tenantId: change.tenant, role: change.role },
      update: { role: change.role },
    });
  }
  await recordAudit({
    action: change.role === null ? "member-removed" : "role-changed",
    actorId: actor.userId,
    actorEmail: actor.email,
    tenantId: change.tenant,
    target: target.email,
    detail: { before, after: change.role },
    headers,
  });
  return { before };
}

/** Makes `userId` an instance admin or takes the right away; never the actor's own. */
export async function setAdmin(
  actor: Viewer | null,
  change: { userId: string; isAdmin: boolean },
  headers?: Headers | null,
): Promise<void> {
  assertAdmin(actor);
  if (change.userId === actor.userId && !change.isAdmin) {
    throw new UserAdminError(
      "You cannot remove your own admin right: ask another admin to do it, so this Routelens always keeps one.",
    );
  }
  const target = await findTarget(change.userId);
  const { count } = await getPrisma().user.updateMany({
    where: { id: target.id, isAdmin: !change.isAdmin },
    data: { isAdmin: change.isAdmin },
  });
  if (count === 0) return;
  await recordAudit({
    action: "admin-changed",
    actorId: actor.userId,
    actorEmail: actor.email,
    target: target.email,
    detail: { before: !change.isAdmin, after: change.isAdmin },
    headers,
  });
}

/**
 * Deactivates `userId`: their sessions are deleted (every page then sends them to sign-in,
 * every download answers 401) and the access check refuses them even with a session left.
 * Signing in again: a wrong password gets the same 401 as an unknown email, so nothing is
 * revealed; only the right password is told (403) that the account is deactivated, which
 * tells the owner whom to ask and tells a guesser nothing a wrong guess would not.
 */
export async function deactivate(
  actor: Viewer | null,
  userId: string,
  headers?: Headers | null,
): Promise<void> {
  assertAdmin(actor);
  if (userId === actor.userId) {
    throw new UserAdminError(
      "You cannot deactivate yourself: ask another admin to do it, so you cannot lock yourself out.",
    );
  }
  const target = await findTarget(userId);
  await deactivateUser(target.id);
  await recordAudit({
    action: "user-deactivated",
    actorId: actor.userId,
    actorEmail: actor.email,
    target: target.email,
    headers,
  });
}

/** Lets a deactivated user sign in again (their roles were kept). */
export async function reactivate(
  actor: Viewer | null,
  userId: string,
  headers?: Headers | null,
): Promise<void> {
  assertAdmin(actor);
  const target = await findTarget(userId);
  await reactivateUser(target.id);
  await recordAudit({
    action: "user-reactivated",
    actorId: actor.userId,
    actorEmail: actor.email,
    target: target.email,
    headers,
  });
}
