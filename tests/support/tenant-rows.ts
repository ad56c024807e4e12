import type pg from "pg";
import { TENANT_SCOPED_TABLES } from "@/lib/db/tenant-tables";

/**
 * Deletes a test tenant's rows (raw rows, runs, rollups, keys) and the tenant, so data a test
 * placed far in the past does not reach tests that prune or count across tenants.
 */
export async function deleteTenantRows(client: pg.Client, tenant: string): Promise<void> {
  for (const table of TENANT_SCOPED_TABLES) {
    await client.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [tenant]);
  }
  await client.query("DELETE FROM tenants WHERE id = $1", [tenant]);
}
