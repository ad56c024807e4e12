/**
 * First run of a production server (`npm start`) on a database without users: every page leads
 * to /setup, which needs the one-time token the server printed; the admin created there signs
 * in, out and in again. Runs its own server on its own fresh database.
 */
import { expect, test } from "@playwright/test";
import { type AppServer, startAppServer } from "@/scripts/lib/app-server";
import { createTestDatabase, type TestDatabase } from "@/tests/support/test-database";

let database: TestDatabase;
let app: AppServer;
let output = "";

test.use({ storageState: { cookies: [], origins: [] } });

test.beforeAll(async () => {
  database = await createTestDatabase("first_run", ".data/e2e-pg");
  app = await startAppServer({
    databaseUrl: database.url,
    env: { ROUTELENS_DEMO: "0" },
    onOutput: (text) => {
      output += text;
    },
  });
});

test.afterAll(async () => {
  await app?.stop();
  await database?.drop();
});

function setupToken(): string {
  const token = output.match(/setup token: (\S+)/)?.[1];
  if (!token) throw new Error(`the server printed no setup token:\n${output}`);
  return token;
}

test("a server without users is closed until setup with the printed token", async ({ page }) => {
  await page.goto(`${app.baseUrl}/runs`);
  await expect(page).toHaveURL(`${app.baseUrl}/setup`);
  await expect(page.getByRole("heading", { name: "Set up Routelens" })).toBeVisible();
  expect(output).toContain(`open http://localhost:${app.port}/setup`);

  // A wrong token is refused, naming the field.
  await page.getByLabel("Setup token").fill("not-the-token");
  await page.getByLabel("Your name").fill("First Admin");
  await page.getByLabel("Email").fill("first-admin@example.test");
  await page.getByLabel(/Password/).fill("a long enough password");
  await page.getByRole("button", { name: "Create the admin and sign in" }).click();
  await expect(page.getByText(/is not a valid setup token/)).toBeVisible();

  await page.getByLabel("Setup token").fill(setupToken());
  await page.getByLabel(/Password/).fill("a long enough password");
  await page.getByRole("button", { name: "Create the admin and sign in" }).click();
  await expect(page).toHaveURL(`${app.baseUrl}/`);
  await expect(page.getByText("first-admin@example.test (admin)")).toBeVisible();

  // Setup is done: its page now leads to sign-in, and the token is used up.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${app.baseUrl}/sign-in`);
  await page.goto(`${app.baseUrl}/setup`);
  await expect(page).toHaveURL(`${app.baseUrl}/sign-in`);

  // A wrong password says so without saying whether the account exists.
  await page.getByLabel("Email").fill("first-admin@example.test");
  await page.getByLabel("Password").fill("the wrong password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.locator("#sign-in-error")).toHaveText("Wrong email or password.");
  await expect(page.getByLabel("Email")).toHaveValue("first-admin@example.test");

  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(`${app.baseUrl}/`);
  await expect(page.getByText("first-admin@example.test (admin)")).toBeVisible();
});

test("a page asked for before signing in opens after signing in", async ({ page }) => {
  await page.goto(`${app.baseUrl}/tools?range=7d`);
  await expect(page).toHaveURL(/\/sign-in\?next=%2Ftools%3Frange%3D7d$/);
  await page.getByLabel("Email").fill("first-admin@example.test");
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(`${app.baseUrl}/tools?range=7d`);
});
