/**
 * Users for tests that read pages, exports and settings: created straight in the test database
 * (the password hashed by the auth library's own hasher), then signed in through the real
 * sign-in endpoint, so every request a test makes carries a real session cookie.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import pg from "pg";

export type TestRole = "viewer" | "maintainer";

export interface TestUserSpec {
  email?: string;
  password?: string;
  name?: string;
  isAdmin?: boolean;
  /** Tenant → role; tenants that do not exist yet are created. */
  roles?: Record<string, TestRole>;
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

export const TEST_PASSWORD = "correct horse battery staple";

/** Creates a user with a password (and their tenant roles) in the database at `databaseUrl`. */
export async function createTestUser(
  databaseUrl: string,
  spec: TestUserSpec = {},
): Promise<TestUser> {
  const id = randomBytes(16).toString("hex");
  const email = (spec.email ?? `user-${id.slice(0, 10)}@example.test`).toLowerCase();
  const password = spec.password ?? TEST_PASSWORD;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO users (id, name, email, email_verified, is_admin) VALUES ($1, $2, $3, true, $4)`,
      [id, spec.name ?? email.split("@")[0], email, spec.isAdmin ?? false],
    );
    await client.query(
      `INSERT INTO accounts (id, account_id, provider_id, user_id, password)
       VALUES ($1, $2, 'credential', $3, $4)`,
      [randomUUID(), id, id, await hashPassword(password)],
    );
    for (const [tenant, role] of Object.entries(spec.roles ?? {})) {
      await client.query("INSERT INTO tenants (id) VALUES ($1) ON CONFLICT DO NOTHING", [tenant]);
      await client.query(
        "INSERT INTO tenant_members (user_id, tenant_id, role) VALUES ($1, $2, $3)",
        [id, tenant, role],
      );
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    await client.end();
  }
  return { id, email, password };
}

/** Signs in through `POST /api/auth/sign-in/email`; returns the `Cookie` header to send. */
export async function signIn(
  baseUrl: string,
  user: { email: string; password: string },
): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: baseUrl },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (response.status !== 200) {
    throw new Error(
      `sign-in of ${user.email} answered ${response.status}: ${await response.text()}`,
    );
  }
  const cookies = response.headers.getSetCookie().map((line) => line.split(";")[0]);
  const session = cookies.find((cookie) => cookie?.includes("session_token="));
  if (!session) throw new Error(`sign-in of ${user.email} set no session cookie`);
  return session;
}

/**
 * A user created and signed in: `fetch` (a path on the server, or a whole URL on it) sends their
 * session cookie and does not follow redirects.
 */
export interface SignedIn extends TestUser {
  cookie: string;
  fetch(pathOrUrl: string, init?: RequestInit): Promise<Response>;
}

/** An existing user signed in on a server (e.g. a second server on the same database). */
export async function signedInAs(baseUrl: string, user: TestUser): Promise<SignedIn> {
  const cookie = await signIn(baseUrl, user);
  return {
    ...user,
    cookie,
    fetch: (pathOrUrl, init = {}) => {
      const url = pathOrUrl.startsWith("http") ? pathOrUrl : `${baseUrl}${pathOrUrl}`;
      const headers = new Headers(init.headers);
      headers.set("Cookie", cookie);
      if (!headers.has("Origin") && init.method && init.method !== "GET") {
        headers.set("Origin", baseUrl);
      }
      return fetch(url, { redirect: "manual", ...init, headers });
    },
  };
}

export async function signedInUser(
  baseUrl: string,
  databaseUrl: string,
  spec: TestUserSpec = {},
): Promise<SignedIn> {
  return signedInAs(baseUrl, await createTestUser(databaseUrl, spec));
}
