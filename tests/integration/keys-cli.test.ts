import { spawnSync } from "node:child_process";
import { describe, expect, inject, it } from "vitest";
import { decisionEvent } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";

const databaseUrl = inject("databaseUrl");
const baseUrl = inject("baseUrl");

function keys(...args: string[]) {
  const result = spawnSync("npx", ["--no-install", "tsx", "scripts/keys.ts", ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("npm run keys", () => {
  const tenant = `cli-${Date.now()}`;

  it("creates a tenant and key, prints the key alone on the last line, lists and revokes it", async () => {
    const created = keys("create", tenant);
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.trim().split("\n").at(-1) ?? "";
    expect(key).toMatch(/^rl_[A-Za-z0-9_-]{32}$/);
    expect((await postBatch(baseUrl, key, [decisionEvent()])).status).toBe(200);

    const listed = keys("list");
    const line = listed.stdout.split("\n").find((l) => l.includes(tenant)) ?? "";
    expect(line).toContain(key.slice(0, 12));
    expect(line).toContain("active");
    expect(listed.stdout).not.toContain(key);

    const revoked = keys("revoke", key.slice(0, 12));
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`Revoked key ${key.slice(0, 12)}`);
    expect(
      keys("list")
        .stdout.split("\n")
        .find((l) => l.includes(tenant)),
    ).toContain("revoked");
    expect((await postBatch(baseUrl, key, [decisionEvent()])).status).toBe(401);
  });

  it("explains what is wrong with bad arguments", () => {
    const missing = keys("create");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/create: missing <tenant>/);
    const badTenant = keys("create", "bad tenant!");
    expect(badTenant.code).toBe(2);
    expect(badTenant.stderr).toMatch(/tenant: letters, digits/);
    const unknown = keys("revoke", "rl_nothing_like_this");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No active key starts with/);
    const short = keys("revoke", "rl_");
    expect(short.stderr).toMatch(/at least 6 characters/);
    expect(keys("frobnicate").stderr).toMatch(/unknown command "frobnicate"/);
  });
});
