/**
 * A tenant's ingest limits set by an admin on the keys page (docs/LIMITS.md): only an admin
 * may save them, a bad value is named with its rule, the save is audited, the page shows them
 * to admins alone, and /api/ingest applies them from the tenant's next request. The rules are
 * exercised through the function the page's server action calls (with the viewer passed in);
 * the page is read over real HTTP with real sessions.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Viewer } from "@/lib/auth/access";
import { saveLimitsAs } from "@/lib/auth/limit-management";
import { createApiKey } from "@/lib/keys";
import { decisionEvent } from "@/lib/telemetry/events";
import { type SignedIn, signedInUser } from "../support/accounts";
import { postBatch } from "../support/http";
import { formData, testViewer } from "../support/viewers";

const databaseUrl = inject("databaseUrl");
const baseUrl = inject("baseUrl");
const tenant = `limits-admin-${Date.now().toString(36)}`;
const db = new pg.Client({ connectionString: databaseUrl });

const batchOf = (size: number) =>
  Array.from({ length: size }, (_, iteration) => decisionEvent({ run_id: "admin-run", iteration }));

let key: string;
let admin: Viewer;
let maintainer: Viewer;

beforeAll(async () => {
  await db.connect();
  key = (await createApiKey(tenant)).key;
  admin = await testViewer(databaseUrl, {}, true);
  maintainer = await testViewer(databaseUrl, { [tenant]: "maintainer" });
});

afterAll(async () => {
  await db.end();
});

describe("saving a tenant's ingest limits", () => {
  it("is refused to a maintainer of the tenant", async () => {
    const state = await saveLimitsAs(
      maintainer,
      formData({ limitsTenant: tenant, tenantEventsPerSecond: "5" }),
    );
    expect(state.error).toMatch(/Only an admin/);
    const { rows } = await db.query("SELECT 1 FROM tenant_ingest_limits WHERE tenant_id = $1", [
      tenant,
    ]);
    expect(rows).toHaveLength(0);
  });

  it("names the field and the rule of a bad value, and an unknown tenant", async () => {
    const bad = await saveLimitsAs(
      admin,
      formData({ limitsTenant: tenant, tenantBurst: "0", keyEventsPerSecond: "1.5" }),
    );
    expect(bad.fieldErrors).toEqual({
      tenantBurst: "must be at least 1",
      keyEventsPerSecond: "must be a whole number",
    });
    const unknown = await saveLimitsAs(
      admin,
      formData({ limitsTenant: `${tenant}-none`, tenantBurst: "10" }),
    );
    expect(unknown.fieldErrors?.limitsTenant).toMatch(/is not a tenant/);
  });

  it("applies from the tenant's next request, is audited, and goes back to the defaults", async () => {
    expect((await postBatch(baseUrl, key, batchOf(100))).status).toBe(200);
    const saved = await saveLimitsAs(
      admin,
      formData({
        limitsTenant: tenant,
        tenantEventsPerSecond: "10",
        tenantBurst: "50",
        keyBurst: "",
      }),
    );
    expect(saved.done).toContain(`Ingest limits of tenant ${tenant} saved (2 of its own`);
    const { rows } = await db.query(
      "SELECT tenant_events_per_second, tenant_burst, key_burst, updated_by FROM tenant_ingest_limits WHERE tenant_id = $1",
      [tenant],
    );
    expect(rows).toEqual([
      { tenant_events_per_second: 10, tenant_burst: 50, key_burst: null, updated_by: admin.userId },
    ]);
    const audit = await db.query(
      "SELECT actor_id, tenant_id, detail FROM audit_log WHERE action = 'ingest-limits-changed' AND target = $1",
      [tenant],
    );
    expect(audit.rows).toEqual([
      {
        actor_id: admin.userId,
        tenant_id: tenant,
        detail: { tenantEventsPerSecond: 10, tenantBurst: 50 },
      },
    ]);

    // 100 events from a full bucket of 50: admitted, 50 owed; the next batch is refused.
    expect((await postBatch(baseUrl, key, batchOf(100))).status).toBe(200);
    const refused = await postBatch(baseUrl, key, batchOf(10));
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toContain(
      `Tenant "${tenant}" is over its ingest limit of 10 events per second (burst 50)`,
    );

    const reset = await saveLimitsAs(admin, formData({ limitsTenant: tenant }));
    expect(reset.done).toContain("default ingest limits again");
    const gone = await db.query("SELECT 1 FROM tenant_ingest_limits WHERE tenant_id = $1", [
      tenant,
    ]);
    expect(gone.rows).toHaveLength(0);
  });
});

describe("the keys page's limits section over HTTP", () => {
  let adminSession: SignedIn;
  let maintainerSession: SignedIn;

  beforeAll(async () => {
    adminSession = await signedInUser(baseUrl, databaseUrl, { isAdmin: true });
    maintainerSession = await signedInUser(baseUrl, databaseUrl, {
      roles: { [tenant]: "maintainer" },
    });
  });

  it("shows an admin the defaults and a tenant's own limits, and a maintainer nothing of them", async () => {
    await saveLimitsAs(admin, formData({ limitsTenant: tenant, tenantConcurrentRequests: "7" }));
    const page = await (await adminSession.fetch("/settings/keys")).text();
    expect(page).toContain("Ingest limits");
    expect(page).toContain('data-testid="ingest-limits-table"');
    expect(page).toContain('data-testid="ingest-limits-form"');
    expect(page).toContain("default 50,000");
    expect(page).toMatch(new RegExp(`<th scope="row">${tenant}</th>`));

    const forMaintainer = await (await maintainerSession.fetch("/settings/keys")).text();
    expect(forMaintainer).toContain("Ingest keys");
    expect(forMaintainer).not.toContain("ingest-limits-form");
    expect(forMaintainer).not.toContain("Ingest limits");
  });
});
