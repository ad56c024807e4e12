/**
 * Signing in for end-to-end specs, the way a person does: the /sign-in form. The specs run
 * signed in as the admin the `setup` project creates (`ADMIN_STATE`); specs about signing in
 * start from an empty browser state instead.
 */
import { expect, type Page } from "@playwright/test";

/** The browser state (session cookie) of the e2e admin, written by e2e/admin.setup.ts. */
export const ADMIN_STATE = ".data/e2e-admin-state.json";
export const E2E_ADMIN = { email: "e2e-admin@example.test", password: "e2e admin password 1" };

/** Fills and sends the sign-in form, then waits to leave it. */
export async function signInAs(page: Page, user: { email: string; password: string }) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
}
