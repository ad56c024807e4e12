/**
 * Routing configs end to end: a maintainer signs in, pastes a config on the editor, previews
 * its version, saves it, pastes a changed one and sees the new version with its diff in the
 * history; a viewer of the same tenant reads it without any way to change it.
 */
import { expect, type Page, test } from "@playwright/test";
import { createTestUser } from "../tests/support/accounts";
import { failOnHydrationErrors } from "./support/hydration";
import { e2eDatabaseUrl } from "./support/server";
import { signInAs } from "./support/sign-in";

const run = Date.now().toString(36);
const TENANT = `e2e-configs-${run}`;

failOnHydrationErrors(test);

// Each person signs in in a browser of their own.
test.use({ storageState: { cookies: [], origins: [] } });

const first = {
  roleTools: { action: ["hydrate_context", "lookup_order"], reasoning: ["search_kb"] },
  alwaysInclude: ["hydrate_context"],
  policy: { maxSafetyLevel: "write" },
};
const second = {
  ...first,
  roleTools: { ...first.roleTools, action: ["hydrate_context", "lookup_order", "issue_refund"] },
};

async function pasteAndSave(page: Page, config: object, note: string): Promise<string> {
  await page.goto(`/configs/${TENANT}/edit`);
  await page.getByTestId("config-json").fill(JSON.stringify(config, null, 2));
  await page.getByTestId("preview-config").click();
  const version = (await page.getByTestId("preview-version").textContent()) ?? "";
  expect(version).toMatch(/^cfg_[0-9a-f]{16}$/);
  await page.getByTestId("config-note").fill(note);
  await page.getByTestId("save-config").click();
  await expect(page).toHaveURL(new RegExp(`/configs/${TENANT}\\?saved=${version}`));
  return version;
}

test("a maintainer pastes configs and reads the history; a viewer reads it only", async ({
  page,
  browser,
}) => {
  const databaseUrl = e2eDatabaseUrl();
  const maintainer = await createTestUser(databaseUrl, { roles: { [TENANT]: "maintainer" } });
  const viewer = await createTestUser(databaseUrl, { roles: { [TENANT]: "viewer" } });

  await signInAs(page, maintainer);
  await page.goto("/configs");
  await page.getByRole("link", { name: TENANT }).click();
  await expect(page.getByTestId("config-none")).toBeVisible();

  const v1 = await pasteAndSave(page, first, "first palettes");
  await expect(page.getByTestId("config-saved")).toContainText(`version ${v1} is now the current`);

  // A bad config is refused beside the editor, naming the field and the rule.
  await page.goto(`/configs/${TENANT}/edit`);
  await page.getByTestId("config-json").fill(JSON.stringify({ ...first, roles: {} }));
  await page.getByTestId("preview-config").click();
  await expect(page.getByTestId("config-issues")).toContainText("roles");

  const v2 = await pasteAndSave(page, second, "refunds in action");
  expect(v2).not.toBe(v1);
  await expect(page.getByTestId("config-version")).toHaveText(v2);
  const history = page.getByTestId("config-history-entry");
  await expect(history).toHaveCount(2);
  await expect(history.first()).toContainText(v2);
  await expect(history.first()).toContainText("refunds in action");
  await expect(history.first()).toContainText("action:");
  await expect(history.first()).toContainText("+ issue_refund");
  await expect(history.nth(1)).toContainText(v1);
  await expect(page.getByRole("link", { name: "Backtest this config" }).first()).toHaveAttribute(
    "href",
    `/backtests/new?tenant=${TENANT}&config=${v2}`,
  );

  const viewerContext = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const viewerPage = await viewerContext.newPage();
  await signInAs(viewerPage, viewer);
  await viewerPage.goto(`/configs/${TENANT}`);
  await expect(viewerPage.getByTestId("config-version")).toHaveText(v2);
  await expect(viewerPage.getByTestId("config-read-only")).toBeVisible();
  await expect(viewerPage.getByRole("link", { name: "New version" })).toHaveCount(0);
  await expect(viewerPage.getByTestId("config-history-entry")).toHaveCount(2);
  const editor = await viewerPage.goto(`/configs/${TENANT}/edit`);
  expect(editor?.status()).toBe(404);
  await viewerContext.close();
});
