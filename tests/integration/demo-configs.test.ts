/**
 * The demo tenants' routing configs in the store: every version with the time it took effect,
 * each the version the demo's events carry while it is in force, and a second seeding (or a
 * tenant that already has configs) stores nothing.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DemoTenant } from "@/lib/demo/agent";
import { DEMO_PROFILES } from "@/lib/demo/profiles";
import { createApiKey } from "@/lib/keys";
import { seedDemoConfigs } from "@/scripts/lib/demo-configs";

const databaseUrl = inject("databaseUrl");
const db = new pg.Client({ connectionString: databaseUrl });
const end = new Date("2026-11-30T12:00:00.000Z");
const story = { from: new Date(end.getTime() - 7 * 86_400_000), to: end };

beforeAll(async () => {
  await db.connect();
  for (const profile of DEMO_PROFILES) {
    await createApiKey(profile.tenantId, { label: "demo", isDemo: true });
  }
  await db.query("DELETE FROM routing_configs WHERE tenant_id = ANY($1::text[])", [
    DEMO_PROFILES.map((profile) => profile.tenantId),
  ]);
});

afterAll(async () => {
  await db.end();
});

describe("demo routing configs", () => {
  it("stores each demo tenant's versions as its events carry them, once", async () => {
    const stored = await seedDemoConfigs(databaseUrl, () => end);
    expect(Object.keys(stored).sort()).toEqual(DEMO_PROFILES.map((p) => p.tenantId).sort());
    expect(stored["demo-support"]).toBe(2);

    for (const profile of DEMO_PROFILES) {
      const { rows } = await db.query<{
        revision: number;
        config_version: string;
        saved_at: Date;
        author_kind: string;
      }>(
        "SELECT revision, config_version, saved_at, author_kind FROM routing_configs WHERE tenant_id = $1 ORDER BY revision",
        [profile.tenantId],
      );
      expect(rows.length).toBe(stored[profile.tenantId]);
      const agent = new DemoTenant(profile, story);
      for (const row of rows) {
        expect(row.author_kind).toBe("system");
        expect(row.saved_at.getTime()).toBeGreaterThanOrEqual(story.from.getTime());
        expect(row.saved_at.getTime()).toBeLessThanOrEqual(end.getTime());
        // The demo's events carry this version from the moment it took effect.
        expect(agent.configVersionAt(row.saved_at.getTime())).toBe(row.config_version);
      }
    }

    expect(await seedDemoConfigs(databaseUrl, () => end)).toEqual({});
    const { rows } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM routing_configs WHERE tenant_id = 'demo-support'",
    );
    expect(rows[0]?.n).toBe(2);
  });
});
