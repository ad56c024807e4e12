/**
 * The tenants a dashboard query may read. Built only from a signed-in viewer (`access.ts`);
 * every dashboard query takes one, and `scopeCondition` turns it into SQL.
 */
export type TenantScope =
  | { readonly all: true }
  | { readonly all: false; readonly tenants: readonly string[] };

export const ALL_TENANTS: TenantScope = { all: true };

export function tenantsScope(tenants: readonly string[]): TenantScope {
  return { all: false, tenants: [...tenants].sort() };
}

export function scopeIncludes(scope: TenantScope, tenant: string): boolean {
  return scope.all || scope.tenants.includes(tenant);
}

/** Only the tenants in `scope`, in their order. */
export function filterToScope(scope: TenantScope, tenants: readonly string[]): string[] {
  return scope.all ? [...tenants] : tenants.filter((tenant) => scope.tenants.includes(tenant));
}
