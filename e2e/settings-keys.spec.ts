/**
 * Ingest keys end to end: an admin of their own signs in through the form (not the shared
 * e2e admin's saved state, so the creator shown is theirs), creates a key for a new tenant
 * on the settings page, an agent (fetch, as curl would) sends a batch with it and the run
 * appears on the runs page; the key is then revoked in the UI and ingest refuses it at once.
 */
import { expect, test } from "@playwright/test";
import { createTestUser, type TestUserSpec } from "@/tests/support/accounts";
import { decisionEvent } from "./support/events";
import { failOnHydrationErrors } from "./support/hydration";
import { baseURL, e2eDatabaseUrl, sendBatch } from "./support/server";
import { signInAs } from "./support/sign-in";

const run = Date.now().toString(36);
const TENANT = `e2e-keys-${run}`;
const RUN_ID = `keys-run-${run}`;

// Each test signs in as a user of its own through the sign-in form.
test.use({ storageState: { cookies: [], origins: [] } });

const createUser = (spec: TestUserSpec) => createTestUser(e2eDatabaseUrl(), spec);

failOnHydrationErrors(test);

function postWith(key: string): Promise<Response> {
  return fetch(`${baseURL}/api/ingest`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ batch: [decisionEvent({ run_id: `${RUN_ID}-late` })] }),
  });
}

test("an admin creates a key, ingests with it, sees the run, then revokes it", async ({
  page,
}, testInfo) => {
  const admin = await createUser({ isAdmin: true });
  await signInAs(page, admin);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/settings\/keys$/);
  await expect(page.getByRole("heading", { level: 1, name: "Ingest keys" })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Settings" });
  await expect(tabs.getByRole("link", { name: "Ingest keys" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(tabs.getByRole("link", { name: "Users" })).toBeVisible();
  await expect(tabs.getByRole("link", { name: "Audit log" })).toBeVisible();

  // A bad tenant id is refused with the field and its rule named, and what was typed stays.
  await page.getByLabel("Tenant").fill("not a tenant id");
  await page.getByLabel(/^Label/).fill("kept label");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.locator("#tenant-error")).toHaveText("letters, digits, '.', '_' and '-' only");
  await expect(page.getByLabel("Tenant")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Tenant")).toHaveValue("not a tenant id");
  await expect(page.getByLabel(/^Label/)).toHaveValue("kept label");
  await expect(page.getByTestId("new-key")).toHaveCount(0);

  // Create: a new tenant id typed by the admin, with a label.
  await page.getByLabel("Tenant").fill(TENANT);
  await page.getByLabel(/^Label/).fill("e2e agent");
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByTestId("new-key");
  await expect(shown).toBeVisible();
  await expect(shown).toContainText("shown this once");
  const key = ((await page.getByTestId("new-key-value").textContent()) ?? "").trim();
  expect(key).toMatch(/^rl_[A-Za-z0-9_-]{32}$/);
  const prefix = key.slice(0, 12);
  await expect(page.getByTestId("new-key-curl")).toContainText(
    `curl -X POST ${baseURL}/api/ingest -H "Authorization: Bearer ${key}"`,
  );
  await expect(shown.getByRole("button", { name: "Copy key" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("settings-keys-created.png"), fullPage: true });

  const row = page.getByTestId("keys-table").getByRole("row").filter({ hasText: prefix });
  await expect(row).toContainText(TENANT);
  await expect(row).toContainText("e2e agent");
  await expect(row).toContainText(admin.email);
  await expect(row).toContainText("never");
  await expect(row).toContainText("active");

  // The agent sends a batch with the key (as the curl shown would), and the run appears.
  await sendBatch(key, [decisionEvent({ run_id: RUN_ID })]);
  await page.goto(`/runs?tenant=${TENANT}`);
  await expect(page.getByTestId("runs-table")).toContainText(RUN_ID);

  // The key is never shown again.
  await page.goto("/settings/keys");
  await expect(page.getByTestId("keys-table")).toContainText(prefix);
  expect(await page.content()).not.toContain(key);
  await expect(page.getByTestId("new-key")).toHaveCount(0);

  // Revoke, with a confirmation step; ingest refuses the key from the next request.
  const listed = page.getByTestId("keys-table").getByRole("row").filter({ hasText: prefix });
  await listed.getByRole("button", { name: `Revoke key ${prefix}… of ${TENANT}` }).click();
  expect((await postWith(key)).status).toBe(200);
  await page.screenshot({ path: testInfo.outputPath("settings-keys-confirm.png"), fullPage: true });
  await listed.getByRole("button", { name: `Revoke ${prefix}…` }).click();
  await expect(listed).toContainText("revoked");
  await expect(listed.getByRole("button")).toHaveCount(0);
  expect((await postWith(key)).status).toBe(401);
});

test("a viewer of a tenant sees who manages its keys, no keys and no admin tabs", async ({
  page,
}) => {
  const viewer = await createUser({ roles: { [`${TENANT}-read`]: "viewer" } });
  await signInAs(page, viewer);
  await page.goto("/settings/keys");
  await expect(page.getByTestId("keys-not-maintainer")).toContainText(
    "created and revoked by a maintainer of that tenant",
  );
  await expect(page.getByTestId("keys-table")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Create key" })).toHaveCount(0);
  const tabs = page.getByRole("navigation", { name: "Settings" });
  await expect(tabs.getByRole("link", { name: "Ingest keys" })).toBeVisible();
  await expect(tabs.getByRole("link", { name: "Users" })).toHaveCount(0);
  await expect(tabs.getByRole("link", { name: "Audit log" })).toHaveCount(0);
});
