/** The tenant and role choices of a dashboard's filter bar, read and prepared in one call. */
import "server-only";
import { type FilterChoices, listFilterChoices } from "@/lib/dashboard/filter-choices";
import { listTenantRolePairs } from "./overview";
import { listTenantIds } from "./tenants";

export async function loadFilterChoices(selected: {
  tenant?: string | undefined;
  role?: string | undefined;
}): Promise<FilterChoices> {
  const [pairs, tenantIds] = await Promise.all([listTenantRolePairs(), listTenantIds()]);
  return listFilterChoices(pairs, tenantIds, selected);
}
