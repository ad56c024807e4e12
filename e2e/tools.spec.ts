/**
 * The tools page: per-tool counts from the rollups, sorting in the URL, the CSV download, and
 * the link from a tool to the decisions that dropped it harmfully.
 */
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { decisionEvent, outcomeEvent } from "./support/events";
import { createKey, sendBatch } from "./support/server";

const TENANT = `roll-tools-${randomUUID().slice(0, 8)}`;
const OFFERED = ["search_docs", "hydrate_context", "refund_order", "escalate_to_human"];

test.beforeAll(async () => {
  const key = await createKey(TENANT);
  const now = Date.now();
  const events = Array.from({ length: 12 }, (_, i) => {
    const runId = `${TENANT}-run-${Math.floor(i / 3)}`;
    const timestamp = new Date(now - 30 * 60_000 + i * 1_000).toISOString();
    return [
      decisionEvent({
        run_id: runId,
        iteration: i % 3,
        timestamp,
        mode: "observe",
        offered: OFFERED,
        selected: ["search_docs", "hydrate_context"],
        dropped_tokens: 90,
      }),
      outcomeEvent({
        run_id: runId,
        iteration: i % 3,
        timestamp,
        called: i < 5 ? ["refund_order"] : ["search_docs"],
      }),
    ];
  }).flat();
  await sendBatch(key, events);
});

test("lists per-tool counts, sorts, downloads and links to harmful drops", async ({
  page,
  request,
}, testInfo) => {
  await page.goto(`/tools?tenant=${TENANT}`);
  const table = page.getByTestId("tools-table");
  const row = (tool: string) => table.locator("tbody tr", { hasText: tool });
  await expect(table.locator("tbody tr")).toHaveCount(4);
  // Default order: most harmful drops first.
  await expect(table.locator("tbody tr").first()).toContainText("refund_order");
  await expect(row("refund_order").locator('[data-column="offered"]')).toHaveText("12");
  await expect(row("refund_order").locator('[data-column="selected"]')).toHaveText("0");
  await expect(row("refund_order").locator('[data-column="dropped"]')).toHaveText("12");
  await expect(row("refund_order").locator('[data-column="called"]')).toHaveText("5");
  await expect(row("refund_order").locator('[data-column="harmfulDrops"]')).toHaveText("5");
  // 90 tokens per decision shared by 2 dropped tools, 12 decisions.
  await expect(row("refund_order").locator('[data-column="droppedTokens"]')).toHaveText("540");
  await expect(row("search_docs").locator('[data-column="called"]')).toHaveText("7");

  await table.getByRole("link", { name: /^Tool/ }).click();
  await expect(page).toHaveURL(/sort=tool/);
  await expect(table.locator("tbody tr").first()).toContainText("escalate_to_human");

  const csvHref = await page.getByRole("link", { name: "Download CSV" }).getAttribute("href");
  expect(csvHref).toMatch(/^\/api\/export\/tools\?/);
  const csv = await request.get(csvHref ?? "");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines[0]).toBe(
    "tool,offered,selected,dropped,called,harmful_drops,estimated_tokens_saved",
  );
  expect(lines[1]).toBe("escalate_to_human,12,0,12,0,0,540");
  expect(lines).toContain("refund_order,12,0,12,5,5,540");

  await row("refund_order").getByRole("link", { name: "refund_order" }).click();
  await expect(page).toHaveURL(/tool=refund_order/);
  const examples = page.getByTestId("harmful-examples");
  await expect(examples.locator("li")).toHaveCount(5);
  await page.screenshot({ path: testInfo.outputPath("tools.png"), fullPage: true });
  await testInfo.attach("tools", {
    path: testInfo.outputPath("tools.png"),
    contentType: "image/png",
  });
  await examples.getByRole("link").first().click();
  await expect(page).toHaveURL(
    new RegExp(`/runs/${TENANT}-run-\\d\\?tenant=${TENANT}&issues=1#iteration-\\d`),
  );
});

test("does not prefetch the page behind every row's link", async ({ page }) => {
  // A table's links are many; each prefetch is a request the server renders. Only the
  // navigation's links are prefetched.
  const prefetched: string[] = [];
  page.on("request", (request) => {
    if (request.headers()["next-router-prefetch"]) prefetched.push(request.url());
  });
  await page.goto(`/tools?tenant=${TENANT}`);
  await expect(page.getByTestId("tools-table").locator("tbody tr")).toHaveCount(4);
  await expect(page.getByTestId("context-tax-table").locator("tbody tr")).toHaveCount(4);
  // Prefetches start when links come into view; give them time to be sent.
  await page.waitForLoadState("networkidle");
  expect(prefetched.filter((url) => url.includes("tool="))).toEqual([]);
  // The navigation's links are: prefetching itself works here.
  expect(prefetched.some((url) => new URL(url).pathname === "/runs")).toBe(true);
});
