/** The tenant and role choices of a dashboard's filter bar, read and prepared in one call. */
import "server-only";
import type { TenantScope } from "@/lib/auth/scope";
import { type FilterChoices, listFilterChoices } from "@/lib/dashboard/filter-choices";
import { listTenantRolePairs } from "./overview";
import { listTenantIds } from "./tenants";

/** Only the tenants in `scope` are offered. */
export async function loadFilterChoices(
  selected: { tenant?: string | undefined; role?: string | undefined },
  scope: TenantScope,
): Promise<FilterChoices> {
  const [pairs, tenantIds] = await Promise.all([listTenantRolePairs(scope), listTenantIds(scope)]);
  return listFilterChoices(pairs, tenantIds, selected);
}
