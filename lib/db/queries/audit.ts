/**
 * The audit log's reads (`/settings/audit`), always within the viewer's `AuditScope`. Newest
 * first; the table's indexes on (at desc), (action, at desc) and (tenant_id, at desc) serve
 * the unfiltered log and its action and tenant filters.
 */
import "server-only";
import type { AuditScope } from "@/lib/auth/audit-scope";
import type { Period } from "@/lib/dashboard/time-range";
import { getPool } from "@/lib/db/client";
import { likePrefix, SqlParams, whereClause } from "./sql";

export interface AuditFilter {
  scope: AuditScope;
  action?: string | undefined;
  tenant?: string | undefined;
  /** Start of the actor's email, or of the email a failed sign-in tried. */
  actorPrefix?: string | undefined;
  period?: Period | null | undefined;
}

/** One row of `audit_log` as the page shows it. */
export interface AuditEntryRow {
  id: string;
  at: string;
  actorEmail: string | null;
  action: string;
  tenantId: string | null;
  target: string | null;
  detail: unknown;
  ip: string | null;
}

/** The WHERE conditions of `filter`, scope first. */
function auditConditions(params: SqlParams, filter: AuditFilter): string[] {
  const conditions: string[] = [];
  const { scope } = filter;
  if (!scope.all) {
    conditions.push(
      `(tenant_id = ANY(${params.add(scope.tenants)}::text[]) OR actor_id = ${params.add(scope.actorId)})`,
    );
  }
  if (filter.action !== undefined) conditions.push(`action = ${params.add(filter.action)}`);
  if (filter.tenant !== undefined) conditions.push(`tenant_id = ${params.add(filter.tenant)}`);
  if (filter.actorPrefix !== undefined) {
    const pattern = params.add(likePrefix(filter.actorPrefix.toLowerCase()));
    // A failed sign-in has no actor: the email it tried is its target.
    conditions.push(
      `(actor_email LIKE ${pattern} OR (actor_email IS NULL AND action = 'sign-in-failed' AND target LIKE ${pattern}))`,
    );
  }
  if (filter.period) {
    conditions.push(`at >= ${params.add(filter.period.from)}`);
    conditions.push(`at < ${params.add(filter.period.to)}`);
  }
  return conditions;
}

export async function countAuditEntries(filter: AuditFilter): Promise<number> {
  const params = new SqlParams();
  const where = whereClause(auditConditions(params, filter));
  const { rows } = await getPool().query<{ count: string }>(
    `SELECT count(*) AS count FROM audit_log ${where}`,
    params.values,
  );
  return Number(rows[0]?.count ?? 0);
}

/** One page of entries, newest first. */
export async function listAuditEntries(
  filter: AuditFilter,
  page: { offset: number; limit: number },
): Promise<AuditEntryRow[]> {
  const params = new SqlParams();
  const where = whereClause(auditConditions(params, filter));
  const { rows } = await getPool().query<{
    id: string;
    at: Date;
    actor_email: string | null;
    action: string;
    tenant_id: string | null;
    target: string | null;
    detail: unknown;
    ip: string | null;
  }>(
    `SELECT id::text AS id, at, actor_email, action, tenant_id, target, detail, ip
       FROM audit_log ${where}
      ORDER BY at DESC, id DESC
      OFFSET ${params.add(page.offset)} LIMIT ${params.add(page.limit)}`,
    params.values,
  );
  return rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    actorEmail: row.actor_email,
    action: row.action,
    tenantId: row.tenant_id,
    target: row.target,
    detail: row.detail,
    ip: row.ip,
  }));
}
