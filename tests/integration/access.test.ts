/**
 * Tenant-scoped access over real HTTP (SPEC §7). The route walk reads every page and route
 * handler under `app/` from disk, so a route added later without an entry below fails here
 * until its anonymous and out-of-scope answers are proven.
 */
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createApiKey } from "@/lib/keys";
import { decisionEvent } from "@/lib/telemetry/events";
import { createTestUser, type SignedIn, signedInUser } from "../support/accounts";
import { postBatch } from "../support/http";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const stamp = Date.now().toString(36);
const tenantA = `access-a-${stamp}`;
const tenantB = `access-b-${stamp}`;
const runA = `run-a-${stamp}`;
const runB = `run-b-${stamp}`;
const ruleA = randomUUID();
const ruleB = randomUUID();
const backtestA = randomUUID();
const backtestB = randomUUID();

/** Every page and route handler file under app/, as its path from app/. */
function routeFiles(dir = "app", prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return routeFiles(path.join(dir, entry.name), relative);
    return /^(page|route)\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

type Route =
  /** Answers without a session (SPEC §7 lists these). */
  | { public: true }
  | {
      public?: false;
      /** A URL of the route for an anonymous request. */
      url: string;
      /**
       * The same route asked about tenant B by a viewer of tenant A (404 expected), or why it
       * names no tenant.
       */
      otherTenant: string | { none: string };
    };

const ROUTES: Record<string, Route> = {
  "api/health/route.ts": { public: true },
  "api/ingest/route.ts": { public: true },
  "api/ingest/schema/route.ts": { public: true },
  "api/routing-config/schema/route.ts": { public: true },
  "api/otlp/v1/traces/route.ts": { public: true },
  "api/auth/[...all]/route.ts": { public: true },
  "sign-in/page.tsx": { public: true },
  "setup/page.tsx": { public: true },
  "invite/[token]/page.tsx": { public: true },
  "(dashboard)/(overview)/page.tsx": { url: "/", otherTenant: `/?tenant=${tenantB}` },
  "(dashboard)/runs/(list)/page.tsx": {
    url: "/runs",
    otherTenant: `/runs?tenant=${tenantB}`,
  },
  "(dashboard)/runs/[runId]/page.tsx": {
    url: `/runs/${runA}`,
    otherTenant: `/runs/${runB}`,
  },
  "(dashboard)/rollouts/page.tsx": {
    url: "/rollouts",
    otherTenant: `/rollouts?tenant=${tenantB}`,
  },
  "(dashboard)/tools/page.tsx": { url: "/tools", otherTenant: `/tools?tenant=${tenantB}` },
  "(dashboard)/settings/page.tsx": {
    url: "/settings",
    otherTenant: { none: "redirects to the keys page" },
  },
  "(dashboard)/settings/keys/page.tsx": {
    url: "/settings/keys",
    otherTenant: { none: "lists only the tenants the user maintains" },
  },
  "(dashboard)/settings/users/page.tsx": {
    url: "/settings/users",
    otherTenant: { none: "admins only: every other user gets 404" },
  },
  "(dashboard)/settings/account/page.tsx": {
    url: "/settings/account",
    otherTenant: { none: "the signed-in user's own account" },
  },
  "(dashboard)/settings/audit/page.tsx": {
    url: "/settings/audit",
    otherTenant: `/settings/audit?tenant=${tenantB}`,
  },
  "(dashboard)/alerts/page.tsx": {
    url: "/alerts",
    otherTenant: { none: "lists only the rules of the user's tenants" },
  },
  "(dashboard)/alerts/new/page.tsx": {
    url: "/alerts/new",
    otherTenant: { none: "offers only the tenants the user maintains; others get 404" },
  },
  "(dashboard)/alerts/[ruleId]/page.tsx": {
    url: `/alerts/${ruleA}`,
    otherTenant: `/alerts/${ruleB}`,
  },
  "(dashboard)/backtests/(list)/page.tsx": {
    url: "/backtests",
    otherTenant: `/backtests?tenant=${tenantB}`,
  },
  "(dashboard)/backtests/new/page.tsx": {
    url: "/backtests/new",
    otherTenant: { none: "offers only the tenants the user maintains; others get 404" },
  },
  "(dashboard)/backtests/[backtestId]/page.tsx": {
    url: `/backtests/${backtestA}`,
    otherTenant: `/backtests/${backtestB}`,
  },
  "(dashboard)/configs/page.tsx": {
    url: "/configs",
    otherTenant: { none: "lists only the user's tenants" },
  },
  "(dashboard)/configs/[tenant]/page.tsx": {
    url: `/configs/${tenantA}`,
    otherTenant: `/configs/${tenantB}`,
  },
  "(dashboard)/configs/[tenant]/edit/page.tsx": {
    url: `/configs/${tenantA}/edit`,
    otherTenant: `/configs/${tenantB}/edit`,
  },
  "api/configs/[tenant]/route.ts": {
    url: `/api/configs/${tenantA}`,
    otherTenant: `/api/configs/${tenantB}`,
  },
  "api/export/breakdown/route.ts": {
    url: "/api/export/breakdown",
    otherTenant: `/api/export/breakdown?tenant=${tenantB}`,
  },
  "api/export/runs/route.ts": {
    url: "/api/export/runs",
    otherTenant: `/api/export/runs?tenant=${tenantB}`,
  },
  "api/export/run/route.ts": {
    url: `/api/export/run?tenant=${tenantA}&runId=${runA}`,
    otherTenant: `/api/export/run?tenant=${tenantB}&runId=${runB}`,
  },
  "api/export/tools/route.ts": {
    url: "/api/export/tools",
    otherTenant: `/api/export/tools?tenant=${tenantB}`,
  },
  "api/export/context-tax/route.ts": {
    url: "/api/export/context-tax",
    otherTenant: `/api/export/context-tax?tenant=${tenantB}`,
  },
  "api/export/backtest/route.ts": {
    url: `/api/export/backtest?id=${backtestA}`,
    otherTenant: `/api/export/backtest?id=${backtestB}`,
  },
};

let viewerA: SignedIn;
let admin: SignedIn;

beforeAll(async () => {
  for (const [tenant, runId] of [
    [tenantA, runA],
    [tenantB, runB],
  ] as const) {
    const key = (await createApiKey(tenant)).key;
    const response = await postBatch(baseUrl, key, [
      decisionEvent({ run_id: runId, role: `role-${tenant}` }),
    ]);
    expect(response.status).toBe(200);
  }
  // An alert rule per tenant, named after the tenant's role so a leak would show it.
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  for (const [id, tenant] of [
    [ruleA, tenantA],
    [ruleB, tenantB],
  ] as const) {
    await db.query(
      `INSERT INTO alert_rules (id, tenant_id, name, metric, window_minutes, comparison, threshold)
       VALUES ($1, $2, $3, 'decisions', 15, 'lt', 1)`,
      [id, tenant, `rule of role-${tenant}`],
    );
  }
  // A finished backtest per tenant, its role named after the tenant so a leak would show it.
  for (const [id, tenant] of [
    [backtestA, tenantA],
    [backtestB, tenantB],
  ] as const) {
    await db.query(
      `INSERT INTO backtests (id, tenant_id, roles, window_from, window_to, candidate,
                              candidate_version, threshold_percent)
       VALUES ($1, $2, ARRAY[$3], now() - interval '1 day', now(), '{}'::jsonb, 'v1', 1)`,
      [id, tenant, `role-${tenant}`],
    );
  }
  await db.end();
  viewerA = await signedInUser(baseUrl, databaseUrl, { roles: { [tenantA]: "viewer" } });
  admin = await signedInUser(baseUrl, databaseUrl, { isAdmin: true });
});

const files = routeFiles();
const protectedRoutes = files.flatMap((file) => {
  const route = ROUTES[file];
  return route && !route.public ? [{ file, ...route }] : [];
});

describe("the route walk", () => {
  it("finds the app's routes, and every one has an entry here", () => {
    expect(files).toContain("(dashboard)/(overview)/page.tsx");
    expect(files).toContain("api/export/run/route.ts");
    const missing = files.filter((file) => !(file in ROUTES));
    expect(missing, "add these routes to ROUTES with their URLs").toEqual([]);
  });

  it.each(protectedRoutes)("$file refuses an anonymous request", async ({ url }) => {
    const response = await fetch(`${baseUrl}${url}`, { redirect: "manual" });
    if (url.startsWith("/api/")) {
      expect(response.status).toBe(401);
      expect(await response.text()).toMatch(/sign/i);
    } else {
      expect(response.status).toBe(307);
      const location = new URL(response.headers.get("location") ?? "", baseUrl);
      expect(location.pathname).toBe("/sign-in");
      if (url !== "/") expect(location.searchParams.get("next")).toBe(url);
    }
  });

  it.each(protectedRoutes)(
    "$file answers a forged session cookie like an anonymous one",
    async ({ url }) => {
      const response = await fetch(`${baseUrl}${url}`, {
        redirect: "manual",
        headers: { Cookie: "routelens.session_token=forged.value" },
      });
      expect([307, 401]).toContain(response.status);
    },
  );

  it.each(protectedRoutes.filter((route) => typeof route.otherTenant === "string"))(
    "$file answers 404 to a viewer of another tenant",
    async ({ otherTenant }) => {
      const response = await viewerA.fetch(otherTenant as string);
      expect(response.status).toBe(404);
      // Nothing of B's data: its role name is in no URL, only in its stored decisions.
      expect(await response.text()).not.toContain(`role-${tenantB}`);
    },
  );
});

describe("a viewer of one tenant", () => {
  it("reads their own tenant's run and its download", async () => {
    const page = await viewerA.fetch(`/runs/${runA}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(runA);
    const csv = await viewerA.fetch(`/api/export/run?tenant=${tenantA}&runId=${runA}`);
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain(`role-${tenantA}`);
  });

  it("is offered only their tenant in the filters", async () => {
    const html = await (await viewerA.fetch("/runs")).text();
    expect(html).toContain(`value="${tenantA}"`);
    expect(html).not.toContain(tenantB);
  });

  it("gets 'all tenants' totals and downloads of their tenant only", async () => {
    const runs = await (await viewerA.fetch("/api/export/runs")).text();
    expect(runs).toContain(runA);
    expect(runs).not.toContain(runB);
    const breakdown = await (await viewerA.fetch("/api/export/breakdown")).text();
    expect(breakdown).toContain(tenantA);
    expect(breakdown).not.toContain(tenantB);
    // An admin reads both.
    const everything = await (await admin.fetch("/api/export/breakdown")).text();
    expect(everything).toContain(tenantA);
    expect(everything).toContain(tenantB);
  });

  it("is told to ask an admin while they are a member of no tenant, and reads nothing", async () => {
    const nobody = await signedInUser(baseUrl, databaseUrl);
    const overview = await nobody.fetch("/");
    expect(overview.status).toBe(200);
    expect(await overview.text()).toContain("No tenants yet");
    const runs = await (await nobody.fetch("/api/export/runs")).text();
    expect(runs.trim().split("\n")).toHaveLength(1); // the header line only
  });

  it("does not learn whether another tenant's run id exists", async () => {
    const existing = await viewerA.fetch(`/runs/${runB}`);
    const missing = await viewerA.fetch(`/runs/run-that-was-never-sent-${stamp}`);
    expect(existing.status).toBe(404);
    expect(missing.status).toBe(404);
  });
});

describe("sign-in", () => {
  async function attempt(email: string, password: string, address: string): Promise<Response> {
    return fetch(`${baseUrl}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: baseUrl, "X-Forwarded-For": address },
      body: JSON.stringify({ email, password }),
    });
  }

  it("answers a wrong password and an unknown email alike", async () => {
    const user = await createTestUser(databaseUrl);
    const wrong = await attempt(user.email, "not the password at all", "198.51.100.1");
    const unknown = await attempt(
      `nobody-${stamp}@example.test`,
      "not the password",
      "198.51.100.2",
    );
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it("limits failed attempts per account with 429 and Retry-After, known or not", async () => {
    const user = await createTestUser(databaseUrl);
    for (const email of [user.email, `ghost-${stamp}@example.test`]) {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        statuses.push((await attempt(email, "wrong password!", `203.0.113.${i + 10}`)).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      const limited = await attempt(email, "wrong password!", "203.0.113.99");
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Even the right password waits: the account is being guessed at.
    expect((await attempt(user.email, user.password, "203.0.113.100")).status).toBe(429);
  });

  it("limits failed attempts per address across accounts", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      statuses.push(
        (await attempt(`spray-${i}-${stamp}@example.test`, "wrong!", "192.0.2.77")).status,
      );
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.at(-1)).toBe(429);
    // Another address is not slowed.
    const user = await createTestUser(databaseUrl);
    expect((await attempt(user.email, user.password, "192.0.2.78")).status).toBe(200);
  });

  it("refuses a signed-in user's request sent from another site (CSRF)", async () => {
    const user = await signedInUser(baseUrl, databaseUrl, { roles: { [tenantA]: "viewer" } });
    const forged = await user.fetch("/api/auth/sign-out", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
      body: "{}",
    });
    expect(forged.status).toBe(403);
    expect((await user.fetch("/api/export/runs")).status).toBe(200);
  });

  it("writes sign-ins and failed sign-ins to the audit log, with the address", async () => {
    const user = await createTestUser(databaseUrl);
    expect((await attempt(user.email, "wrong password!", "198.51.100.40")).status).toBe(401);
    expect((await attempt(user.email, user.password, "198.51.100.41")).status).toBe(200);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query(
      `SELECT action, actor_id AS "actorId", target, ip FROM audit_log
        WHERE actor_id = $1 OR target = $2 ORDER BY id`,
      [user.id, user.email],
    );
    await client.end();
    expect(rows).toEqual([
      { action: "sign-in-failed", actorId: null, target: user.email, ip: "198.51.100.40" },
      { action: "sign-in", actorId: user.id, target: null, ip: "198.51.100.41" },
    ]);
  });

  it("keeps one-time links off HTTP: they are made on the server only", async () => {
    const response = await fetch(`${baseUrl}/api/auth/sign-in/magic-link`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: baseUrl },
      body: JSON.stringify({ email: "anyone@example.test" }),
    });
    expect(response.status).toBe(404);
  });

  it("signs out: the session cookie stops working at once", async () => {
    const user = await signedInUser(baseUrl, databaseUrl, { roles: { [tenantA]: "viewer" } });
    expect((await user.fetch("/api/export/runs")).status).toBe(200);
    const out = await user.fetch("/api/auth/sign-out", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(out.status).toBe(200);
    expect((await user.fetch("/api/export/runs")).status).toBe(401);
  });
});

describe("headers on every response", () => {
  it.each([
    ["a page", "/sign-in"],
    ["a redirect", "/runs"],
    ["an API", "/api/health"],
    ["ingest", "/api/ingest"],
    ["OTLP ingest", "/api/otlp/v1/traces"],
    ["a 404", "/no-such-page"],
    ["a static file", "/icon.svg"],
  ])("%s carries the security headers and no X-Powered-By", async (_label, url) => {
    const response = await fetch(`${baseUrl}${url}`, { redirect: "manual" });
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/default-src '(self|none)'/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("x-powered-by")).toBeNull();
  });

  it("puts the CSP's nonce on the page's scripts, fresh per request", async () => {
    const nonces = [];
    for (let i = 0; i < 2; i += 1) {
      const response = await fetch(`${baseUrl}/sign-in`);
      const csp = response.headers.get("content-security-policy") ?? "";
      const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
      expect(nonce).toBeTruthy();
      expect(await response.text()).toContain(`nonce="${nonce}"`);
      nonces.push(nonce);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("sets the session cookie httpOnly", async () => {
    const user = await createTestUser(databaseUrl);
    const response = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: baseUrl },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    const cookie = response.headers.getSetCookie().find((line) => line.includes("session_token"));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });
});
