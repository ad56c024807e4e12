import { describe, expect, it } from "vitest";
import { routingConfigJsonSchema } from "@/lib/schemas/routing-config";
import { configVersion, routingConfigFromJson } from "@/lib/selection";
import { DemoTenant } from "./agent";
import { DEMO_PROFILES } from "./profiles";
import { supportProfile } from "./profiles/support";
import { type DemoConfigVersion, demoRoutingConfigs } from "./routing-configs";

const DAY = 86_400_000;
const TO = Date.parse("2026-03-09T00:00:00Z");
const STORY = { from: new Date(TO - 7 * DAY), to: new Date(TO) };

/** The version in force at `ms` according to the stored history. */
function storedVersionAt(versions: readonly DemoConfigVersion[], ms: number): string | undefined {
  let current: string | undefined;
  for (const version of versions)
    if (version.effectiveAt.getTime() <= ms) current = version.configVersion;
  return current;
}

describe("demoRoutingConfigs", () => {
  const configs = demoRoutingConfigs(STORY);
  const byTenant = (tenantId: string) => configs.filter((c) => c.tenantId === tenantId);

  it("lists every demo tenant, in the order the versions took effect", () => {
    expect(new Set(configs.map((c) => c.tenantId))).toEqual(
      new Set(DEMO_PROFILES.map((p) => p.tenantId)),
    );
    expect(byTenant("demo-support")).toHaveLength(2);
    expect(byTenant("demo-pricing")).toHaveLength(1);
    expect(byTenant("demo-analytics")).toHaveLength(1);
    for (const profile of DEMO_PROFILES) {
      const versions = byTenant(profile.tenantId);
      expect(versions[0]?.effectiveAt).toEqual(STORY.from);
      const times = versions.map((v) => v.effectiveAt.getTime());
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
    const [, change] = byTenant("demo-support");
    expect(change?.note).toMatch(/reship_order/);
    expect(change?.effectiveAt.getTime()).toBeCloseTo(STORY.from.getTime() + 0.45 * 7 * DAY, -1);
  });

  it("gives valid JSON whose version is the one listed", () => {
    for (const config of configs) {
      const parsed = routingConfigJsonSchema.parse(JSON.parse(JSON.stringify(config.json)));
      expect(configVersion(routingConfigFromJson(parsed))).toBe(config.configVersion);
      expect(config.json.catalog?.length).toBeGreaterThan(10);
    }
    expect(new Set(configs.map((c) => c.configVersion)).size).toBe(configs.length);
  });

  it("lists the config_version the demo's events carry, at every moment of the window", async () => {
    for (const profile of DEMO_PROFILES) {
      const tenant = new DemoTenant(profile, STORY);
      const versions = byTenant(profile.tenantId);
      const seen = new Set<string>();
      for (let i = 0; i < 40; i++) {
        const start = STORY.from.getTime() + ((i + 0.5) / 40) * 7 * DAY;
        const run = await tenant.simulateRun({ start, seed: 77 + i });
        for (const event of run.events) {
          if (event.type !== "tool_routing_decision") continue;
          const at = Date.parse(event.timestamp);
          expect(event.config_version).toBe(storedVersionAt(versions, at));
          seen.add(event.config_version ?? "");
        }
      }
      expect(seen).toEqual(new Set(versions.map((v) => v.configVersion)));
    }
  });

  it("switches exactly when the demo agent switches", () => {
    const tenant = new DemoTenant(supportProfile, STORY);
    const [, change] = byTenant("demo-support");
    const switchAt = change?.effectiveAt.getTime() ?? 0;
    expect(tenant.configVersionAt(switchAt)).toBe(change?.configVersion);
    expect(tenant.configVersionAt(switchAt - 1)).not.toBe(change?.configVersion);
  });
});
