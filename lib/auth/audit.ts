/**
 * The audit log (SPEC §7): who did what, when, from where. Rows are only ever added; the
 * settings page reads them (`listAuditEntries`).
 */
import { getPrisma } from "@/lib/db/client";
import { env } from "@/lib/env";
import { clientAddress } from "@/lib/ingest/auth-throttle";

/** Every audited action with the words the audit page shows for it. */
export const AUDIT_ACTIONS = {
  "sign-in": "signed in",
  "sign-in-failed": "failed to sign in",
  "sign-out": "signed out",
  "password-set": "set their password",
  "password-changed": "changed their password",
  "setup-completed": "set up this instance",
  "key-created": "created an ingest key",
  "key-revoked": "revoked an ingest key",
  "ingest-limits-changed": "changed a tenant's ingest limits",
  "user-invited": "invited a user",
  "invitation-revoked": "revoked an invitation",
  "invitation-accepted": "accepted an invitation",
  "role-changed": "changed a tenant role",
  "member-removed": "removed a tenant role",
  "admin-changed": "changed admin rights",
  "user-deactivated": "deactivated a user",
  "user-reactivated": "reactivated a user",
  "alert-rule-created": "created an alert rule",
  "alert-rule-changed": "changed an alert rule",
  "alert-rule-muted": "muted an alert rule",
  "alert-rule-unmuted": "unmuted an alert rule",
  "alert-rule-deleted": "deleted an alert rule",
  "backtest-started": "started a backtest",
  "backtest-cancelled": "cancelled a backtest",
  "config-saved": "saved a new routing config version",
  "config-unchanged": "saved a routing config equal to the current one",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export interface AuditInput {
  action: AuditAction;
  actorId?: string | null | undefined;
  /** Filled from the actor's row when only `actorId` is given. */
  actorEmail?: string | null | undefined;
  tenantId?: string | null | undefined;
  /** What the action was done to: a key prefix, a user's email. */
  target?: string | null | undefined;
  detail?: Record<string, string | number | boolean | null> | undefined;
  /** The request's headers, for the client address. */
  headers?: Headers | null | undefined;
}

const TARGET_MAX = 400;

/** The client address of a request, by the rule of ROUTELENS_TRUST_PROXY. */
export function addressOf(headers: Headers | null | undefined): string | null {
  if (!headers) return null;
  const address = clientAddress(headers, env().ROUTELENS_TRUST_PROXY);
  return address === "unknown" ? null : address.slice(0, 100);
}

export async function recordAudit(entry: AuditInput): Promise<void> {
  const prisma = getPrisma();
  let actorEmail = entry.actorEmail ?? null;
  if (!actorEmail && entry.actorId) {
    const actor = await prisma.user.findUnique({
      where: { id: entry.actorId },
      select: { email: true },
    });
    actorEmail = actor?.email ?? null;
  }
  await prisma.auditEntry.create({
    data: {
      action: entry.action,
      actorId: entry.actorId ?? null,
      actorEmail: actorEmail?.slice(0, 320) ?? null,
      tenantId: entry.tenantId ?? null,
      target: entry.target?.slice(0, TARGET_MAX) ?? null,
      detail: entry.detail ?? undefined,
      ip: addressOf(entry.headers),
    },
  });
}
