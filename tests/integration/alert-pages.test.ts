/**
 * The alerts pages (SPEC §9) over real HTTP with real sessions: what they show to whom. A
 * viewer reads their tenant's rules read-only and nothing of another tenant's; a maintainer is
 * offered the form with their tenants only and the rule's changes; the link in alert messages
 * opens the rule. Who may change what is tested through the actions' functions in
 * alert-rules.test.ts; the browser test (e2e/alerts.spec.ts) drives the real form.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { Viewer } from "@/lib/auth/access";
import { createRuleAs } from "@/lib/auth/alert-management";
import { createApiKey } from "@/lib/keys";
import { createTestUser, type SignedIn, signedInAs } from "../support/accounts";

const databaseUrl = inject("databaseUrl");
const baseUrl = inject("baseUrl");

const run = Date.now().toString(36);
const tenantA = `alert-pages-a-${run}`;
const tenantB = `alert-pages-b-${run}`;

function ruleForm(tenant: string, name: string): FormData {
  const data = new FormData();
  const fields = {
    name,
    tenant,
    metric: "harmful-drop-rate",
    windowMinutes: "15",
    comparison: "gt",
    threshold: "5",
    minSample: "10",
    channelKind: "slack",
    channelUrl: "https://hooks.slack.com/services/T0/B0/x",
    channelId: "",
  };
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

let viewerPage: SignedIn;
let maintainerPage: SignedIn;
let ruleA: string;
let ruleB: string;

beforeAll(async () => {
  await createApiKey(tenantA);
  await createApiKey(tenantB);
  const admin = await createTestUser(databaseUrl, { isAdmin: true });
  const adminViewer: Viewer = {
    userId: admin.id,
    email: admin.email,
    name: admin.email,
    isAdmin: true,
    roles: new Map(),
  };
  ruleA = (await createRuleAs(adminViewer, ruleForm(tenantA, `Drops of ${tenantA}`))).ruleId ?? "";
  ruleB = (await createRuleAs(adminViewer, ruleForm(tenantB, `Drops of ${tenantB}`))).ruleId ?? "";
  expect(ruleA).not.toBe("");
  expect(ruleB).not.toBe("");
  viewerPage = await signedInAs(
    baseUrl,
    await createTestUser(databaseUrl, { roles: { [tenantA]: "viewer" } }),
  );
  maintainerPage = await signedInAs(
    baseUrl,
    await createTestUser(databaseUrl, { roles: { [tenantA]: "maintainer" } }),
  );
});

describe("a viewer of a tenant", () => {
  it("reads its rules on the list, read-only, and nothing of another tenant's", async () => {
    const list = await viewerPage.fetch("/alerts");
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain(`Drops of ${tenantA}`);
    expect(html).toContain("not evaluated yet");
    expect(html).not.toContain(tenantB);
    expect(html).toContain("You read these rules as a viewer");
    expect(html).not.toContain('href="/alerts/new"');
  });

  it("reads a rule's page without its changes, and gets 404 for the form and another tenant's rule", async () => {
    const page = await viewerPage.fetch(`/alerts/${ruleA}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("You read this rule as a viewer");
    expect(html).toContain("hooks.slack.com");
    expect(html).not.toContain("Delete rule");
    expect(html).not.toContain("Send test");
    expect(html).not.toContain("Edit the rule");
    expect((await viewerPage.fetch("/alerts/new")).status).toBe(404);
    expect((await viewerPage.fetch(`/alerts/${ruleB}`)).status).toBe(404);
    expect((await viewerPage.fetch("/alerts/not-a-rule-id")).status).toBe(404);
  });
});

describe("a maintainer of a tenant", () => {
  it("is offered the new-rule form with their tenant only, not every tenant", async () => {
    const page = await maintainerPage.fetch("/alerts/new");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`value="${tenantA}"`);
    expect(html).not.toContain(tenantB);
    expect(html).not.toContain("all tenants");
  });

  it("gets the rule's changes on its page", async () => {
    const html = await (await maintainerPage.fetch(`/alerts/${ruleA}`)).text();
    for (const text of ["Send test", "Mute until then", "Edit the rule", "Delete rule"]) {
      expect(html).toContain(text);
    }
  });

  it("opens a rule from the link in its messages (/alerts?rule=<id>)", async () => {
    const response = await maintainerPage.fetch(`/alerts?rule=${ruleA}`);
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe(`/alerts/${ruleA}`);
  });
});
