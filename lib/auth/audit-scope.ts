/**
 * Which audit entries a viewer reads (SPEC §7): an instance admin reads every entry; a
 * maintainer reads the entries of the tenants they maintain and their own actions; anyone
 * else reads none (the audit page answers them with the not-found page).
 */
import type { Viewer } from "./access";

export type AuditScope =
  | { readonly all: true }
  | { readonly all: false; readonly tenants: readonly string[]; readonly actorId: string };

/** The viewer's audit scope, or null when they may not open the audit log. */
export function auditScopeOf(
  viewer: Pick<Viewer, "isAdmin" | "roles" | "userId">,
): AuditScope | null {
  if (viewer.isAdmin) return { all: true };
  const tenants = [...viewer.roles]
    .filter(([, role]) => role === "maintainer")
    .map(([tenant]) => tenant)
    .sort();
  if (tenants.length === 0) return null;
  return { all: false, tenants, actorId: viewer.userId };
}

/** True when the audit log may be filtered by `tenant` (others answer 404). */
export function auditScopeIncludes(scope: AuditScope, tenant: string): boolean {
  return scope.all || scope.tenants.includes(tenant);
}
