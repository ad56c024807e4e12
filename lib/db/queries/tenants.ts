import "server-only";
import type { TenantScope } from "@/lib/auth/scope";
import { getPool } from "@/lib/db/client";
import { SqlParams, whereClause } from "./sql";

/** `id = ANY($n)` for a scope limited to some tenants (the tenants table's key is `id`). */
function tenantScopeConditions(params: SqlParams, scope: TenantScope): string[] {
  return scope.all ? [] : [`id = ANY(${params.add(scope.tenants)}::text[])`];
}

/** True when a tenant in `scope` is flagged as demo data (the shell then shows a badge). */
export async function hasDemoTenants(scope: TenantScope): Promise<boolean> {
  const params = new SqlParams();
  const conditions = ["is_demo", ...tenantScopeConditions(params, scope)];
  const { rows } = await getPool().query<{ exists: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM tenants ${whereClause(conditions)}) AS exists`,
    params.values,
  );
  return rows[0]?.exists ?? false;
}

/** Every tenant id in `scope`, sorted. */
export async function listTenantIds(scope: TenantScope): Promise<string[]> {
  const params = new SqlParams();
  const where = whereClause(tenantScopeConditions(params, scope));
  const { rows } = await getPool().query<{ id: string }>(
    `SELECT id FROM tenants ${where} ORDER BY id LIMIT 1000`,
    params.values,
  );
  return rows.map((row) => row.id);
}
