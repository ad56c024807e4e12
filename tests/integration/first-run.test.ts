/**
 * First run and the users CLI over real HTTP: `npm run users` creates an admin whose printed
 * one-time link signs them in (once), lists users, and refuses what it cannot do; a production
 * server without ROUTELENS_AUTH_SECRET stops at start, saying what to set.
 */
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { runCommand } from "../support/run-command";

const databaseUrl = inject("databaseUrl");
const baseUrl = inject("baseUrl");

/** `npm run users -- <args>` against the test database, links pointing at the test server. */
const users = (...args: string[]) =>
  runCommand("npx", ["--no-install", "tsx", "scripts/users.ts", ...args], {
    DATABASE_URL: databaseUrl,
    ROUTELENS_URL: baseUrl,
    ROUTELENS_AUTH_SECRET: "a-secret-for-the-cli-that-is-long-enough",
  });

describe("npm run users", () => {
  const email = `cli-admin-${Date.now()}@example.test`;

  it("creates an admin whose one-time link signs them in, once", async () => {
    const created = await users("create-admin", email, "--name", "CLI Admin");
    expect(created.code, created.stderr).toBe(0);
    const link = created.stdout.trim().split("\n").at(-1) ?? "";
    expect(link.startsWith(`${baseUrl}/api/auth/magic-link/verify?token=`)).toBe(true);

    const opened = await fetch(link, { redirect: "manual" });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(`${baseUrl}/`);
    const cookie = opened.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .find((pair) => pair?.includes("session_token="));
    expect(cookie).toBeTruthy();
    const page = await fetch(`${baseUrl}/`, { headers: { Cookie: cookie ?? "" } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(email);
    expect(html).toContain('title="Instance admin"');

    // Used once: the same link now leads back to sign-in, which says why.
    const again = await fetch(link, { redirect: "manual" });
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe(`${baseUrl}/sign-in?error=INVALID_TOKEN`);
    expect(again.headers.getSetCookie().some((line) => line.includes("session_token="))).toBe(
      false,
    );
    const signIn = await fetch(again.headers.get("location") ?? "");
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).toContain("This sign-in link has expired or was already used.");
  });

  it("lists users with their roles, and prints a new link for an existing user", async () => {
    const listed = await users("list");
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${email.replace(/[.]/g, "\\.")}\\s+admin\\s+active`));
    const linked = await users("link", email);
    expect(linked.code, linked.stderr).toBe(0);
    expect(linked.stdout.trim().split("\n").at(-1)).toContain("/api/auth/magic-link/verify?token=");
  });

  it("refuses an email in use, a malformed email and an unknown command, naming the problem", async () => {
    const twice = await users("create-admin", email);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(`A user with the email ${email} already exists.`);
    const malformed = await users("create-admin", "not-an-email");
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("<email> must be an email address");
    const unknown = await users("delete", email);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "delete"');
  });
});

describe("a production server with its auth settings incomplete", () => {
  it("stops at start and says what to set", async () => {
    const finished = await runCommand(
      process.execPath,
      [path.resolve("node_modules/next/dist/bin/next"), "start", "--port", "0"],
      { DATABASE_URL: databaseUrl, ROUTELENS_AUTH_SECRET: "" },
    );
    expect(finished.code).toBe(1);
    expect(finished.stderr).toContain("ROUTELENS_AUTH_SECRET is not set");
  }, 60_000);

  it("stops at start with half a single sign-on setup, naming what is missing", async () => {
    const finished = await runCommand(
      process.execPath,
      [path.resolve("node_modules/next/dist/bin/next"), "start", "--port", "0"],
      {
        DATABASE_URL: databaseUrl,
        ROUTELENS_AUTH_SECRET: "a-secret-for-this-server-that-is-long-enough",
        ROUTELENS_OIDC_ISSUER: "https://login.example.test",
      },
    );
    expect(finished.code).toBe(1);
    expect(finished.stderr).toContain("ROUTELENS_OIDC_CLIENT_ID");
  }, 60_000);
});
