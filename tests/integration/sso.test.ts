/**
 * Single sign-on against a real OpenID Connect provider (`oidc-provider` on 127.0.0.1) and a
 * Routelens production server of its own, configured for it by the ROUTELENS_OIDC_* variables.
 * Every step goes over HTTP as a browser would: Routelens's sign-in endpoint, the provider's
 * authorization endpoint, its login and consent forms, the callback, the dashboard.
 */
import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type AppServer, startAppServer } from "@/scripts/lib/app-server";
import { findFreePort } from "@/scripts/lib/local-postgres";
import { createTestUser } from "../support/accounts";
import { HttpBrowser, type Visited } from "../support/http-browser";
import { startOidcProvider, subjectOf, type TestOidcProvider } from "../support/oidc-provider";

const databaseUrl = inject("databaseUrl");
const SESSION_COOKIE = "routelens.session_token";

let provider: TestOidcProvider;
let app: AppServer;
let db: pg.Client;

beforeAll(async () => {
  const port = await findFreePort();
  provider = await startOidcProvider({
    redirectUri: `http://127.0.0.1:${port}/api/auth/callback/sso`,
  });
  app = await startAppServer({
    databaseUrl,
    port,
    env: {
      ROUTELENS_OIDC_ISSUER: provider.issuer,
      ROUTELENS_OIDC_CLIENT_ID: provider.clientId,
      ROUTELENS_OIDC_CLIENT_SECRET: provider.clientSecret,
      ROUTELENS_OIDC_NAME: "Example IdP",
    },
  });
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  await app?.stop();
  await provider?.stop();
});

const uniqueEmail = (label: string) =>
  `sso-${label}-${randomBytes(4).toString("hex")}@example.test`;

/** Clicks "Sign in with …": the provider's login form, as the browser lands on it. */
async function startSignIn(browser: HttpBrowser): Promise<Visited> {
  const started = await browser.request(`${app.baseUrl}/api/auth/sign-in/social`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: app.baseUrl },
    body: JSON.stringify({
      provider: "sso",
      callbackURL: "/",
      errorCallbackURL: "/sign-in",
      disableRedirect: true,
    }),
  });
  expect(started.status).toBe(200);
  const { url } = (await started.json()) as { url: string };
  const authorize = new URL(url);
  expect(authorize.origin).toBe(provider.issuer);
  expect(authorize.searchParams.get("redirect_uri")).toBe(`${app.baseUrl}/api/auth/callback/sso`);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  const login = await browser.visit(url);
  expect(login.response.status).toBe(200);
  expect(login.url).toMatch(new RegExp(`^${provider.issuer}/interaction/[\\w-]+$`));
  expect(login.text).toContain("<h1>Sign in</h1>");
  return login;
}

/** The whole sign-in: Routelens → provider login → consent → callback → where it lands. */
async function signInWithSso(email: string, browser = new HttpBrowser()): Promise<Visited> {
  const login = await startSignIn(browser);
  const consent = await browser.submit(`${login.url}/login`, { email });
  expect(consent.response.status).toBe(200);
  expect(consent.text).toContain("<h1>Allow Routelens</h1>");
  const landed = await browser.submit(`${consent.url}/confirm`, {});
  expect(landed.hops.some((hop) => hop.startsWith(`${app.baseUrl}/api/auth/callback/sso?`))).toBe(
    true,
  );
  return landed;
}

async function usersWithEmail(email: string) {
  const { rows } = await db.query<{
    id: string;
    email_verified: boolean;
    is_admin: boolean;
    name: string;
  }>("SELECT id, email_verified, is_admin, name FROM users WHERE email = $1", [email]);
  return rows;
}

async function providersOf(userId: string): Promise<{ provider_id: string; account_id: string }[]> {
  const { rows } = await db.query<{ provider_id: string; account_id: string }>(
    "SELECT provider_id, account_id FROM accounts WHERE user_id = $1 ORDER BY provider_id",
    [userId],
  );
  return rows;
}

async function createTenant(label: string): Promise<string> {
  const tenant = `sso-${label}-${randomBytes(3).toString("hex")}`;
  await db.query("INSERT INTO tenants (id) VALUES ($1)", [tenant]);
  return tenant;
}

describe("single sign-on with an OpenID Connect provider", () => {
  it("offers the provider's button on the sign-in page", async () => {
    await createTestUser(databaseUrl); // an instance with no user sends /sign-in to /setup
    const response = await fetch(`${app.baseUrl}/sign-in`, { redirect: "manual" });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Sign in with <!-- -->Example IdP");
  });

  it("creates a first-time user with no tenant roles, who reads a tenant once an admin grants it", async () => {
    const email = uniqueEmail("new");
    provider.addUser({ email, name: "Sam Sso" });
    const tenant = await createTenant("granted");
    const browser = new HttpBrowser();

    const landed = await signInWithSso(email, browser);
    expect(landed.url).toBe(`${app.baseUrl}/`);
    expect(landed.response.status).toBe(200);
    expect(landed.text).toContain(email);
    expect(browser.cookiesFor(app.baseUrl).has(SESSION_COOKIE)).toBe(true);

    const [user, ...others] = await usersWithEmail(email);
    expect(others).toEqual([]);
    expect(user).toMatchObject({ email_verified: true, is_admin: false, name: "Sam Sso" });
    expect(await providersOf(user?.id ?? "")).toEqual([
      { provider_id: "sso", account_id: subjectOf(email) },
    ]);
    const { rows: roles } = await db.query("SELECT * FROM tenant_members WHERE user_id = $1", [
      user?.id,
    ]);
    expect(roles).toEqual([]);
    const { rows: audit } = await db.query(
      "SELECT detail FROM audit_log WHERE action = 'sign-in' AND actor_id = $1",
      [user?.id],
    );
    expect(audit).toEqual([{ detail: { method: "single sign-on" } }]);

    // No tenant yet: the tenant's pages answer as if it did not exist.
    expect((await browser.request(`${app.baseUrl}/runs?tenant=${tenant}`)).status).toBe(404);
    await db.query(
      "INSERT INTO tenant_members (user_id, tenant_id, role) VALUES ($1, $2, 'viewer')",
      [user?.id, tenant],
    );
    expect((await browser.request(`${app.baseUrl}/runs?tenant=${tenant}`)).status).toBe(200);

    // Signing in again (another browser) finds the same user through the provider's subject.
    const again = await signInWithSso(email);
    expect(again.url).toBe(`${app.baseUrl}/`);
    expect(await usersWithEmail(email)).toHaveLength(1);
  });

  it("links an existing user with the same email instead of creating another", async () => {
    const tenant = await createTenant("invited");
    const invited = await createTestUser(databaseUrl, {
      email: uniqueEmail("invited"),
      roles: { [tenant]: "maintainer" },
    });
    provider.addUser({ email: invited.email });
    const browser = new HttpBrowser();

    const landed = await signInWithSso(invited.email, browser);
    expect(landed.url).toBe(`${app.baseUrl}/`);
    expect(landed.response.status).toBe(200);

    const users = await usersWithEmail(invited.email);
    expect(users.map((user) => user.id)).toEqual([invited.id]);
    expect(await providersOf(invited.id)).toEqual([
      { provider_id: "credential", account_id: invited.id },
      { provider_id: "sso", account_id: subjectOf(invited.email) },
    ]);
    // Signed in as that user: their tenant is theirs.
    expect((await browser.request(`${app.baseUrl}/runs?tenant=${tenant}`)).status).toBe(200);
  });

  it("gives someone invited who signs in through the provider first what the invitation grants", async () => {
    const tenant = await createTenant("pending");
    const email = uniqueEmail("pending");
    provider.addUser({ email });
    await db.query(
      `INSERT INTO invitations (id, token_hash, email, is_admin, roles, expires_at)
       VALUES ($1, $2, $3, false, $4, now() + interval '1 day')`,
      [
        randomUUID(),
        randomBytes(32).toString("hex"),
        email,
        JSON.stringify([{ tenant, role: "viewer" }]),
      ],
    );
    const browser = new HttpBrowser();
    const landed = await signInWithSso(email, browser);
    expect(landed.url).toBe(`${app.baseUrl}/`);

    const [user] = await usersWithEmail(email);
    const { rows: roles } = await db.query(
      "SELECT tenant_id, role FROM tenant_members WHERE user_id = $1",
      [user?.id],
    );
    expect(roles).toEqual([{ tenant_id: tenant, role: "viewer" }]);
    const { rows: invitation } = await db.query(
      "SELECT accepted_at IS NOT NULL AS accepted FROM invitations WHERE email = $1",
      [email],
    );
    expect(invitation).toEqual([{ accepted: true }]);
    expect((await browser.request(`${app.baseUrl}/runs?tenant=${tenant}`)).status).toBe(200);
  });

  it("stores a provider's overlong name cut to fit instead of failing the sign-in", async () => {
    const email = uniqueEmail("long-name");
    provider.addUser({ email, name: "N".repeat(300) });
    const landed = await signInWithSso(email);
    expect(landed.url).toBe(`${app.baseUrl}/`);
    const [user] = await usersWithEmail(email);
    expect(user?.name).toBe("N".repeat(200));
  });

  it("refuses a deactivated user and says why on the sign-in page", async () => {
    const user = await createTestUser(databaseUrl, { email: uniqueEmail("deactivated") });
    await db.query("UPDATE users SET deactivated_at = now() WHERE id = $1", [user.id]);
    provider.addUser({ email: user.email });
    const browser = new HttpBrowser();

    const landed = await signInWithSso(user.email, browser);
    const url = new URL(landed.url);
    expect(url.pathname).toBe("/sign-in");
    expect(url.searchParams.get("error")).toBe("ACCOUNT_DEACTIVATED");
    expect(landed.response.status).toBe(200);
    expect(landed.text).toContain("This account is deactivated, so single sign-on cannot open it.");
    expect(browser.cookiesFor(app.baseUrl).has(SESSION_COOKIE)).toBe(false);
    expect((await browser.request(`${app.baseUrl}/`)).status).toBe(307);

    const { rows: sessions } = await db.query("SELECT id FROM sessions WHERE user_id = $1", [
      user.id,
    ]);
    expect(sessions).toEqual([]);
    const { rows: failures } = await db.query(
      `SELECT detail FROM audit_log WHERE action = 'sign-in-failed'
          AND detail->>'error' = 'ACCOUNT_DEACTIVATED' AND at > now() - interval '1 minute'`,
    );
    expect(failures).toContainEqual({
      detail: { method: "single sign-on", error: "ACCOUNT_DEACTIVATED" },
    });
  });

  it("sends a sign-in cancelled at the provider back to the sign-in page with a message", async () => {
    const browser = new HttpBrowser();
    const login = await startSignIn(browser);
    const landed = await browser.submit(`${login.url}/abort`, {});
    const url = new URL(landed.url);
    expect(url.pathname).toBe("/sign-in");
    expect(url.searchParams.get("error")).toBe("access_denied");
    expect(landed.text).toContain("Single sign-on was cancelled or refused by the provider.");
    expect(browser.cookiesFor(app.baseUrl).has(SESSION_COOKIE)).toBe(false);
  });
});
