/**
 * `GET` / `PUT /api/configs/<tenant>` over real HTTP, with real sessions and real API keys:
 * versions and history, the unchanged answer, refusals that name the field, and who may do
 * what (maintainer, viewer, another tenant's viewer, configs and ingest keys, nobody).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createApiKey } from "@/lib/keys";
import { configVersion } from "@/lib/selection";
import { routingConfigFromJson } from "@/lib/selection/config-json";
import { decisionEvent } from "@/lib/telemetry/events";
import { type SignedIn, signedInUser } from "../support/accounts";
import { postBatch } from "../support/http";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const stamp = Date.now().toString(36);
const tenantA = `cfg-a-${stamp}`;
const tenantB = `cfg-b-${stamp}`;

const configV1 = {
  roleTools: {
    action: ["hydrate_context", "lookup_order", "issue_refund"],
    reasoning: ["hydrate_context", "search_kb"],
  },
  alwaysInclude: ["hydrate_context"],
  triggerKeywords: { issue_refund: ["refund", "money back"] },
  policy: { maxSafetyLevel: "write" as const },
  catalog: [
    { name: "issue_refund", description: "Refund an order.", safetyLevel: "write" },
    { name: "lookup_order", description: "Find an order.", safetyLevel: "read" },
  ],
};
const configV2 = {
  ...configV1,
  roleTools: { ...configV1.roleTools, action: [...configV1.roleTools.action, "reship_order"] },
};

const versionOf = (config: object) => configVersion(routingConfigFromJson(config as never));

const db = new pg.Client({ connectionString: databaseUrl });
let maintainer: SignedIn;
let viewer: SignedIn;
let viewerOfB: SignedIn;
let configsKey: string;
let configsKeyOfB: string;
let ingestKey: string;

beforeAll(async () => {
  await db.connect();
  ingestKey = (await createApiKey(tenantA)).key;
  configsKey = (await createApiKey(tenantA, { scope: "configs", label: "ci" })).key;
  configsKeyOfB = (await createApiKey(tenantB, { scope: "configs" })).key;
  maintainer = await signedInUser(baseUrl, databaseUrl, { roles: { [tenantA]: "maintainer" } });
  viewer = await signedInUser(baseUrl, databaseUrl, { roles: { [tenantA]: "viewer" } });
  viewerOfB = await signedInUser(baseUrl, databaseUrl, { roles: { [tenantB]: "viewer" } });
});

afterAll(async () => {
  await db.end();
});

function put(as: SignedIn | string | null, tenant: string, body: unknown, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  const request: RequestInit = {
    method: "PUT",
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...init,
    headers,
  };
  const path = `/api/configs/${tenant}`;
  if (as === null) return fetch(`${baseUrl}${path}`, request);
  if (typeof as === "string") {
    headers.set("Authorization", `Bearer ${as}`);
    return fetch(`${baseUrl}${path}`, request);
  }
  return as.fetch(path, request);
}

function get(as: SignedIn | string | null, path: string) {
  if (as === null) return fetch(`${baseUrl}${path}`);
  if (typeof as === "string") {
    return fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${as}` } });
  }
  return as.fetch(path);
}

async function historyRows(tenant: string) {
  const { rows } = await db.query<{
    revision: number;
    config_version: string;
    author_kind: string;
  }>(
    "SELECT revision, config_version, author_kind FROM routing_configs WHERE tenant_id = $1 ORDER BY revision",
    [tenant],
  );
  return rows;
}

describe("PUT and GET /api/configs/<tenant>", () => {
  it("stores a maintainer's config with the version the core gives it, once", async () => {
    const created = await put(maintainer, tenantA, { config: configV1, note: "first" });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({
      tenant: tenantA,
      version: versionOf(configV1),
      revision: 1,
      changed: true,
      previousVersion: null,
    });

    // The same config again (keys and lists reordered): no new history entry, and it says so.
    const reordered = {
      catalog: [...configV1.catalog].reverse(),
      policy: configV1.policy,
      triggerKeywords: configV1.triggerKeywords,
      alwaysInclude: configV1.alwaysInclude,
      roleTools: { reasoning: ["search_kb", "hydrate_context"], action: configV1.roleTools.action },
    };
    const again = await put(maintainer, tenantA, { config: reordered });
    expect(again.status).toBe(200);
    const unchanged = await again.json();
    expect(unchanged).toMatchObject({ changed: false, version: versionOf(configV1), revision: 1 });
    expect(unchanged.message).toMatch(/already the current config/);
    expect(await historyRows(tenantA)).toHaveLength(1);

    const current = await get(maintainer, `/api/configs/${tenantA}`);
    expect(current.status).toBe(200);
    expect(current.headers.get("cache-control")).toBe("no-store");
    expect(await current.json()).toMatchObject({
      tenant: tenantA,
      version: versionOf(configV1),
      revision: 1,
      note: "first",
      author: { kind: "user", name: maintainer.email },
      config: configV1,
    });
  });

  it("lets a configs key of the tenant save and read, as its own author", async () => {
    const saved = await put(configsKey, tenantA, { config: configV2, note: "from CI" });
    expect(saved.status).toBe(201);
    expect(await saved.json()).toMatchObject({
      version: versionOf(configV2),
      revision: 2,
      changed: true,
      previousVersion: versionOf(configV1),
    });
    expect((await historyRows(tenantA)).map((row) => row.author_kind)).toEqual(["user", "key"]);

    const read = await get(configsKey, `/api/configs/${tenantA}`);
    expect(await read.json()).toMatchObject({
      revision: 2,
      author: { kind: "key", name: `key ${configsKey.slice(0, 12)}…` },
    });
    const older = await get(configsKey, `/api/configs/${tenantA}?version=${versionOf(configV1)}`);
    expect(older.status).toBe(200);
    expect(await older.json()).toMatchObject({ revision: 1, config: configV1 });
    const missing = await get(configsKey, `/api/configs/${tenantA}?version=cfg_0000000000000000`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toMatch(/no stored config with version/);
  });

  it("writes an audit row for every save, changed or not", async () => {
    const { rows } = await db.query<{ action: string; actor_email: string | null; target: string }>(
      "SELECT action, actor_email, target, detail FROM audit_log WHERE tenant_id = $1 AND action LIKE 'config-%' ORDER BY id",
      [tenantA],
    );
    expect(rows.map(({ action, actor_email, target }) => [action, actor_email, target])).toEqual([
      ["config-saved", maintainer.email, versionOf(configV1)],
      ["config-unchanged", maintainer.email, versionOf(configV1)],
      ["config-saved", null, versionOf(configV2)],
    ]);
  });

  it("refuses a bad config with 400 naming the field and the rule, storing nothing", async () => {
    const empty = await put(maintainer, tenantA, {
      config: { ...configV1, roleTools: { action: ["lookup_order", ""] } },
    });
    expect(empty.status).toBe(400);
    const body = await empty.json();
    expect(body.issues[0].field).toBe("config.roleTools.action[1]");
    expect(body.error).toContain("config.roleTools.action[1]: ");

    const unknown = await put(maintainer, tenantA, { config: { ...configV1, palettes: {} } });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).issues).toContainEqual({
      field: "config.palettes",
      message: expect.stringMatching(/not a field/),
    });

    const noConfig = await put(maintainer, tenantA, { note: "forgot it" });
    expect(noConfig.status).toBe(400);
    expect((await noConfig.json()).error).toMatch(/^config: is required/);

    const notJson = await put(maintainer, tenantA, "{ not json");
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error).toMatch(/^body: is not valid JSON/);

    const textBody = await put(maintainer, tenantA, "{}", {
      headers: { "Content-Type": "text/plain" },
    });
    expect(textBody.status).toBe(415);
    expect(await historyRows(tenantA)).toHaveLength(2);
  });

  it("answers 413 to a body over 1 MiB without storing it", async () => {
    const huge = {
      config: {
        ...configV1,
        alwaysInclude: Array.from({ length: 120_000 }, (_, i) => `tool_${i}`),
      },
    };
    const response = await put(maintainer, tenantA, huge);
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatch(/over 1 MiB/);
    expect(await historyRows(tenantA)).toHaveLength(2);
  });
});

describe("who may read and change configs", () => {
  it("lets a viewer read but answers 403 to their save", async () => {
    expect((await get(viewer, `/api/configs/${tenantA}`)).status).toBe(200);
    const refused = await put(viewer, tenantA, { config: configV1 });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toMatch(/viewer/);
  });

  it("answers 404 for a tenant the caller may not read, session or key", async () => {
    expect((await get(viewerOfB, `/api/configs/${tenantA}`)).status).toBe(404);
    expect((await put(viewerOfB, tenantA, { config: configV1 })).status).toBe(404);
    expect((await get(configsKeyOfB, `/api/configs/${tenantA}`)).status).toBe(404);
    expect((await put(configsKeyOfB, tenantA, { config: configV1 })).status).toBe(404);
    expect((await get(maintainer, `/api/configs/no-such-tenant-${stamp}`)).status).toBe(404);
    expect((await get(maintainer, "/api/configs/%20bad%20id")).status).toBe(404);
  });

  it("answers 403 to an ingest key, and an ingest endpoint refuses a configs key", async () => {
    const refused = await put(ingestKey, tenantA, { config: configV1 });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toMatch(/ingest key/);
    expect((await get(ingestKey, `/api/configs/${tenantA}`)).status).toBe(403);
    const ingest = await postBatch(baseUrl, configsKey, [decisionEvent({ run_id: `r-${stamp}` })]);
    expect(ingest.status).toBe(401);
  });

  it("answers 401 to nobody, and to a key that is wrong or revoked", async () => {
    const anonymous = await put(null, tenantA, { config: configV1 });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error).toMatch(/sign in/i);
    expect((await get(null, `/api/configs/${tenantA}`)).status).toBe(401);
    expect((await put("rl_not-a-key", tenantA, { config: configV1 })).status).toBe(401);
    const revoked = (await createApiKey(tenantA, { scope: "configs" })).key;
    await db.query("UPDATE api_keys SET revoked_at = now() WHERE prefix = $1", [
      revoked.slice(0, 12),
    ]);
    expect((await get(revoked, `/api/configs/${tenantA}`)).status).toBe(401);
  });
});
