/**
 * Alerts end to end, signed in as the e2e admin: a rule is created in the form, which shows the
 * rule's current value before it is saved; its webhook's secret is shown once and a test
 * message reaches a receiver this spec runs on 127.0.0.1; injected decisions (through
 * /api/ingest with a key) push the value over the threshold, and the rule fires — on its page,
 * on the overview, and as a signed webhook call. The e2e server evaluates rules every 2 s
 * (ROUTELENS_ALERTS_SLOT_MS in playwright.config.ts).
 */
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { decisionEvent } from "./support/events";
import { failOnHydrationErrors } from "./support/hydration";
import { createKey, sendBatch } from "./support/server";

const run = Date.now().toString(36);
const TENANT = `e2e-alerts-${run}`;
const RULE = `Empty palettes of ${TENANT}`;

failOnHydrationErrors(test);

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let receiver: Server;
let hookUrl: string;
const received: Received[] = [];

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/routelens`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

function palettes(count: number, empty: boolean) {
  return Array.from({ length: count }, () =>
    decisionEvent({
      role: "support",
      warnings: empty ? [{ code: "empty_palette", stage: "role_palette" }] : [],
    }),
  );
}

function signatureOf(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

test("a rule shows its current value, then fires on injected data", async ({ page }, testInfo) => {
  const key = await createKey(TENANT);
  await sendBatch(key, palettes(10, false));

  await page.goto("/alerts");
  await expect(page.getByRole("link", { name: "Alerts", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await page.getByRole("link", { name: "New rule" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New alert rule" })).toBeVisible();

  await page.getByLabel("Name").fill(RULE);
  await page.getByLabel("Tenant").selectOption(TENANT);
  await page.getByLabel("Metric").selectOption({ label: "empty-palette rate" });
  await page.getByLabel(/^Window/).fill("5");
  await page.getByLabel("Fires when the value is").selectOption({ label: "above" });
  await page.getByLabel(/^Threshold/).fill("50");
  await page.getByLabel(/^Minimum sample/).fill("5");
  // The value over the window now, before anything is saved, and that it would not fire.
  const preview = page.getByTestId("rule-preview");
  await expect(preview).toContainText("now: 0.0 % over 10 decisions");
  await expect(preview).toContainText("would not fire");

  // A refusal names the field and its rule, under the field.
  await page.getByRole("button", { name: "Add webhook" }).click();
  await page.getByLabel("Webhook URL").fill(hookUrl);
  await page.getByRole("button", { name: "Add Slack" }).click();
  await page.getByLabel("Slack incoming-webhook URL").fill("http://hooks.slack.test/services/x");
  await page.getByRole("button", { name: "Create rule" }).click();
  await expect(page.locator('[id="channels.1.url-error"]')).toHaveText(
    "Slack webhook URL must start with https://",
  );
  await expect(page.getByLabel("Slack incoming-webhook URL")).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  await page.getByTestId("channel-row").nth(1).getByRole("button", { name: "Remove" }).click();
  await page.getByRole("button", { name: "Create rule" }).click();

  const secretBox = page.getByTestId("new-webhook-secret");
  await expect(secretBox).toContainText("shown this once");
  await expect(secretBox).toContainText("X-Routelens-Signature");
  await expect(secretBox.getByRole("button", { name: "Copy secret" })).toBeVisible();
  const secret = ((await page.getByTestId("webhook-secret-value").textContent()) ?? "").trim();
  expect(secret).toMatch(/^whsec_/);
  await page.screenshot({ path: testInfo.outputPath("alerts-created.png"), fullPage: true });

  await page.getByRole("link", { name: "Open the rule" }).click();
  await expect(page.getByRole("heading", { level: 1, name: RULE })).toBeVisible();

  // Send test: one attempt at once, its answer shown.
  await page.getByRole("button", { name: `Send a test to webhook ${hookUrl}` }).click();
  await expect(page.getByTestId("send-test-result")).toContainText(
    `Test sent. ${hookUrl}: delivered (204,`,
  );
  expect(received.some((request) => JSON.parse(request.body).state === "test")).toBe(true);

  // Injected data: 30 of 40 decisions now have an empty palette (75 %).
  await sendBatch(key, palettes(30, true));
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("rule-state").first()).toHaveAttribute("data-state", "firing");
  }).toPass({ timeout: 30_000, intervals: [1_000] });
  await expect(page.getByTestId("rule-last-value")).toContainText("75 % over 40 decisions");
  await expect(page.getByTestId("transitions-table")).toContainText("firing");

  // The firing delivery reached the receiver, signed with the secret shown once.
  await expect
    .poll(() => received.filter((r) => r.body.includes('"state":"firing"')).length, {
      timeout: 20_000,
    })
    .toBe(1);
  const firing = received.find((r) => r.body.includes('"state":"firing"')) as Received;
  const timestamp = String(firing.headers["x-routelens-timestamp"]);
  expect(firing.headers["x-routelens-signature"]).toBe(signatureOf(secret, timestamp, firing.body));
  expect(JSON.parse(firing.body)).toMatchObject({
    tenant: TENANT,
    metric: { id: "empty-palette-rate" },
  });
  await page.reload();
  await expect(page.getByTestId("deliveries-table")).toContainText("delivered");
  await page.screenshot({ path: testInfo.outputPath("alerts-rule-firing.png"), fullPage: true });

  // The overview lists it at the top and marks it on the charts.
  await page.goto(`/?tenant=${TENANT}&range=1h`);
  const firingPanel = page.getByTestId("firing-alerts");
  await expect(firingPanel.getByRole("link", { name: RULE })).toBeVisible();
  await expect(firingPanel.getByRole("link", { name: "Runs in the window" })).toHaveAttribute(
    "href",
    new RegExp(`tenant=${TENANT}.*warnings=1`),
  );
  const markers = page.getByTestId("alert-markers");
  await expect(markers.getByRole("listitem").filter({ hasText: RULE }).first()).toHaveAttribute(
    "data-kind",
    "firing",
  );
  await expect(page.locator(".alert-marker").first()).toBeAttached();
  await page.screenshot({ path: testInfo.outputPath("alerts-overview.png"), fullPage: true });

  // Edit: the tenant stays, the webhook is kept with its secret (no new one is shown).
  await page.goto("/alerts");
  await page.getByRole("link", { name: RULE }).click();
  await page.getByTestId("edit-rule").locator("summary").click();
  await expect(page.getByTestId("rule-tenant")).toHaveText(TENANT);
  await page.getByLabel(/^Threshold/).fill("60");
  await page.getByRole("button", { name: "Save rule" }).click();
  await expect(page.getByTestId("rule-saved")).toHaveText(`Rule “${RULE}” saved.`);
  await expect(page.getByTestId("new-webhook-secret")).toHaveCount(0);
  await page.reload();
  await expect(page.getByText("empty-palette rate above 60 % over 5 min")).toBeVisible();

  // Mute for an hour, then delete after confirming.
  await page.getByRole("button", { name: "Mute 1 hour" }).click();
  await expect(page.getByTestId("rule-muted").first()).toContainText("muted until");
  await page.getByRole("button", { name: "Delete rule…" }).click();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page).toHaveURL(/\/alerts$/);
  await expect(page.getByRole("link", { name: RULE })).toHaveCount(0);
});
