/**
 * The config pages over real HTTP with real sessions (what each role sees), and the rules the
 * editor's server actions follow, exercised through the functions they call with the viewer
 * passed in (the browser test, e2e/configs.spec.ts, drives the real editor).
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { Viewer } from "@/lib/auth/access";
import { previewConfigAs, saveConfigAs } from "@/lib/auth/config-management";
import { createApiKey } from "@/lib/keys";
import type { TenantRole } from "@/lib/schemas/accounts";
import { configVersion } from "@/lib/selection";
import { routingConfigFromJson } from "@/lib/selection/config-json";
import { createTestUser, type SignedIn, signedInAs } from "../support/accounts";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const stamp = Date.now().toString(36);
const tenantA = `cfgp-a-${stamp}`;
const tenantB = `cfgp-b-${stamp}`;

const first = {
  roleTools: { action: ["hydrate_context", "lookup_order"], reflection: null },
  alwaysInclude: ["hydrate_context"],
  policy: { maxSafetyLevel: "write" as const },
};
const second = {
  ...first,
  roleTools: { ...first.roleTools, action: ["hydrate_context", "lookup_order", "issue_refund"] },
};
const versionOf = (config: object) => configVersion(routingConfigFromJson(config as never));

async function person(
  roles: Record<string, TenantRole>,
): Promise<{ viewer: Viewer; http: SignedIn }> {
  const user = await createTestUser(databaseUrl, { roles });
  return {
    viewer: {
      userId: user.id,
      email: user.email,
      name: user.email,
      isAdmin: false,
      roles: new Map(Object.entries(roles)),
    },
    http: await signedInAs(baseUrl, user),
  };
}

let maintainer: Awaited<ReturnType<typeof person>>;
let viewer: Awaited<ReturnType<typeof person>>;

beforeAll(async () => {
  await createApiKey(tenantA);
  await createApiKey(tenantB);
  maintainer = await person({ [tenantA]: "maintainer" });
  viewer = await person({ [tenantA]: "viewer" });
});

describe("saving from the pages", () => {
  it("previews the version and the diff, then saves, for a maintainer", async () => {
    const caller = { kind: "user" as const, viewer: maintainer.viewer };
    const firstPreview = await previewConfigAs(caller, tenantA, first);
    expect(firstPreview).toMatchObject({ ok: true, changed: true, currentVersion: null });
    expect(await saveConfigAs(caller, tenantA, { config: first })).toMatchObject({
      status: "saved",
      revision: 1,
    });
    const secondPreview = await previewConfigAs(caller, tenantA, second);
    expect(secondPreview).toMatchObject({
      ok: true,
      configVersion: versionOf(second),
      changed: true,
      currentVersion: versionOf(first),
      diff: [
        {
          field: "roleTools",
          changes: [{ kind: "names", subject: "action", added: ["issue_refund"], removed: [] }],
        },
      ],
    });
    expect(
      await saveConfigAs(caller, tenantA, { config: second, note: "refunds in action" }),
    ).toMatchObject({ status: "saved", revision: 2 });
    expect(await previewConfigAs(caller, tenantA, second)).toMatchObject({
      ok: true,
      changed: false,
    });
  });

  it("refuses a viewer's save and preview, and a tenant they do not read, storing nothing", async () => {
    const caller = { kind: "user" as const, viewer: viewer.viewer };
    expect(await saveConfigAs(caller, tenantA, { config: first })).toMatchObject({
      ok: false,
      status: "forbidden",
    });
    expect(await previewConfigAs(caller, tenantA, first)).toMatchObject({ status: "forbidden" });
    expect(await saveConfigAs(caller, tenantB, { config: first })).toMatchObject({
      status: "not-found",
    });
  });

  it("answers an invalid config with its issues, naming the field", async () => {
    const caller = { kind: "user" as const, viewer: maintainer.viewer };
    const answer = await previewConfigAs(caller, tenantA, {
      roleTools: { action: "lookup_order" },
    });
    expect(answer).toMatchObject({ ok: false });
    expect("issues" in answer && answer.issues[0]?.field).toBe("roleTools.action");
  });
});

describe("the config pages", () => {
  it("show a maintainer the current config, the history with its diff and the editor", async () => {
    const page = await maintainer.http.fetch(`/configs/${tenantA}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(versionOf(second));
    expect(html).toContain("refunds in action");
    expect(html).toContain("issue_refund");
    expect(html).toContain(`/configs/${tenantA}/edit`);
    expect(html).toContain(`/backtests/new?tenant=${tenantA}&amp;config=${versionOf(second)}`);
    const older = await maintainer.http.fetch(`/configs/${tenantA}?version=${versionOf(first)}`);
    expect(older.status).toBe(200);
    expect(await older.text()).toContain("Revision 1");
    expect((await maintainer.http.fetch(`/configs/${tenantA}/edit`)).status).toBe(200);
  });

  it("show a viewer the config read-only, and no editor", async () => {
    const html = await (await viewer.http.fetch(`/configs/${tenantA}`)).text();
    expect(html).toContain('data-testid="config-read-only"');
    expect(html).not.toContain(`/configs/${tenantA}/edit`);
    expect((await viewer.http.fetch(`/configs/${tenantA}/edit`)).status).toBe(404);
  });

  it("list only the tenants the user reads", async () => {
    const html = await (await viewer.http.fetch("/configs")).text();
    expect(html).toContain(tenantA);
    expect(html).toContain(versionOf(second));
    expect(html).not.toContain(tenantB);
  });

  it("answer 404 for an unknown version or a malformed tenant", async () => {
    expect((await viewer.http.fetch(`/configs/${tenantA}?version=cfg_nope`)).status).toBe(404);
    expect((await viewer.http.fetch("/configs/%25zz")).status).toBe(404);
  });
});
