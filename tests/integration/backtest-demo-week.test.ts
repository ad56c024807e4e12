/**
 * The replay against the demo week (the traffic `npm run dev` loads, stored through the ingest
 * store): every recorded decision of every demo tenant, read back by the job's keyset reader
 * and replayed through the JSON form of the config it was recorded under, binds exactly the
 * tools it recorded as `selected` — 0 differences. And the job itself, run with a tenant's
 * config as candidate over a week recorded under that one config, reports 0 differences.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ALL_TENANTS } from "@/lib/auth/scope";
import { readBacktestConfig } from "@/lib/backtest/config";
import { runBacktest } from "@/lib/backtest/job";
import { ConfigReplayer, readRecordedInputs } from "@/lib/backtest/replay";
import { getPool } from "@/lib/db/client";
import { type Cursor, readDecisions } from "@/lib/db/queries/backtest-job";
import { createBacktest, getBacktest } from "@/lib/db/queries/backtests";
import { DemoTenant } from "@/lib/demo/agent";
import { DEMO_PROFILES, DEMO_ROLES } from "@/lib/demo/profiles";
import type { RoutingConfigJson } from "@/lib/schemas/routing-config";
import { type RoutingConfig, routingConfigToJson } from "@/lib/selection";
import { loadDemoTraffic } from "@/scripts/lib/demo-loader";
import { deleteTenantRows } from "../support/tenant-rows";

const WEEK = 7 * 86_400_000;
const now = Date.now();
const window = { from: new Date(now - WEEK - 3_600_000), to: new Date(now + 60_000) };
const client = new pg.Client({ connectionString: inject("databaseUrl") });

beforeAll(async () => {
  await client.connect();
  for (const profile of DEMO_PROFILES) {
    await client.query(
      "INSERT INTO tenants (id, is_demo) VALUES ($1, true) ON CONFLICT (id) DO NOTHING",
      [profile.tenantId],
    );
  }
});

// A week of demo traffic is more than other tests expect to find: it leaves with this file.
afterAll(async () => {
  for (const profile of DEMO_PROFILES) await deleteTenantRows(client, profile.tenantId);
  await client.end();
});

/**
 * The JSON form of a demo configuration: its static palette (the demo agent's workspace-aware
 * resolver is code, which has no JSON form), keywords, policy and catalogue.
 */
function demoConfigJson(config: RoutingConfig): RoutingConfigJson {
  return routingConfigToJson({ ...config, paletteResolver: null });
}

/** Every configuration a demo tenant goes through, by the version its decisions carry. */
function demoConfigsByVersion(tenant: DemoTenant): Map<string, unknown> {
  const configs = new Map<string, unknown>();
  for (let i = 0; i <= 1_000; i++) {
    const ms = now - WEEK + (i / 1_000) * WEEK;
    const version = tenant.configVersionAt(ms);
    if (!configs.has(version)) configs.set(version, demoConfigJson(tenant.versionAt(ms).config));
  }
  return configs;
}

describe("replaying the demo week", () => {
  it("reproduces every recorded selection exactly", async () => {
    const loaded = await loadDemoTraffic({ now, log: () => {} });
    expect(loaded.decisions).toBeGreaterThan(50_000);

    let replayed = 0;
    const differences: string[] = [];
    const story = { from: new Date(now - WEEK), to: new Date(now) };
    for (const profile of DEMO_PROFILES) {
      const configs = demoConfigsByVersion(new DemoTenant(profile, story));
      // The demo agent that routes nothing (mode off) records no config version.
      configs.set("", {});
      const replayers = new Map<string, ConfigReplayer>();
      for (const [version, json] of configs) {
        const read = readBacktestConfig(json);
        if (!read.ok) throw new Error(read.error);
        replayers.set(version, new ConfigReplayer(read.config));
      }
      const scope = { tenantId: profile.tenantId, roles: [], ...window };
      let cursor: Cursor | null = null;
      for (;;) {
        const decisions = await readDecisions(scope, cursor, 5_000);
        const last = decisions.at(-1);
        if (!last) break;
        for (const decision of decisions) {
          const replayer = replayers.get(decision.configVersion);
          if (!replayer) throw new Error(`no demo config has version ${decision.configVersion}`);
          const arm = await replayer.replay(decision, readRecordedInputs(decision));
          if (arm.bound.join() !== decision.selected.join()) {
            differences.push(`${decision.runId}#${decision.iteration}`);
          }
          replayed++;
        }
        cursor = { ts: last.ts, id: last.id };
      }
    }
    expect(replayed).toBeGreaterThanOrEqual(loaded.decisions);
    expect(differences).toEqual([]);
  }, 600_000);

  it("the job, with a config as candidate over traffic recorded under it, finds 0 differences", async () => {
    const story = { from: new Date(now - WEEK), to: new Date(now) };
    const { rows } = await getPool().query<{ tenant_id: string; versions: number }>(
      `SELECT tenant_id, count(DISTINCT config_version)::int AS versions FROM decisions
        WHERE tenant_id = ANY($1::text[]) AND mode <> 'off' AND ts >= $2 AND ts < $3
        GROUP BY tenant_id`,
      [DEMO_PROFILES.map((p) => p.tenantId), window.from, window.to],
    );
    const single = DEMO_PROFILES.filter(
      (p) => rows.find((r) => r.tenant_id === p.tenantId)?.versions === 1,
    );
    expect(single.length).toBeGreaterThan(0);
    for (const profile of single) {
      const tenant = new DemoTenant(profile, story);
      const candidate = demoConfigJson(tenant.versionAt(now).config);
      const id = await createBacktest({
        input: {
          tenantId: profile.tenantId,
          roles: [...DEMO_ROLES],
          ...window,
          candidate,
          baseline: null,
          thresholdPercent: 1,
        },
        candidateVersion: "cfg_demo",
        baselineVersion: null,
        createdBy: null,
      });
      expect(await runBacktest(id)).toBe("done");
      const result = (await getBacktest(id, ALL_TENANTS))?.result;
      expect(result?.overall.candidate.decisions).toBeGreaterThan(1_000);
      expect(result?.overall.candidate.differFromRecorded).toBe(0);
      expect(result?.overall.candidate.harmfulDrops).toBe(result?.overall.recorded.harmfulDrops);
    }
  }, 300_000);
});
