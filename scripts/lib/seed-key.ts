/**
 * A tenant and an API key written straight into the database at `databaseUrl`, for the
 * benchmarks and tests that run their own database (lib/keys.ts writes through the app's own
 * DATABASE_URL). Returns the key.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { generateApiKey } from "@/lib/keys";

export async function seedApiKey(databaseUrl: string, tenant: string): Promise<string> {
  const { key, prefix, hash } = generateApiKey();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("INSERT INTO tenants (id) VALUES ($1) ON CONFLICT DO NOTHING", [tenant]);
    await client.query(
      "INSERT INTO api_keys (id, tenant_id, prefix, hash) VALUES ($1, $2, $3, $4)",
      [randomUUID(), tenant, prefix, hash],
    );
  } finally {
    await client.end();
  }
  return key;
}
