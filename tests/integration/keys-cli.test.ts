import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { createApiKey, hashApiKey, KeyNotFoundError, revokeApiKey } from "@/lib/keys";
import { decisionEvent } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";
import { runCommand } from "../support/run-command";

const databaseUrl = inject("databaseUrl");
const baseUrl = inject("baseUrl");

/** Runs `npm run keys -- <args>` against the test database. */
const keys = (...args: string[]) =>
  runCommand("npx", ["--no-install", "tsx", "scripts/keys.ts", ...args], {
    DATABASE_URL: databaseUrl,
  });

describe("npm run keys", () => {
  const tenant = `cli-${Date.now()}`;

  it("creates a tenant and key, prints the key alone on the last line, lists and revokes it", async () => {
    const created = await keys("create", tenant);
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.trim().split("\n").at(-1) ?? "";
    expect(key).toMatch(/^rl_[A-Za-z0-9_-]{32}$/);
    expect((await postBatch(baseUrl, key, [decisionEvent()])).status).toBe(200);

    const listed = await keys("list");
    const line = listed.stdout.split("\n").find((l) => l.includes(tenant)) ?? "";
    expect(line).toContain(key.slice(0, 12));
    expect(line).toContain("active");
    expect(listed.stdout).not.toContain(key);

    const revoked = await keys("revoke", key.slice(0, 12));
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`Revoked key ${key.slice(0, 12)}`);
    expect((await keys("list")).stdout.split("\n").find((l) => l.includes(tenant))).toContain(
      "revoked",
    );
    expect((await postBatch(baseUrl, key, [decisionEvent()])).status).toBe(401);
  });

  it("explains what is wrong with bad arguments", async () => {
    const missing = await keys("create");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/create: missing <tenant>/);
    const badTenant = await keys("create", "bad tenant!");
    expect(badTenant.code).toBe(2);
    expect(badTenant.stderr).toMatch(/tenant: letters, digits/);
    const unknown = await keys("revoke", "rl_nothing_like_this");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No active key starts with/);
    const short = await keys("revoke", "rl_");
    expect(short.stderr).toMatch(/at least 6 characters/);
    expect((await keys("frobnicate")).stderr).toMatch(/unknown command "frobnicate"/);
  });

  it("prints and sets a tenant's ingest limits, which apply to its next request", async () => {
    const limited = `${tenant}-limits`;
    const created = await keys("create", limited);
    const key = created.stdout.trim().split("\n").at(-1) ?? "";
    const shown = await keys("limits", limited);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("Events per second, all keys: 50000 (default)");

    const set = await keys(
      "limits",
      limited,
      "--tenantEventsPerSecond",
      "10",
      "--tenantBurst",
      "20",
    );
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain("Events per second, all keys: 10 (own)");
    expect(set.stdout).toContain("Burst in events, all keys: 20 (own)");
    expect(set.stdout).toContain("Burst in events, each key: 100000 (default)");
    const batch = Array.from({ length: 20 }, (_, iteration) => decisionEvent({ iteration }));
    expect((await postBatch(baseUrl, key, batch)).status).toBe(200);
    expect((await postBatch(baseUrl, key, [decisionEvent()])).status).toBe(429);

    const bad = await keys("limits", limited, "--tenantBurst", "0");
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--tenantBurst must be at least 1/);
    expect((await keys("limits", `${limited}-none`)).stderr).toMatch(/No tenant/);

    const reset = await keys("limits", limited, "--default");
    expect(reset.stdout).toContain("Burst in events, all keys: 100000 (default)");
  });
});

describe("revoking by an ambiguous prefix", () => {
  const tenant = `cli-ambiguous-${Date.now()}`;

  /**
   * Two working keys of `tenant` whose prefixes share their first 10 characters. Random keys
   * share a 6-character prefix about once in 260,000 pairs, so these are made the way
   * `createApiKey` makes keys (prefix and SHA-256 hash of a `rl_` key) but with a chosen start.
   */
  async function twinKeys(): Promise<{ shared: string; keys: [string, string] }> {
    await createApiKey(tenant);
    const shared = `rl_${randomBytes(6).toString("base64url").slice(0, 7)}`;
    const keys: [string, string] = [
      `${shared}A${randomBytes(24).toString("base64url").slice(0, 24)}`,
      `${shared}B${randomBytes(24).toString("base64url").slice(0, 24)}`,
    ];
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      for (const key of keys) {
        await db.query(
          "INSERT INTO api_keys (id, tenant_id, prefix, hash) VALUES ($1, $2, $3, $4)",
          [randomUUID(), tenant, key.slice(0, 12), hashApiKey(key)],
        );
      }
    } finally {
      await db.end();
    }
    return { shared, keys };
  }

  it("refuses the shared prefix, names both keys and revokes neither; a longer one revokes one", async () => {
    const {
      shared,
      keys: [first, second],
    } = await twinKeys();
    for (const key of [first, second]) {
      expect((await postBatch(baseUrl, key, [decisionEvent()])).status).toBe(200);
    }

    const ambiguous = await keys("revoke", shared);
    expect(ambiguous.code).toBe(2);
    const named = /"(.*)" matches several keys \((.*)\); give more of it\./.exec(ambiguous.stderr);
    expect(named?.[1]).toBe(shared);
    expect(named?.[2]?.split(", ").sort()).toEqual([first.slice(0, 12), second.slice(0, 12)]);
    await expect(revokeApiKey(shared)).rejects.toThrow(KeyNotFoundError);
    // Nothing was revoked: both keys still work.
    for (const key of [first, second]) {
      expect((await postBatch(baseUrl, key, [decisionEvent()])).status).toBe(200);
    }

    const one = await keys("revoke", first.slice(0, 12));
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain(`Revoked key ${first.slice(0, 12)}… of tenant ${tenant}.`);
    expect((await postBatch(baseUrl, first, [decisionEvent()])).status).toBe(401);
    expect((await postBatch(baseUrl, second, [decisionEvent()])).status).toBe(200);

    // Revoked keys no longer count: the shared prefix now names the other key alone.
    const revoked = await revokeApiKey(shared);
    expect(revoked.prefix).toBe(second.slice(0, 12));
    expect((await postBatch(baseUrl, second, [decisionEvent()])).status).toBe(401);
  });
});
