/**
 * Inviting a user end to end: an admin invites a viewer of one tenant in Settings → Users,
 * copies the one-time link, the invited person opens it in a browser of their own, picks a
 * name and password and lands on the dashboard seeing only that tenant. When the admin then
 * deactivates them, their next page is the sign-in page.
 */
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { decisionEvent } from "./support/events";
import { createKey, sendBatch } from "./support/server";
import { E2E_ADMIN, signInAs } from "./support/sign-in";

const run = randomBytes(3).toString("hex");
const TENANT_A = `invite-a-${run}`;
const TENANT_B = `invite-b-${run}`;
const INVITED = `invited-${run}@example.test`;
const INVITED_PASSWORD = "invited person's long password";

test("an invited viewer of tenant A sees only A, and is signed out once deactivated", async ({
  browser,
}) => {
  for (const tenant of [TENANT_A, TENANT_B]) {
    await sendBatch(await createKey(tenant), [decisionEvent({ run_id: `run-${tenant}` })]);
  }
  const admin = E2E_ADMIN;
  const signedOut = { cookies: [], origins: [] };

  const adminContext = await browser.newContext({
    storageState: signedOut,
    permissions: ["clipboard-read", "clipboard-write"],
  });
  const adminPage = await adminContext.newPage();
  await signInAs(adminPage, admin);
  await adminPage.goto("/settings/users");
  await expect(adminPage.getByRole("heading", { name: "Users and invitations" })).toBeVisible();

  const invite = adminPage.getByRole("form", { name: "Invite a user" });
  await invite.getByLabel("Email").fill(INVITED);
  await invite.getByLabel(TENANT_A).selectOption("viewer");
  await invite.getByRole("button", { name: "Create invitation link" }).click();

  const shown = adminPage.getByTestId("invitation-link");
  await expect(shown).toContainText(`/invite/`);
  const link = (await shown.locator("code").textContent())?.trim() ?? "";
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/invite\/[A-Za-z0-9_-]{20,}$/);
  await shown.getByRole("button", { name: "Copy link" }).click();
  await expect(shown.getByRole("button", { name: "Copied" })).toBeVisible();
  const copied = await adminPage.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(link);

  // The pending invitation is listed with what it grants and who made it.
  await adminPage.reload();
  const pending = adminPage.getByTestId("invitations-table").getByRole("row", { name: INVITED });
  await expect(pending).toContainText(`${TENANT_A}: viewer`);
  await expect(pending).toContainText(admin.email);
  await expect(pending).toContainText("pending");
  // Reloading never shows the link again.
  await expect(adminPage.getByTestId("invitation-link")).toHaveCount(0);

  // The invited person, in a browser of their own.
  const invitedContext = await browser.newContext({ storageState: signedOut });
  const invitedPage = await invitedContext.newPage();
  await invitedPage.goto(copied);
  await expect(invitedPage.getByText(INVITED)).toBeVisible();
  await expect(invitedPage.getByTestId("invitation-roles")).toContainText(`${TENANT_A}: viewer`);
  await invitedPage.getByLabel("Your name").fill("Invited Person");
  await invitedPage.getByLabel(/^Password/).fill(INVITED_PASSWORD);
  await invitedPage.getByRole("button", { name: "Create my account and sign in" }).click();
  await expect(invitedPage).toHaveURL(/\/$/);
  await expect(invitedPage.getByText(INVITED)).toBeVisible();

  const tenantOptions = invitedPage.getByRole("combobox", { name: "Tenant" }).locator("option");
  await expect(tenantOptions).toHaveText(["All tenants", TENANT_A]);
  const other = await invitedPage.goto(`/runs?tenant=${TENANT_B}`);
  expect(other?.status()).toBe(404);
  await expect(invitedPage.getByRole("heading", { name: "Not found" })).toBeVisible();

  // The link is used up.
  await invitedPage.goto(copied);
  await expect(invitedPage.getByText("already used")).toBeVisible();

  // The admin deactivates the new user; the user's very next page is the sign-in page.
  await adminPage.reload();
  const row = adminPage.getByTestId("users-table").getByRole("row", { name: INVITED });
  await expect(row).toContainText(`${TENANT_A}: viewer`);
  await row.getByRole("button", { name: `Deactivate ${INVITED}` }).click();
  await expect(row.getByRole("status")).toContainText("Deactivated");
  await expect(row).toContainText("deactivated");
  await expect(row.getByRole("button", { name: `Reactivate ${INVITED}` })).toBeVisible();

  await invitedPage.goto(`/runs?tenant=${TENANT_A}`);
  await expect(invitedPage).toHaveURL(/\/sign-in/);

  await invitedContext.close();
  await adminContext.close();
});
