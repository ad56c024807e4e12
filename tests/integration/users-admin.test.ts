/**
 * Settings → Users against the production server and its database: the admin-only page,
 * deactivation ending open sessions at once, invitation links (single use, expiry, revocation,
 * concurrent accepts) and the audit rows each change writes. The changes are driven through
 * the same functions the page's server actions call, with the acting user passed in.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Viewer } from "@/lib/auth/access";
import {
  acceptInvitation,
  findInvitation,
  inviteUser,
  revokeInvitation,
} from "@/lib/auth/invitations";
import {
  deactivate,
  reactivate,
  setAdmin,
  setTenantRole,
  UserAdminError,
} from "@/lib/auth/user-admin";
import { listUsers } from "@/lib/auth/user-list";
import { createApiKey } from "@/lib/keys";
import { decisionEvent } from "@/lib/telemetry/events";
import {
  createTestUser,
  type SignedIn,
  signedInUser,
  signIn,
  TEST_PASSWORD,
} from "../support/accounts";
import { postBatch } from "../support/http";

// createUser hashes passwords and links accounts through the auth library, which needs a secret.
process.env.ROUTELENS_AUTH_SECRET ??= randomBytes(32).toString("base64url");

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");

const run = randomBytes(4).toString("hex");
const tenantA = `users-a-${run}`;
const tenantB = `users-b-${run}`;

let db: pg.Client;
let admin: SignedIn;
let adminViewer: Viewer;

function viewerOf(user: { id: string; email: string }, isAdmin: boolean): Viewer {
  return { userId: user.id, email: user.email, name: user.email, isAdmin, roles: new Map() };
}

async function auditRows(action: string, target: string) {
  const { rows } = await db.query<{
    actor_email: string | null;
    tenant_id: string | null;
    detail: Record<string, unknown> | null;
  }>(
    "SELECT actor_email, tenant_id, detail FROM audit_log WHERE action = $1 AND target = $2 ORDER BY id",
    [action, target],
  );
  return rows;
}

async function postSignIn(email: string, password: string): Promise<Response> {
  return fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: baseUrl },
    body: JSON.stringify({ email, password }),
  });
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  for (const tenant of [tenantA, tenantB]) {
    const key = (await createApiKey(tenant)).key;
    const batch = [decisionEvent({ run_id: `run-${tenant}` })];
    expect((await postBatch(baseUrl, key, batch)).status).toBe(200);
  }
  admin = await signedInUser(baseUrl, databaseUrl, { isAdmin: true });
  adminViewer = viewerOf(admin, true);
});

afterAll(async () => {
  await db.end();
});

describe("the users page", () => {
  it("opens for an admin, answers 404 to other users and sends anonymous visitors to sign-in", async () => {
    const page = await admin.fetch("/settings/users");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Users and invitations");
    expect(html).toContain(admin.email);

    const maintainer = await signedInUser(baseUrl, databaseUrl, {
      roles: { [tenantA]: "maintainer" },
    });
    expect((await maintainer.fetch("/settings/users")).status).toBe(404);

    const anonymous = await fetch(`${baseUrl}/settings/users`, { redirect: "manual" });
    expect([303, 307]).toContain(anonymous.status);
    expect(anonymous.headers.get("location")).toContain("/sign-in");
  });

  it("shows the last sign-in from the audit log after the session has ended", async () => {
    const user = await signedInUser(baseUrl, databaseUrl, { roles: { [tenantA]: "viewer" } });
    await db.query("DELETE FROM sessions WHERE user_id = $1", [user.id]);
    const listed = (await listUsers()).find((entry) => entry.email === user.email);
    expect(listed?.lastSignIn).toBeInstanceOf(Date);
    expect(Date.now() - (listed?.lastSignIn?.getTime() ?? 0)).toBeLessThan(60_000);
    expect(listed?.roles).toEqual([{ tenant: tenantA, role: "viewer" }]);
    expect(listed?.methods).toEqual(["password"]);
  });
});

describe("deactivation", () => {
  it("refuses the user's open session on the next request and every new sign-in", async () => {
    const user = await signedInUser(baseUrl, databaseUrl, { roles: { [tenantA]: "viewer" } });
    expect((await user.fetch(`/runs?tenant=${tenantA}`)).status).toBe(200);
    expect((await user.fetch(`/api/export/runs?tenant=${tenantA}`)).status).toBe(200);

    await deactivate(adminViewer, user.id, new Headers());

    const page = await user.fetch(`/runs?tenant=${tenantA}`);
    expect([303, 307]).toContain(page.status);
    expect(page.headers.get("location")).toContain("/sign-in");
    expect((await user.fetch(`/api/export/runs?tenant=${tenantA}`)).status).toBe(401);
    const { rows } = await db.query("SELECT 1 FROM sessions WHERE user_id = $1", [user.id]);
    expect(rows).toHaveLength(0);

    // A wrong password is answered as for an email without an account; only the right
    // password learns that the account is deactivated.
    const wrong = await postSignIn(user.email, "not the password at all");
    const unknown = await postSignIn(`nobody-${run}@example.test`, "not the password at all");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
    const right = await postSignIn(user.email, user.password);
    expect(right.status).toBe(403);
    expect(((await right.json()) as { message: string }).message).toMatch(/deactivated/);
    const refused = await db.query("SELECT 1 FROM sessions WHERE user_id = $1", [user.id]);
    expect(refused.rows).toHaveLength(0);

    await reactivate(adminViewer, user.id, new Headers());
    const again = await signIn(baseUrl, user);
    const back = await fetch(`${baseUrl}/runs?tenant=${tenantA}`, {
      headers: { Cookie: again },
      redirect: "manual",
    });
    expect(back.status).toBe(200);

    const [deactivated] = await auditRows("user-deactivated", user.email);
    expect(deactivated?.actor_email).toBe(admin.email);
    expect(await auditRows("user-reactivated", user.email)).toHaveLength(1);
  });

  it("keeps an admin from deactivating or unmaking themselves, and non-admins from anything", async () => {
    await expect(deactivate(adminViewer, admin.id)).rejects.toThrow(/cannot deactivate yourself/);
    await expect(setAdmin(adminViewer, { userId: admin.id, isAdmin: false })).rejects.toThrow(
      /cannot remove your own admin right/,
    );
    const other = await createTestUser(databaseUrl, { roles: { [tenantA]: "maintainer" } });
    const asMaintainer = viewerOf(other, false);
    await expect(deactivate(asMaintainer, admin.id)).rejects.toBeInstanceOf(UserAdminError);
    await expect(
      setTenantRole(asMaintainer, { userId: other.id, tenant: tenantB, role: "maintainer" }),
    ).rejects.toThrow(/Only an admin/);
    await expect(
      inviteUser(null, { email: `x-${run}@example.test`, isAdmin: true, roles: [] }),
    ).rejects.toThrow(/Only an admin/);
    const { rows } = await db.query("SELECT is_admin, deactivated_at FROM users WHERE id = $1", [
      admin.id,
    ]);
    expect(rows[0]).toEqual({ is_admin: true, deactivated_at: null });
  });
});

describe("roles and admin rights", () => {
  it("changes a tenant role, removes it, and audits each change with the old and new role", async () => {
    const user = await signedInUser(baseUrl, databaseUrl, { roles: { [tenantA]: "viewer" } });
    expect((await user.fetch(`/runs?tenant=${tenantB}`)).status).toBe(404);

    await setTenantRole(adminViewer, { userId: user.id, tenant: tenantB, role: "viewer" });
    expect((await user.fetch(`/runs?tenant=${tenantB}`)).status).toBe(200);
    await setTenantRole(adminViewer, { userId: user.id, tenant: tenantA, role: "maintainer" });
    await setTenantRole(adminViewer, { userId: user.id, tenant: tenantB, role: null });
    expect((await user.fetch(`/runs?tenant=${tenantB}`)).status).toBe(404);

    const changed = await auditRows("role-changed", user.email);
    expect(changed.map((row) => [row.tenant_id, row.detail])).toEqual([
      [tenantB, { before: null, after: "viewer" }],
      [tenantA, { before: "viewer", after: "maintainer" }],
    ]);
    const removed = await auditRows("member-removed", user.email);
    expect(removed.map((row) => [row.tenant_id, row.detail])).toEqual([
      [tenantB, { before: "viewer", after: null }],
    ]);
    expect(removed[0]?.actor_email).toBe(admin.email);

    await expect(
      setTenantRole(adminViewer, { userId: user.id, tenant: `missing-${run}`, role: "viewer" }),
    ).rejects.toMatchObject({ field: "tenant" });
  });

  it("makes and unmakes an admin, and audits both", async () => {
    const user = await signedInUser(baseUrl, databaseUrl, {});
    expect((await user.fetch("/settings/users")).status).toBe(404);
    await setAdmin(adminViewer, { userId: user.id, isAdmin: true });
    expect((await user.fetch("/settings/users")).status).toBe(200);
    await setAdmin(adminViewer, { userId: user.id, isAdmin: false });
    expect((await user.fetch("/settings/users")).status).toBe(404);
    const rows = await auditRows("admin-changed", user.email);
    expect(rows.map((row) => row.detail)).toEqual([
      { before: false, after: true },
      { before: true, after: false },
    ]);
  });
});

describe("invitations", () => {
  it("are accepted once, even by two submits at the same moment, with the tenants that still exist", async () => {
    const email = `invited-${run}@example.test`;
    const gone = `users-gone-${run}`;
    await db.query("INSERT INTO tenants (id) VALUES ($1)", [gone]);
    const { token, expiresAt } = await inviteUser(adminViewer, {
      email,
      isAdmin: false,
      roles: [
        { tenant: tenantA, role: "viewer" },
        { tenant: gone, role: "maintainer" },
      ],
    });
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    const stored = await db.query("SELECT token_hash FROM invitations WHERE email = $1", [email]);
    expect(stored.rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.rows[0]?.token_hash).not.toContain(token);

    const page = await fetch(`${baseUrl}/invite/${token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(email);
    expect(html).toContain(tenantA);

    await db.query("DELETE FROM tenants WHERE id = $1", [gone]);
    const password = "a long enough password";
    const results = await Promise.all([
      acceptInvitation(token, { name: "Invited One", password }),
      acceptInvitation(token, { name: "Invited Two", password }),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toEqual({ ok: false, reason: "accepted" });
    const users = await db.query("SELECT id FROM users WHERE email = $1", [email]);
    expect(users.rows).toHaveLength(1);
    const members = await db.query(
      "SELECT tenant_id, role FROM tenant_members WHERE user_id = $1",
      [users.rows[0]?.id],
    );
    expect(members.rows).toEqual([{ tenant_id: tenantA, role: "viewer" }]);

    const cookie = await signIn(baseUrl, { email, password });
    const fetchAs = (path: string) =>
      fetch(`${baseUrl}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect((await fetchAs(`/runs?tenant=${tenantA}`)).status).toBe(200);
    expect((await fetchAs(`/runs?tenant=${tenantB}`)).status).toBe(404);

    expect(await findInvitation(token)).toEqual({ status: "accepted" });
    expect(await acceptInvitation(token, { name: "Again", password })).toEqual({
      ok: false,
      reason: "accepted",
    });
    const used = await (await fetch(`${baseUrl}/invite/${token}`)).text();
    expect(used).toContain("already used");

    expect(await auditRows("user-invited", email)).toHaveLength(1);
    const accepted = await auditRows("invitation-accepted", email);
    expect(accepted).toHaveLength(1);
    expect(accepted[0]?.actor_email).toBe(email);
  });

  it("stop working once expired or revoked, and an unknown token says so", async () => {
    const expiring = await inviteUser(adminViewer, {
      email: `expiring-${run}@example.test`,
      isAdmin: false,
      roles: [{ tenant: tenantA, role: "viewer" }],
    });
    await db.query(
      "UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1",
      [expiring.id],
    );
    expect(await findInvitation(expiring.token)).toEqual({ status: "expired" });
    expect(
      await acceptInvitation(expiring.token, { name: "Late", password: TEST_PASSWORD }),
    ).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(await (await fetch(`${baseUrl}/invite/${expiring.token}`)).text()).toContain(
      "has expired",
    );

    const revokedEmail = `revoked-${run}@example.test`;
    const revoked = await inviteUser(adminViewer, {
      email: revokedEmail,
      isAdmin: true,
      roles: [],
    });
    await revokeInvitation(adminViewer, revoked.id);
    await expect(revokeInvitation(adminViewer, revoked.id)).rejects.toBeInstanceOf(UserAdminError);
    expect(
      await acceptInvitation(revoked.token, { name: "Revoked", password: TEST_PASSWORD }),
    ).toEqual({
      ok: false,
      reason: "revoked",
    });
    expect(await (await fetch(`${baseUrl}/invite/${revoked.token}`)).text()).toContain("withdrawn");
    expect(await auditRows("invitation-revoked", revokedEmail)).toHaveLength(1);

    const unknown = await fetch(`${baseUrl}/invite/not-a-real-token`);
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toContain("ask the admin who invited you for a new one");

    const { rows } = await db.query("SELECT count(*)::int AS n FROM users WHERE email = ANY($1)", [
      [`expiring-${run}@example.test`, revokedEmail],
    ]);
    expect(rows[0]?.n).toBe(0);
  });

  it("refuse an email that already has a user, naming the field and the rule", async () => {
    await expect(
      inviteUser(adminViewer, { email: admin.email.toUpperCase(), isAdmin: false, roles: [] }),
    ).rejects.toMatchObject({
      field: "email",
      message: expect.stringMatching(/email belongs to a user/),
    });
    await expect(
      inviteUser(adminViewer, {
        email: `nobody-else-${run}@example.test`,
        isAdmin: false,
        roles: [{ tenant: `missing-${run}`, role: "viewer" }],
      }),
    ).rejects.toMatchObject({ field: "roles", message: expect.stringMatching(/does not exist/) });
  });
});
