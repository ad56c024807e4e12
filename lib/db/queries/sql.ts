import "server-only";
import type { TenantScope } from "@/lib/auth/scope";

/** Collects positional parameters while a query's text is assembled: `where.push(\`x = ${p.add(v)}\`)`. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** `WHERE a AND b`, or nothing. */
export function whereClause(conditions: readonly string[]): string {
  return conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "";
}

/** A LIKE pattern matching values that start with `prefix` (wildcards in it are literal). */
export function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * The condition that keeps a query inside the viewer's tenants: none for admins, otherwise
 * `tenant_id = ANY($n)` (false for a viewer with no tenant, so they read nothing).
 */
export function scopeConditions(params: SqlParams, scope: TenantScope, alias = ""): string[] {
  if (scope.all) return [];
  return [`${alias}tenant_id = ANY(${params.add(scope.tenants)}::text[])`];
}
