/**
 * `/settings/audit` over real HTTP: who reads which entries, the filters, paging, and hostile
 * parameters. Entries come from real actions (signing in, a failed sign-in) and from rows
 * written straight into `audit_log`.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type SignedIn, signedInUser } from "../support/accounts";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const marker = randomBytes(4).toString("hex");
const tenantA = `audit-a-${marker}`;
const tenantB = `audit-b-${marker}`;
const tenantPaged = `audit-p-${marker}`;
const otherActor = `someone-${marker}@example.test`;
const unknownEmail = `nobody-${marker}@example.test`;
const target = (name: string) => `${name}-${marker}`;

let db: pg.Client;
let admin: SignedIn;
let maintainer: SignedIn;
let viewer: SignedIn;

async function insertEntry(entry: {
  action: string;
  tenant?: string | null;
  actorEmail?: string | null;
  target: string;
  at?: string;
  detail?: Record<string, unknown>;
}) {
  await db.query(
    `INSERT INTO audit_log (at, actor_email, action, tenant_id, target, detail, ip)
     VALUES (COALESCE($1::timestamptz, now()), $2, $3, $4, $5, $6, '10.1.2.3')`,
    [
      entry.at ?? null,
      entry.actorEmail ?? null,
      entry.action,
      entry.tenant ?? null,
      entry.target,
      entry.detail ? JSON.stringify(entry.detail) : null,
    ],
  );
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  admin = await signedInUser(baseUrl, databaseUrl, { isAdmin: true });
  maintainer = await signedInUser(baseUrl, databaseUrl, {
    roles: { [tenantA]: "maintainer", [tenantB]: "viewer" },
  });
  viewer = await signedInUser(baseUrl, databaseUrl, { roles: { [tenantA]: "viewer" } });
  await db.query("INSERT INTO tenants (id) VALUES ($1) ON CONFLICT DO NOTHING", [tenantPaged]);

  // A failed sign-in of an unknown user, through the real endpoint.
  const failed = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: baseUrl },
    body: JSON.stringify({ email: unknownEmail, password: "not the password at all" }),
  });
  expect(failed.status).toBe(401);

  await insertEntry({
    action: "key-created",
    tenant: tenantA,
    actorEmail: otherActor,
    target: target("key-a"),
    detail: { label: "ci agent" },
  });
  await insertEntry({
    action: "key-revoked",
    tenant: tenantB,
    actorEmail: otherActor,
    target: target("key-b"),
  });
  await insertEntry({
    action: "role-changed",
    tenant: tenantA,
    actorEmail: otherActor,
    target: target("role-a-2020"),
    at: "2020-01-02T12:00:00Z",
  });
  for (let index = 1; index <= 55; index++) {
    await insertEntry({
      action: "key-created",
      tenant: tenantPaged,
      actorEmail: otherActor,
      target: target(`paged-${String(index).padStart(2, "0")}`),
      at: new Date(Date.now() - (100 - index) * 1_000).toISOString(),
    });
  }
});

afterAll(async () => {
  await db?.end();
});

async function auditPage(user: SignedIn, query = ""): Promise<{ status: number; html: string }> {
  const response = await user.fetch(`/settings/audit${query}`);
  return { status: response.status, html: await response.text() };
}

/** Rows the table shows (one target cell per row). */
const rowCount = (html: string) => html.split('<td data-column="target">').length - 1;
/** A table cell holding `text` in its column (not the filter bar's options or the menu). */
const actionCell = (words: string) => `<td data-column="action">${words}</td>`;
const clippedCell = (text: string) => `title="${text}">${text}</span>`;

describe("audit log: who reads what", () => {
  it("sends an anonymous visitor to sign in", async () => {
    const response = await fetch(`${baseUrl}/settings/audit`, { redirect: "manual" });
    expect(response.status).toBe(307);
    expect(response.headers.get("Location")).toContain("/sign-in");
  });

  it("shows an admin the entries of every tenant, failed sign-ins and sign-ins", async () => {
    const page = await auditPage(admin);
    expect(page.status).toBe(200);
    expect(page.html).toContain("<h1>Audit log</h1>");
    for (const expected of [target("key-a"), target("key-b"), unknownEmail, maintainer.email]) {
      expect(page.html).toContain(clippedCell(expected));
    }
    expect(page.html).toContain(actionCell("created an ingest key"));
    expect(page.html).toContain(actionCell("revoked an ingest key"));
    expect(page.html).toContain(actionCell("failed to sign in"));
    expect(page.html).toContain(actionCell("signed in"));
    expect(page.html).toContain(clippedCell("label: ci agent"));
    expect(page.html).toContain(clippedCell("10.1.2.3"));
  });

  it("shows a maintainer their tenant's entries and their own, not other tenants' or users'", async () => {
    const page = await auditPage(maintainer);
    expect(page.status).toBe(200);
    expect(page.html).toContain(clippedCell(target("key-a")));
    expect(page.html).toContain(clippedCell(maintainer.email)); // their own sign-in
    expect(page.html).not.toContain(target("key-b")); // tenant B: they only view it
    expect(page.html).not.toContain(target("paged-55"));
    expect(page.html).not.toContain(unknownEmail);
    expect(page.html).not.toContain(admin.email);
    expect(page.html).not.toContain(viewer.email);

    const filtered = await auditPage(maintainer, `?tenant=${tenantA}`);
    expect(filtered.status).toBe(200);
    expect(filtered.html).toContain(target("key-a"));
  });

  it("answers 404 for a tenant outside the maintainer's audit scope", async () => {
    expect((await auditPage(maintainer, `?tenant=${tenantB}`)).status).toBe(404);
    expect((await auditPage(maintainer, `?tenant=${tenantPaged}`)).status).toBe(404);
    expect((await auditPage(maintainer, "?tenant=no-such-tenant")).status).toBe(404);
  });

  it("answers 404 to a viewer", async () => {
    expect((await auditPage(viewer)).status).toBe(404);
    expect((await auditPage(viewer, `?tenant=${tenantA}`)).status).toBe(404);
  });

  it("offers the Audit log tab to maintainers and admins, not to viewers", async () => {
    const tab = 'href="/settings/audit"';
    expect(await (await maintainer.fetch("/settings/keys")).text()).toContain(tab);
    expect(await (await admin.fetch("/settings/keys")).text()).toContain(tab);
    expect(await (await viewer.fetch("/settings/keys")).text()).not.toContain(tab);
  });
});

describe("audit log: filters and paging", () => {
  it("narrows by action", async () => {
    const page = await auditPage(admin, "?action=key-revoked");
    expect(page.status).toBe(200);
    expect(page.html).toContain(target("key-b"));
    expect(page.html).not.toContain(target("key-a"));
    expect(page.html).not.toContain(unknownEmail);
  });

  it("narrows by tenant", async () => {
    const page = await auditPage(admin, `?tenant=${tenantB}`);
    expect(page.html).toContain(target("key-b"));
    expect(page.html).not.toContain(target("key-a"));
    expect(rowCount(page.html)).toBe(1);
  });

  it("narrows by the start of the actor's email, or of the email a failed sign-in tried", async () => {
    const failed = await auditPage(admin, `?actor=${encodeURIComponent(`NOBODY-${marker}`)}`);
    expect(failed.html).toContain(clippedCell(unknownEmail));
    expect(failed.html).toContain(actionCell("failed to sign in"));
    // No one acted: the who column shows a dash, the tried email is the target.
    expect(failed.html).toContain('<td data-column="who"><span class="muted">—</span></td>');
    expect(failed.html).toContain(clippedCell("method: password, status: 401"));
    expect(rowCount(failed.html)).toBe(1);

    const actor = await auditPage(admin, `?actor=${encodeURIComponent(maintainer.email)}`);
    expect(actor.html).toContain(actionCell("signed in"));
    expect(actor.html).toContain(clippedCell(maintainer.email));
    expect(actor.html).not.toContain(target("key-a"));
    expect(rowCount(actor.html)).toBe(1);

    const wildcard = await auditPage(admin, `?tenant=${tenantA}&actor=%25`);
    expect(rowCount(wildcard.html)).toBe(0);
    expect(wildcard.html).toContain("No audit entries match these filters.");
  });

  it("narrows by time range", async () => {
    const all = await auditPage(admin, `?tenant=${tenantA}`);
    expect(all.html).toContain(target("role-a-2020"));
    expect(all.html).toContain(target("key-a"));

    const recent = await auditPage(admin, `?tenant=${tenantA}&range=24h`);
    expect(recent.html).toContain(target("key-a"));
    expect(recent.html).not.toContain(target("role-a-2020"));

    const custom = await auditPage(
      admin,
      `?tenant=${tenantA}&range=custom&from=2020-01-01T00:00:00Z&to=2020-01-03T00:00:00Z`,
    );
    expect(custom.html).toContain(target("role-a-2020"));
    expect(custom.html).not.toContain(target("key-a"));
  });

  it("pages 50 entries at a time, newest first", async () => {
    const first = await auditPage(admin, `?tenant=${tenantPaged}`);
    expect(first.html).toContain("1–50 of 55 entries");
    expect(rowCount(first.html)).toBe(50);
    expect(first.html).toContain(target("paged-55"));
    expect(first.html).not.toContain(target("paged-05"));
    expect(first.html.indexOf(target("paged-55"))).toBeLessThan(
      first.html.indexOf(target("paged-54")),
    );

    const second = await auditPage(admin, `?tenant=${tenantPaged}&page=2`);
    expect(second.html).toContain("51–55 of 55 entries");
    expect(rowCount(second.html)).toBe(5);
    expect(second.html).toContain(target("paged-01"));
    expect(second.html).not.toContain(target("paged-06"));

    // Past the end: the last page.
    const past = await auditPage(admin, `?tenant=${tenantPaged}&page=9`);
    expect(past.status).toBe(200);
    expect(past.html).toContain("51–55 of 55 entries");
  });
});

describe("audit log: hostile parameters", () => {
  const hostile = [
    "?action=%00",
    "?action=sign-in%00",
    "?tenant=%00",
    "?tenant=a%00b",
    "?actor=a%00b",
    "?actor=%ff%fe",
    `?actor=${"x".repeat(5_000)}`,
    "?range=custom&from=yesterday&to=2020-13-45",
    "?range=custom&from=99999-01-01T00:00:00Z&to=0000-01-01T00:00:00Z",
    "?range=custom&from=%00&to=%00",
    "?range=%00",
    "?page=%00",
    "?page=-1",
    "?page=1e309",
    "?page=99999999999",
    "?action=key-created&action=sign-in&tenant=&tenant=x",
  ];

  it.each(hostile)("answers %s with the page's normal state", async (query) => {
    for (const user of [admin, maintainer]) {
      const page = await auditPage(user, query);
      expect(page.status, `${query} for ${user.email}`).toBe(200);
      expect(page.html).toContain("<h1>Audit log</h1>");
    }
  });
});
