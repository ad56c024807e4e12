/**
 * Settings → Your account: an admin created by `npm run users -- create-admin` signs in with
 * the printed one-time link, sets a password, signs out and in with it, then changes it.
 */
import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { baseURL, e2eDatabaseUrl } from "./support/server";
import { signInAs } from "./support/sign-in";

test.use({ storageState: { cookies: [], origins: [] } });

const email = `account-${Date.now()}@example.test`;

function createAdminLink(): string {
  const output = execFileSync(
    "npx",
    ["--no-install", "tsx", "scripts/users.ts", "create-admin", email],
    {
      env: {
        ...process.env,
        DATABASE_URL: e2eDatabaseUrl(),
        ROUTELENS_URL: baseURL,
        ROUTELENS_AUTH_SECRET: "a-secret-for-the-cli-that-is-long-enough",
      },
      encoding: "utf8",
    },
  );
  const link = output.trim().split("\n").at(-1) ?? "";
  if (!link.includes("/api/auth/magic-link/verify?token=")) {
    throw new Error(`create-admin printed no link:\n${output}`);
  }
  return link;
}

test("a user who signed in by link sets a password, signs in with it and changes it", async ({
  page,
  browser,
}) => {
  await page.goto(createAdminLink());
  await expect(page.getByText(`${email} (admin)`)).toBeVisible();

  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Settings" })
    .click();
  await page
    .getByRole("navigation", { name: "Settings" })
    .getByRole("link", { name: "Your account" })
    .click();
  await expect(page.getByRole("heading", { name: "Set a password" })).toBeVisible();
  await expect(page.getByText("with one-time links")).toBeVisible();
  await page.getByLabel(/^Password/).fill("short");
  await page.getByRole("button", { name: "Set password" }).click();
  // The browser's own length check refuses it first; a long enough one is accepted.
  await page.getByLabel(/^Password/).fill("my first real password");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Password set" })).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await signInAs(page, { email, password: "my first real password" });

  // A second browser signed in with the same password is signed out by the change.
  const elsewhere = await (
    await browser.newContext({ storageState: { cookies: [], origins: [] } })
  ).newPage();
  await signInAs(elsewhere, { email, password: "my first real password" });

  await page.goto("/settings/account");
  await expect(page.getByRole("heading", { name: "Change your password" })).toBeVisible();
  await page.getByLabel("Current password").fill("not the password");
  await page.getByLabel(/^Password \(at least/).fill("my second real password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("is not your current password.")).toBeVisible();
  // Password fields are cleared after a refusal (never typed back in): wait for that.
  await expect(page.getByLabel("Current password")).toHaveValue("");
  await page.getByLabel("Current password").fill("my first real password");
  await page.getByLabel(/^Password \(at least/).fill("my second real password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Password changed" })).toBeVisible();
  await page.goto("/runs");
  await expect(page).toHaveURL(/\/runs$/);
  await elsewhere.goto("/runs");
  await expect(elsewhere).toHaveURL(/\/sign-in\?next=%2Fruns$/);

  await page.getByRole("button", { name: "Sign out" }).click();
  // Wait for the sign-out to finish: /sign-in sends a signed-in browser on to the dashboard.
  await expect(page).toHaveURL(/\/sign-in$/);
  await signInAs(page, { email, password: "my second real password" });
  await expect(page.getByText(`${email} (admin)`)).toBeVisible();
});
