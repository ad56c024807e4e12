/**
 * The demo tenants' routing configs in the config store: each tenant's real configuration as
 * JSON (`demoRoutingConfigs`, the versions the demo's events carry), every version with the
 * time it took effect inside the demo window, so the tenant whose configuration changes during
 * the demo week has that change in its history and the demo can backtest its configs.
 * Idempotent: a tenant that already has stored configs is left alone, so a second run (or a
 * config a user saved) changes nothing.
 */
import pg from "pg";
import { saveRoutingConfig } from "@/lib/configs/store";
import { DEMO_PROFILES } from "@/lib/demo/profiles";
import { demoRoutingConfigs } from "@/lib/demo/routing-configs";

const WEEK_MS = 7 * 86_400_000;

/**
 * Stores the configs of every demo tenant that exists and has none yet; returns how many
 * versions it stored per tenant. `storyEnd` gives the end of a tenant's demo window (the week
 * before it) from the time the tenant was created: the time the demo is loaded when it is
 * being loaded, the tenant's creation for a demo loaded earlier.
 */
export async function seedDemoConfigs(
  databaseUrl: string,
  storyEnd: (tenantCreatedAt: Date) => Date,
): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let tenants: { id: string; created_at: Date }[];
  try {
    ({ rows: tenants } = await client.query<{ id: string; created_at: Date }>(
      `SELECT id, created_at FROM tenants t
        WHERE is_demo AND id = ANY($1::text[])
          AND NOT EXISTS (SELECT 1 FROM routing_configs c WHERE c.tenant_id = t.id)
        ORDER BY id`,
      [DEMO_PROFILES.map((profile) => profile.tenantId)],
    ));
  } finally {
    await client.end();
  }
  const stored: Record<string, number> = {};
  for (const tenant of tenants) {
    const profile = DEMO_PROFILES.find((p) => p.tenantId === tenant.id);
    if (!profile) continue;
    const to = storyEnd(tenant.created_at);
    const story = { from: new Date(to.getTime() - WEEK_MS), to };
    stored[tenant.id] = 0;
    for (const version of demoRoutingConfigs(story, [profile])) {
      const saved = await saveRoutingConfig({
        tenant: tenant.id,
        config: version.json,
        note: version.note,
        author: { kind: "system", name: "demo" },
        savedAt: version.effectiveAt,
      });
      if (saved.status === "invalid") {
        const issues = saved.issues.map((issue) => `${issue.field}: ${issue.message}`);
        throw new Error(`the demo config of ${tenant.id} is refused: ${issues.join("; ")}`);
      }
      if (saved.status === "saved") stored[tenant.id] = (stored[tenant.id] ?? 0) + 1;
    }
  }
  return stored;
}
