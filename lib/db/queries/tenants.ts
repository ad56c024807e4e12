import "server-only";
import { getPool } from "@/lib/db/client";

/** True when any tenant is flagged as demo data (the shell then shows a badge). */
export async function hasDemoTenants(): Promise<boolean> {
  const { rows } = await getPool().query<{ exists: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM tenants WHERE is_demo) AS exists",
  );
  return rows[0]?.exists ?? false;
}

/** Every tenant id, sorted. */
export async function listTenantIds(): Promise<string[]> {
  const { rows } = await getPool().query<{ id: string }>(
    "SELECT id FROM tenants ORDER BY id LIMIT 1000",
  );
  return rows.map((row) => row.id);
}
