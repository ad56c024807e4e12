/**
 * An agent that routes nothing, seen through its OpenTelemetry spans: the tools page leads with
 * the context tax (headline, never-called tools first, the hint that some calls carried no tool
 * list, the CSV), and the run trace shows each call as "Offered N tools, called …" with its
 * tool runs.
 */
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { insertUnroutedRun } from "../tests/support/otel-rows";
import { e2eDatabaseUrl } from "./support/server";

const TENANT = `otel-tax-${randomUUID().slice(0, 8)}`;
const RUN_ID = `${TENANT}-conversation`;
const OFFERED = ["search_docs", "create_ticket", "escalate", "delete_account"];

test.beforeAll(async () => {
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  try {
    await insertUnroutedRun(db, {
      tenant: TENANT,
      runId: RUN_ID,
      role: "support-bot",
      start: new Date(Date.now() - 30 * 60_000),
      calls: [
        {
          offered: OFFERED,
          called: ["search_docs"],
          toolRuns: [{ tool: "search_docs", afterMs: 420, durationMs: 18.5 }],
        },
        {
          offered: OFFERED,
          called: ["create_ticket"],
          toolRuns: [
            { tool: "create_ticket", afterMs: 450, durationMs: 40, error: "quota exceeded" },
          ],
        },
        { offered: OFFERED, called: [] },
        { offered: OFFERED, called: null },
      ],
      sizes: { search_docs: 100, create_ticket: 200, escalate: 300, delete_account: 1_000 },
      callsWithoutTools: 3,
    });
  } finally {
    await db.end();
  }
});

test("the tools page shows what the never-called tools cost, and why some calls are missing", async ({
  page,
  request,
}, testInfo) => {
  await page.goto(`/tools?tenant=${TENANT}`);
  // Unused offers: search_docs 2 × 100, create_ticket 2 × 200, escalate 3 × 300,
  // delete_account 3 × 1,000 = 4,500 of 4 × 1,600 = 6,400 tokens offered.
  await expect(page.getByTestId("context-tax-headline")).toHaveText(
    "Offering tools the model did not call cost an estimated 4,500 tokens over the last 24 hours, 70% of the 6,400 tokens spent offering tools.",
  );
  await expect(page.getByText("2 of 4 offered tools were never called.")).toBeVisible();
  const hint = page.getByTestId("tool-recording-hint");
  await expect(hint).toContainText(
    "3 LLM calls carried no tool list — tool recording is off (Vercel AI SDK: recordInputs: false).",
  );
  await expect(hint).toContainText("remove recordInputs: false");

  const table = page.getByTestId("context-tax-table");
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText("delete_account");
  await expect(rows.nth(0)).toContainText("never called");
  await expect(rows.nth(1)).toContainText("escalate");
  await expect(rows.nth(2)).toContainText("create_ticket");
  const first = rows.nth(0);
  await expect(first.locator('[data-column="offers"]')).toHaveText("4");
  await expect(first.locator('[data-column="calls"]')).toHaveText("0");
  await expect(first.locator('[data-column="tokensPerOffer"]')).toHaveText("1,000");
  await expect(first.locator('[data-column="unusedTokens"]')).toHaveText("3,000");
  await expect(rows.nth(2).locator('[data-column="callRate"]')).toHaveText("25.00%");

  const days = page.getByTestId("context-tax-days");
  await expect(days.locator("tbody tr")).toHaveCount(1);
  await expect(days.locator("tbody tr").first()).toContainText("support-bot");
  await expect(days.locator('tbody [data-column="unusedTokens"]')).toHaveText("4,500");

  const csvHref = await page
    .getByRole("link", { name: "Download context tax CSV" })
    .getAttribute("href");
  expect(csvHref).toMatch(/^\/api\/export\/context-tax\?/);
  const csv = await request.get(csvHref ?? "");
  expect(csv.status()).toBe(200);
  expect(csv.headers()["x-routelens-row-count"]).toBe("4");
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines[0]).toBe(
    "tool,offers,calls,call_rate,unused_offers,estimated_tokens_per_offer,estimate_source,estimated_tokens_unused_offers",
  );
  expect(lines[1]).toBe("delete_account,4,0,0,3,1000,definition size,3000");

  await page.screenshot({ path: testInfo.outputPath("context-tax.png"), fullPage: true });
  await testInfo.attach("context tax", {
    path: testInfo.outputPath("context-tax.png"),
    contentType: "image/png",
  });
});

test("the run trace shows an unrouted call as offered and called, with its tool runs", async ({
  page,
}, testInfo) => {
  await page.goto(`/runs?tenant=${TENANT}&mode=off`);
  await page.getByRole("link", { name: RUN_ID }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${RUN_ID}\\?tenant=${TENANT}`));

  const calls = page.getByTestId("unrouted-call");
  await expect(calls).toHaveText([
    "Offered 4 tools, called search_docs",
    "Offered 4 tools, called create_ticket",
    "Offered 4 tools, called no tool",
    "Offered 4 tools; calls not recorded",
  ]);
  const iterations = page.getByTestId("iterations").locator("li.iteration");
  await expect(iterations.first()).toContainText("4 tools offered");
  await expect(page.getByRole("heading", { name: "Stages" })).toHaveCount(0);

  const runs = page.getByTestId("tool-runs");
  await expect(runs).toHaveCount(2);
  await expect(runs.nth(0)).toContainText("search_docs");
  await expect(runs.nth(0)).toContainText("18.5 ms");
  await expect(runs.nth(1)).toContainText("create_ticket");
  await expect(runs.nth(1)).toContainText("quota exceeded");

  await page.screenshot({ path: testInfo.outputPath("run-trace-off.png"), fullPage: true });
  await testInfo.attach("run trace, mode off", {
    path: testInfo.outputPath("run-trace-off.png"),
    contentType: "image/png",
  });
});

test("rollouts say a tenant with only mode off traffic has nothing to compare, and where to go", async ({
  page,
}) => {
  await page.goto(`/rollouts?tenant=${TENANT}&range=24h`);
  const note = page.getByTestId("unrouted-note");
  await expect(note).toContainText("This window has only mode off traffic (4 decisions");
  await note.getByRole("link", { name: "the Tools view" }).click();
  await expect(page).toHaveURL(new RegExp(`/tools\\?.*tenant=${TENANT}`));
  await expect(page.getByTestId("context-tax-headline")).toContainText("4,500 tokens");
});
