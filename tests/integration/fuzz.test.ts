/**
 * Seeded fuzzing of POST /api/ingest over real HTTP (scripts/lib/fuzz-requests.ts): two
 * tenants send a few thousand mutated requests at once. No answer may be a 5xx, every valid
 * event must be stored exactly once whatever its neighbours are, nothing invalid may be
 * stored, the answers must agree with the stored rows, and every rollup must equal the sums
 * of the raw rows. `npm run fuzz -- --requests 20000 --seed N` runs the same checks longer.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createApiKey } from "@/lib/keys";
import { runFuzz } from "@/scripts/lib/fuzz-run";
import { rollupDifferences } from "../support/rollup-sums";
import { deleteTenantRows } from "../support/tenant-rows";

const REQUESTS = 2_500;
const SEED = 20_261_130;

let db: pg.Client;
const suffix = Date.now();
const tenantIds = [`fuzz-a-${suffix}`, `fuzz-b-${suffix}`] as const;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
});

afterAll(async () => {
  // Some accepted timestamps lie a year back: they must not reach tests that prune or count
  // across tenants.
  for (const tenant of tenantIds) await deleteTenantRows(db, tenant);
  await db.end();
});

describe("fuzzed ingest from two tenants at once", () => {
  it(`${REQUESTS} mutated requests: no 5xx, valid events stored exactly once, rollups equal raw sums`, async () => {
    const tenants = [
      { id: tenantIds[0], key: (await createApiKey(tenantIds[0])).key },
      { id: tenantIds[1], key: (await createApiKey(tenantIds[1])).key },
    ] as const;
    const report = await runFuzz({
      target: { baseUrl: inject("baseUrl"), tenants, db },
      seed: SEED,
      requests: REQUESTS,
      // The server is shared with the other test files: a burst of failed keys would get this
      // address throttled for them too (ingest-limits.test.ts tests the throttle).
      keyMutations: false,
    });

    expect(report.requests).toBe(REQUESTS);
    expect(report.failures).toEqual([]);
    expect(report.statuses["401"] ?? 0).toBe(0);
    expect(Object.keys(report.statuses).filter((status) => Number(status) >= 500)).toEqual([]);
    // The run exercised both answers and stored a substantial share of what it sent.
    expect(report.statuses["207"]).toBeGreaterThan(REQUESTS / 10);
    expect(report.statuses["200"]).toBeGreaterThan(REQUESTS / 10);
    expect(report.stored).toBeGreaterThan(report.events / 2);
    expect(await rollupDifferences(db, tenants[0].id)).toEqual([]);
    expect(await rollupDifferences(db, tenants[1].id)).toEqual([]);
  }, 150_000);
});
