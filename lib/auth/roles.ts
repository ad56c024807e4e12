/** Tenant memberships as stored (`tenant_members`) read into typed roles. */
import { type TenantRole, tenantRoleSchema } from "@/lib/schemas/accounts";

/** The memberships whose role is one Routelens knows, in their order. */
export function readMemberships(
  memberships: readonly { tenantId: string; role: string }[],
): { tenant: string; role: TenantRole }[] {
  return memberships.flatMap((member) => {
    const role = tenantRoleSchema.safeParse(member.role);
    return role.success ? [{ tenant: member.tenantId, role: role.data }] : [];
  });
}
