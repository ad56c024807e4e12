/**
 * Runs before every spec: creates the e2e admin in the e2e server's database and signs in
 * through the sign-in page, keeping the browser state for the specs.
 */
import { expect, test as setup } from "@playwright/test";
import { createTestUser } from "@/tests/support/accounts";
import { e2eDatabaseUrl } from "./support/server";
import { ADMIN_STATE, E2E_ADMIN, signInAs } from "./support/sign-in";

setup("sign in as the e2e admin", async ({ page }) => {
  await createTestUser(e2eDatabaseUrl(), { ...E2E_ADMIN, name: "E2E admin", isAdmin: true });
  await signInAs(page, E2E_ADMIN);
  await expect(page.getByText(`${E2E_ADMIN.email} (admin)`)).toBeVisible();
  await page.context().storageState({ path: ADMIN_STATE });
});
