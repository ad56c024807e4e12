/**
 * Ingest keys on the settings page: who may create and revoke which tenant's keys, what the
 * page lists to whom, the audit rows, and that a revoked key is refused by /api/ingest from
 * its very next request. The rules are exercised through the functions the page's server
 * actions call (with the viewer passed in); the page itself is read over real HTTP with real
 * sessions, and the browser test (e2e/settings-keys.spec.ts) drives the real form.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createKeyAs, loadKeysPage, revokeKeyAs } from "@/lib/auth/key-management";
import { createApiKey } from "@/lib/keys";
import { decisionEvent } from "@/lib/telemetry/events";
import { type SignedIn, signedInUser } from "../support/accounts";
import { postBatch } from "../support/http";
import { formData, testViewer } from "../support/viewers";

const databaseUrl = inject("databaseUrl");
const baseUrl = inject("baseUrl");

const run = Date.now().toString(36);
const tenantA = `keys-a-${run}`;
const tenantB = `keys-b-${run}`;

/** The viewer `access.ts` resolves for a user with these rights. */
const db = new pg.Client({ connectionString: databaseUrl });

async function auditRows(action: string, target: string) {
  const { rows } = await db.query<{
    actor_id: string | null;
    actor_email: string | null;
    tenant_id: string | null;
    target: string | null;
  }>(
    "SELECT actor_id, actor_email, tenant_id, target FROM audit_log WHERE action = $1 AND target = $2",
    [action, target],
  );
  return rows;
}

async function keyRow(prefix: string) {
  const { rows } = await db.query<{
    tenant_id: string;
    created_by: string | null;
    revoked_at: Date | null;
  }>("SELECT tenant_id, created_by, revoked_at FROM api_keys WHERE prefix = $1", [prefix]);
  return rows[0];
}

async function countKeys(tenant: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM api_keys WHERE tenant_id = $1",
    [tenant],
  );
  return rows[0]?.n ?? 0;
}

async function tenantExists(tenant: string): Promise<boolean> {
  const { rows } = await db.query("SELECT 1 FROM tenants WHERE id = $1", [tenant]);
  return rows.length > 0;
}

const ingest = (key: string) => postBatch(baseUrl, key, [decisionEvent()]);

let maintainerA: Awaited<ReturnType<typeof testViewer>>;
let viewerA: Awaited<ReturnType<typeof testViewer>>;
let admin: Awaited<ReturnType<typeof testViewer>>;
let keyOfB: { key: string; prefix: string; id: string };

beforeAll(async () => {
  await db.connect();
  maintainerA = await testViewer(databaseUrl, { [tenantA]: "maintainer" });
  viewerA = await testViewer(databaseUrl, { [tenantA]: "viewer" });
  admin = await testViewer(databaseUrl, {}, true);
  const created = await createApiKey(tenantB, { label: "b's agent" });
  const { rows } = await db.query<{ id: string }>("SELECT id FROM api_keys WHERE prefix = $1", [
    created.prefix,
  ]);
  keyOfB = { ...created, id: rows[0]?.id ?? "" };
});

afterAll(async () => {
  await db.end();
});

describe("a maintainer of tenant A", () => {
  it("creates a key for A (shown once), uses it, and revokes it: refused from the next request", async () => {
    const created = await createKeyAs(
      maintainerA,
      formData({ tenant: tenantA, label: "  support agent  " }),
    );
    expect(created.fieldErrors).toBeUndefined();
    expect(created.error).toBeUndefined();
    const key = created.secret ?? "";
    expect(key).toMatch(/^rl_[A-Za-z0-9_-]{32}$/);
    const prefix = key.slice(0, 12);
    expect(created.done).toContain(prefix);

    const stored = await keyRow(prefix);
    expect(stored).toMatchObject({ tenant_id: tenantA, created_by: maintainerA.userId });
    expect(stored?.revoked_at).toBeNull();

    // Twice, so the ingest endpoint has certainly cached the key as one that works.
    expect((await ingest(key)).status).toBe(200);
    expect((await ingest(key)).status).toBe(200);

    const listed = await loadKeysPage(maintainerA);
    const row = listed.keys.find((k) => k.prefix === prefix);
    expect(row).toMatchObject({
      tenantId: tenantA,
      label: "support agent",
      creatorEmail: maintainerA.email,
      revokedAt: null,
    });
    expect(row?.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(key);

    const revoked = await revokeKeyAs(maintainerA, formData({ keyId: row?.id ?? "" }));
    expect(revoked.error).toBeUndefined();
    expect(revoked.done).toContain("revoked");
    expect((await ingest(key)).status).toBe(401);
    expect((await keyRow(prefix))?.revoked_at).toBeInstanceOf(Date);

    const afterRevoke = await loadKeysPage(maintainerA);
    expect(afterRevoke.keys.find((k) => k.prefix === prefix)?.revokedAt).not.toBeNull();

    expect(await auditRows("key-created", prefix)).toEqual([
      {
        actor_id: maintainerA.userId,
        actor_email: maintainerA.email,
        tenant_id: tenantA,
        target: prefix,
      },
    ]);
    expect(await auditRows("key-revoked", prefix)).toEqual([
      {
        actor_id: maintainerA.userId,
        actor_email: maintainerA.email,
        tenant_id: tenantA,
        target: prefix,
      },
    ]);

    // Revoking again changes nothing and writes no second row.
    const again = await revokeKeyAs(maintainerA, formData({ keyId: row?.id ?? "" }));
    expect(again.done).toContain("already revoked");
    expect(await auditRows("key-revoked", prefix)).toHaveLength(1);
  });

  it("cannot create a key for B: answered like a tenant that does not exist, and nothing is made", async () => {
    const missing = `keys-missing-${run}`;
    const forB = await createKeyAs(maintainerA, formData({ tenant: tenantB }));
    const forMissing = await createKeyAs(maintainerA, formData({ tenant: missing }));
    expect(forB.fieldErrors?.tenant).toMatch(/not a tenant whose keys you manage/);
    expect(forB.fieldErrors).toEqual(forMissing.fieldErrors);
    expect(forB.error).toEqual(forMissing.error);
    expect(forB.secret).toBeUndefined();
    expect(await countKeys(tenantB)).toBe(1);
    expect(await tenantExists(missing)).toBe(false);
  });

  it("cannot revoke B's key: answered like a key that does not exist, and B's key keeps working", async () => {
    const ofB = await revokeKeyAs(maintainerA, formData({ keyId: keyOfB.id }));
    const unknown = await revokeKeyAs(maintainerA, formData({ keyId: randomUUID() }));
    expect(ofB.error).toMatch(/No such key/);
    expect(ofB).toEqual(unknown);
    expect((await keyRow(keyOfB.prefix))?.revoked_at).toBeNull();
    expect((await ingest(keyOfB.key)).status).toBe(200);
    expect(await auditRows("key-revoked", keyOfB.prefix)).toEqual([]);
  });

  it("lists A's keys only, newest first, with the creator or 'command line'", async () => {
    const fromCli = await createApiKey(tenantA);
    const fromPage = await createKeyAs(maintainerA, formData({ tenant: tenantA }));
    const page = await loadKeysPage(maintainerA);
    expect(page.canManage).toBe(true);
    expect(page.canCreateTenant).toBe(false);
    expect(page.tenantChoices).toEqual([tenantA]);
    expect(new Set(page.keys.map((k) => k.tenantId))).toEqual(new Set([tenantA]));
    const created = page.keys.map((k) => k.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    expect(page.keys[0]?.prefix).toBe(fromPage.secret?.slice(0, 12));
    expect(page.keys.find((k) => k.prefix === fromCli.prefix)?.creatorEmail).toBeNull();
  });

  it("gets each bad field named with its rule", async () => {
    const badTenant = await createKeyAs(maintainerA, formData({ tenant: "has space", label: "" }));
    expect(badTenant.fieldErrors).toEqual({
      tenant: "letters, digits, '.', '_' and '-' only",
    });
    const longLabel = await createKeyAs(
      maintainerA,
      formData({ tenant: tenantA, label: "x".repeat(201) }),
    );
    expect(longLabel.fieldErrors).toEqual({ label: "must be at most 200 characters" });
    const noTenant = await createKeyAs(maintainerA, formData({}));
    expect(Object.keys(noTenant.fieldErrors ?? {})).toEqual(["tenant"]);
    const badId = await revokeKeyAs(maintainerA, formData({ keyId: "rl_abc" }));
    expect(badId.fieldErrors).toEqual({ keyId: "must be the id of a key listed on this page" });
  });
});

describe("a viewer of tenant A", () => {
  it("sees no key data and can neither create nor revoke A's keys", async () => {
    const page = await loadKeysPage(viewerA);
    expect(page).toEqual({ canManage: false, tenantChoices: [], canCreateTenant: false, keys: [] });

    const before = await countKeys(tenantA);
    const created = await createKeyAs(viewerA, formData({ tenant: tenantA }));
    expect(created.fieldErrors?.tenant).toMatch(/not a tenant whose keys you manage/);
    expect(created.secret).toBeUndefined();
    expect(await countKeys(tenantA)).toBe(before);

    const ofA = await createApiKey(tenantA);
    const { rows } = await db.query<{ id: string }>("SELECT id FROM api_keys WHERE prefix = $1", [
      ofA.prefix,
    ]);
    const revoked = await revokeKeyAs(viewerA, formData({ keyId: rows[0]?.id ?? "" }));
    expect(revoked.error).toMatch(/No such key/);
    expect((await ingest(ofA.key)).status).toBe(200);
  });
});

describe("an instance admin", () => {
  it("sees every tenant's keys and creates a key for a new tenant, which creates the tenant", async () => {
    const fresh = `keys-new-${run}`;
    const before = await loadKeysPage(admin);
    expect(before.canCreateTenant).toBe(true);
    expect(before.tenantChoices).toEqual(expect.arrayContaining([tenantA, tenantB]));
    expect(before.keys.some((k) => k.tenantId === tenantB)).toBe(true);

    const created = await createKeyAs(admin, formData({ tenant: fresh, label: "first" }));
    const key = created.secret ?? "";
    expect(key).toMatch(/^rl_/);
    expect(await tenantExists(fresh)).toBe(true);
    expect((await ingest(key)).status).toBe(200);
    expect(await auditRows("key-created", key.slice(0, 12))).toEqual([
      {
        actor_id: admin.userId,
        actor_email: admin.email,
        tenant_id: fresh,
        target: key.slice(0, 12),
      },
    ]);
  });
});

describe("the keys page over HTTP", () => {
  let maintainerSession: SignedIn;
  let viewerSession: SignedIn;
  let adminSession: SignedIn;

  beforeAll(async () => {
    maintainerSession = await signedInUser(baseUrl, databaseUrl, {
      roles: { [tenantA]: "maintainer" },
    });
    viewerSession = await signedInUser(baseUrl, databaseUrl, { roles: { [tenantA]: "viewer" } });
    adminSession = await signedInUser(baseUrl, databaseUrl, { isAdmin: true });
  });

  it("sends anonymous visitors to sign-in, and /settings to its keys tab", async () => {
    const anonymous = await fetch(`${baseUrl}/settings/keys`, { redirect: "manual" });
    expect([303, 307]).toContain(anonymous.status);
    expect(anonymous.headers.get("location")).toMatch(/\/sign-in/);

    const settings = await maintainerSession.fetch("/settings");
    expect([303, 307, 308]).toContain(settings.status);
    expect(new URL(settings.headers.get("location") ?? "", baseUrl).pathname).toBe(
      "/settings/keys",
    );
  });

  it("shows a maintainer A's keys and not B's, the Audit log tab and not the Users tab", async () => {
    const response = await maintainerSession.fetch("/settings/keys");
    expect(response.status).toBe(200);
    const html = await response.text();
    const { rows } = await db.query<{ prefix: string }>(
      "SELECT prefix FROM api_keys WHERE tenant_id = $1",
      [tenantA],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const { prefix } of rows) expect(html).toContain(prefix);
    expect(html).not.toContain(keyOfB.prefix);
    expect(html).not.toContain(tenantB);
    expect(html).toContain("Ingest keys");
    // Maintainers read their tenants' audit entries; users are for admins alone.
    expect(html).toContain('href="/settings/audit"');
    expect(html).not.toContain('href="/settings/users"');
  });

  it("tells a viewer who manages keys and shows no key", async () => {
    const response = await viewerSession.fetch("/settings/keys");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("created and revoked by a maintainer of that tenant");
    expect(html).not.toContain('data-testid="keys-table"');
    const { rows } = await db.query<{ prefix: string }>(
      "SELECT prefix FROM api_keys WHERE tenant_id = $1",
      [tenantA],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const { prefix } of rows) expect(html).not.toContain(prefix);
  });

  it("shows an admin every tenant's keys and the Users and Audit log tabs", async () => {
    const response = await adminSession.fetch("/settings/keys");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(keyOfB.prefix);
    expect(html).toContain('href="/settings/users"');
    expect(html).toContain('href="/settings/audit"');
  });
});
