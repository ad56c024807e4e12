/**
 * Choices of the tenant and role filters.
 */
import { compareCodeUnits } from "@/lib/text-order";
import type { TenantRolePair } from "./types";

export interface FilterChoices {
  tenants: string[];
  roles: string[];
}

/**
 * Every known tenant (with or without data) and the roles seen for the chosen tenant (all
 * roles when none is chosen). A value in the URL is always offered, so the select shows it.
 */
export function listFilterChoices(
  pairs: readonly TenantRolePair[],
  tenantIds: readonly string[],
  selected: { tenant?: string | undefined; role?: string | undefined },
): FilterChoices {
  const tenants = new Set<string>(tenantIds);
  const roles = new Set<string>();
  for (const pair of pairs) {
    tenants.add(pair.tenant);
    if (!selected.tenant || pair.tenant === selected.tenant) roles.add(pair.role);
  }
  if (selected.tenant) tenants.add(selected.tenant);
  if (selected.role) roles.add(selected.role);
  return { tenants: [...tenants].sort(compareCodeUnits), roles: [...roles].sort(compareCodeUnits) };
}
