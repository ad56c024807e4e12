/**
 * The dashboard end to end: a known set of events goes in through the ingest API, and the
 * overview, the runs browser and a run trace must show exactly what was sent.
 *
 * Tenants are prefixed "dash-" so other specs sharing the database do not disturb the sums;
 * the all-tenant figures are compared with what the overview showed before this spec sent
 * anything.
 */
import { expect, type Page, type TestInfo, test } from "@playwright/test";
import { decisionEvent, outcomeEvent, stageRecord } from "./support/events";
import { failOnHydrationErrors } from "./support/hydration";
import { countStoredDecisions, createKey, sendBatch } from "./support/server";

const ALPHA = "dash-alpha";
const BETA = "dash-beta";
const TRACE_RUN = "dash-run-trace";
const HOSTILE_TOOL = '<b id="injected">bold</b>';
const PAGED_RUNS = 30;

test.describe.configure({ mode: "serial" });

failOnHydrationErrors(test);
test.use({ timezoneId: "Asia/Kolkata", locale: "en-GB" });

/** A few minutes ago, so every event lands in the last hour and the last 24 hours. */
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function alphaEvents() {
  const offered = ["search_docs", "hydrate_context", "create_ticket", "send_email", HOSTILE_TOOL];
  const harmful = decisionEvent({
    run_id: TRACE_RUN,
    iteration: 0,
    timestamp: minutesAgo(12),
    role: "action",
    mode: "observe",
    offered,
    selected: ["search_docs", "hydrate_context"],
    dropped_tokens: 101,
    trace: [
      stageRecord({
        stage: "intent",
        action: "select",
        kept: ["search_docs", "hydrate_context"],
        dropped: ["create_ticket", "send_email", HOSTILE_TOOL],
        detail: "knowledge verdict",
      }),
    ],
  });
  const reinstated = decisionEvent({
    run_id: TRACE_RUN,
    iteration: 1,
    turn_hop_index: 1,
    timestamp: minutesAgo(11),
    role: "action",
    mode: "observe",
    offered,
    selected: ["search_docs", "create_ticket"],
    forced_choice: "create_ticket",
    dropped_tokens: 50,
    trace: [
      stageRecord({
        stage: "role_palette",
        action: "select",
        kept: ["search_docs"],
        dropped: ["hydrate_context", "create_ticket", "send_email", HOSTILE_TOOL],
        reinstated: ["create_ticket"],
        forced_choice: "create_ticket",
        detail: "action palette",
      }),
    ],
    warnings: [
      {
        code: "forced_reinstated",
        stage: "role_palette",
        detail: "forced tool create_ticket was not offered after role_palette; put back",
      },
    ],
  });
  const emptyPalette = decisionEvent({
    run_id: TRACE_RUN,
    iteration: 2,
    turn_hop_index: 2,
    timestamp: minutesAgo(10),
    role: "action",
    mode: "observe",
    offered,
    selected: offered,
    dropped_tokens: 0,
    trace: [
      stageRecord({
        stage: "role_palette",
        action: "abstain",
        kept: offered,
        detail: "resolver returned an empty palette",
      }),
    ],
    warnings: [{ code: "empty_palette", stage: "role_palette" }],
  });
  const calledDropped = outcomeEvent({
    run_id: TRACE_RUN,
    iteration: 0,
    role: "action",
    timestamp: minutesAgo(12),
    called: ["send_email"],
  });
  const paged = Array.from({ length: PAGED_RUNS }, (_, i) =>
    decisionEvent({
      run_id: `dash-page-${String(i).padStart(2, "0")}`,
      timestamp: minutesAgo(15 + i),
      role: "reasoning",
      mode: "enforce",
      offered: ["search_docs", "create_ticket"],
      selected: ["search_docs"],
      dropped_tokens: i * 10,
    }),
  );
  return [harmful, reinstated, emptyPalette, calledDropped, ...paged];
}

function betaEvents() {
  const base = {
    run_id: "dash-beta-run",
    role: "action",
    mode: "observe" as const,
    offered: ["lookup", "refund"],
    selected: ["lookup"],
    dropped_tokens: 7,
  };
  const withError = decisionEvent({
    ...base,
    iteration: 0,
    timestamp: minutesAgo(20),
    trace: [
      stageRecord({
        stage: "policy",
        action: "error",
        kept: ["lookup", "refund"],
        detail: "catalogue lookup timed out",
        degraded: true,
      }),
      stageRecord({ stage: "intent", action: "select", kept: ["lookup"], dropped: ["refund"] }),
    ],
    warnings: [{ code: "stage_error", stage: "policy", detail: "catalogue lookup timed out" }],
  });
  const plain = [1, 2, 3, 4].map((i) =>
    decisionEvent({ ...base, iteration: i, timestamp: minutesAgo(20 - i) }),
  );
  return [withError, ...plain];
}

/** Sums of what this spec sends, per tenant (as the KPI tiles must show them). */
const SENT = {
  [ALPHA]: {
    decisions: 3 + PAGED_RUNS,
    droppedTokens: 151 + (10 * PAGED_RUNS * (PAGED_RUNS - 1)) / 2,
    reinstatements: 1,
    emptyPalette: 1,
    stageErrors: 0,
    harmfulDrops: 1,
  },
  [BETA]: {
    decisions: 5,
    droppedTokens: 35,
    reinstatements: 0,
    emptyPalette: 0,
    stageErrors: 1,
    harmfulDrops: 0,
  },
};
type Totals = (typeof SENT)[typeof ALPHA];

const TILES: Record<keyof Totals, string> = {
  decisions: "kpi-decisions-value",
  droppedTokens: "kpi-dropped-tokens-value",
  reinstatements: "kpi-reinstatements-value",
  emptyPalette: "kpi-empty-palette-value",
  stageErrors: "kpi-stage-errors-value",
  harmfulDrops: "kpi-harmful-drops-value",
};

const formatCount = (value: number) => new Intl.NumberFormat("en-US").format(value);
const parseCount = (text: string) => Number(text.replaceAll(",", ""));

async function readTiles(page: Page): Promise<Totals> {
  const totals = {} as Totals;
  for (const [key, testId] of Object.entries(TILES) as [keyof Totals, string][]) {
    // The exact value is in the title; large counts are shown compactly (70.3M).
    totals[key] = parseCount((await page.getByTestId(testId).getAttribute("title")) ?? "0");
  }
  return totals;
}

async function expectTiles(page: Page, expected: Totals) {
  for (const [key, testId] of Object.entries(TILES) as [keyof Totals, string][]) {
    await expect(page.getByTestId(testId), key).toHaveText(formatCount(expected[key]));
  }
}

/** Waits until the browser has taken over: local times replace the server's UTC text. */
async function waitForHydration(page: Page) {
  await expect(page.locator("main time").first()).not.toHaveText(/UTC$/);
}

async function saveScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

let before: Totals = {
  decisions: 0,
  droppedTokens: 0,
  reinstatements: 0,
  emptyPalette: 0,
  stageErrors: 0,
  harmfulDrops: 0,
};

test("the overview before any of this spec's events: empty state or current totals", async ({
  page,
}, testInfo) => {
  // Which state the page must show is decided by the database, not by the page itself.
  const stored = await countStoredDecisions();
  await page.goto("/");
  const empty = page.getByRole("heading", { name: "No decisions yet" });
  if (stored === 0) {
    await expect(empty).toBeVisible();
    await expect(page.getByTestId(TILES.decisions)).toHaveCount(0);
    await expect(page.getByText("npm run keys -- create my-tenant")).toBeVisible();
    await expect(page.getByText(/curl -X POST http:\/\/.*\/api\/ingest/)).toBeVisible();
    await saveScreenshot(page, testInfo, "overview-empty");
  } else {
    await expect(empty).toHaveCount(0);
    await expect(page.getByTestId(TILES.decisions)).toBeVisible();
    before = await readTiles(page);
  }
});

test("ingest the spec's events through the API", async () => {
  await sendBatch(await createKey(ALPHA), alphaEvents());
  await sendBatch(await createKey(BETA), betaEvents());
});

test("overview KPI tiles show exactly the sums sent, and a tenant filter narrows them", async ({
  page,
}, testInfo) => {
  await page.goto("/");
  const expected = Object.fromEntries(
    Object.entries(before).map(([key, value]) => [
      key,
      value + SENT[ALPHA][key as keyof Totals] + SENT[BETA][key as keyof Totals],
    ]),
  ) as Totals;
  await expectTiles(page, expected);

  // Three charts, drawn in the browser.
  await expect(page.locator("svg.recharts-surface")).toHaveCount(3);
  await saveScreenshot(page, testInfo, "overview");

  // Choosing a tenant applies at once and is kept in the URL.
  await page.getByRole("combobox", { name: "Tenant" }).selectOption(BETA);
  await expect(page).toHaveURL(/[?&]tenant=dash-beta/);
  await expectTiles(page, SENT[BETA]);
  await page.goto(`/?tenant=${ALPHA}`);
  await expectTiles(page, SENT[ALPHA]);
  await expect(page.getByTestId("kpi-tools-value")).toHaveText("2.3 → 1.2");

  // The legend toggles a series on and off.
  await expect(page.locator("svg.recharts-surface")).toHaveCount(3);
  const alphaLegend = page.getByRole("button", { name: ALPHA, exact: true });
  await expect(alphaLegend).toHaveAttribute("aria-pressed", "true");
  await expect(page.locator(".recharts-line")).toHaveCount(3);
  await alphaLegend.click();
  await expect(alphaLegend).toHaveAttribute("aria-pressed", "false");
  await expect(page.locator(".recharts-line")).toHaveCount(0);
  await alphaLegend.click();
  await expect(page.locator(".recharts-line")).toHaveCount(3);

  // The breakdown lists the tenant's roles and links each to its runs.
  const breakdown = page.getByTestId("breakdown-table");
  await expect(breakdown.locator("tbody tr")).toHaveCount(2);
  await breakdown.getByRole("link", { name: "reasoning" }).click();
  await expect(page).toHaveURL(/\/runs\?.*tenant=dash-alpha.*role=reasoning/);
  await expect(page.getByTestId("pager-summary").first()).toHaveText(
    `1–${PAGED_RUNS} of ${PAGED_RUNS} runs`,
  );
});

test("the overview stays readable in a narrow window", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/?tenant=${ALPHA}&range=1h`);
  await expect(page.locator("svg.recharts-surface")).toHaveCount(3);
  await expectTiles(page, SENT[ALPHA]);
  await saveScreenshot(page, testInfo, "overview-narrow");
});

test("the runs table sorts and pages through the URL", async ({ page }, testInfo) => {
  await page.goto(`/runs?tenant=${ALPHA}&size=25`);
  await waitForHydration(page);
  const summary = page.getByTestId("pager-summary").first();
  await expect(summary).toHaveText(`1–25 of ${PAGED_RUNS + 1} runs`);

  const table = page.getByTestId("runs-table");
  const firstRunId = () => table.locator('tbody tr td[data-column="runId"]').first();
  await table.getByRole("link", { name: /Dropped tokens/ }).click();
  await expect(page).toHaveURL(/sort=droppedTokens/);
  await expect(table.locator('th[data-column="droppedTokens"]')).toHaveAttribute(
    "aria-sort",
    "descending",
  );
  await expect(firstRunId()).toHaveText("dash-page-29");

  await table.getByRole("link", { name: /Dropped tokens/ }).click();
  await expect(page).toHaveURL(/sort=droppedTokens&dir=asc/);
  await expect(firstRunId()).toHaveText("dash-page-00");

  await page
    .getByRole("navigation", { name: "Runs pages", exact: true })
    .getByRole("link", { name: "Next →" })
    .click();
  await expect(page).toHaveURL(/after=/);
  await expect(summary).toHaveText(`26–${PAGED_RUNS + 1} of ${PAGED_RUNS + 1} runs`);
  await expect(firstRunId()).toHaveText("dash-page-24");
  // The URL alone reproduces the view.
  await page.reload();
  await expect(firstRunId()).toHaveText("dash-page-24");
  // Previous goes back to the first page, full.
  await page
    .getByRole("navigation", { name: "Runs pages", exact: true })
    .getByRole("link", { name: "← Previous" })
    .click();
  await expect(summary).toHaveText(`1–25 of ${PAGED_RUNS + 1} runs`);
  await expect(firstRunId()).toHaveText("dash-page-00");
  await page
    .getByRole("navigation", { name: "Runs pages", exact: true })
    .getByRole("link", { name: "Last »" })
    .click();
  await expect(page).toHaveURL(/last=1/);
  // The last page is a full page too: the last 25 runs.
  await expect(summary).toHaveText(
    `${PAGED_RUNS + 1 - 24}–${PAGED_RUNS + 1} of ${PAGED_RUNS + 1} runs`,
  );

  // Dates show in the viewer's time zone, with the exact UTC time on hover.
  await expect(table.locator("time").first()).toHaveAttribute("title", /UTC$/);
  await saveScreenshot(page, testInfo, "runs");

  // Live mode is a URL setting and keeps the filters.
  await page.getByRole("combobox", { name: "Auto-refresh" }).selectOption("15");
  await expect(page).toHaveURL(/live=15/);
  await expect(page).toHaveURL(/sort=droppedTokens/);

  // The CSV download carries the same filters.
  const csv = await page.request.get(`/api/export/runs?tenant=${ALPHA}&sort=droppedTokens`);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines).toHaveLength(PAGED_RUNS + 2);
  expect(lines[1]).toContain("dash-page-29");
});

test("a seeded run's trace shows its reinstatement, empty palette and harmful drop", async ({
  page,
}, testInfo) => {
  await page.goto(`/runs?tenant=${ALPHA}&q=dash-run`);
  await page.getByRole("link", { name: TRACE_RUN }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${TRACE_RUN}\\?tenant=${ALPHA}`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(TRACE_RUN);

  const iterations = page.getByTestId("iterations").locator(":scope > li");
  await expect(iterations).toHaveCount(3);

  const first = page.locator("#iteration-0");
  await expect(first.getByText("harmful drop: send_email")).toBeVisible();
  await expect(first.locator(".tool-harmful", { hasText: "send_email" })).toBeVisible();

  const second = page.locator("#iteration-1");
  await expect(second.locator("summary").getByText("reinstatement")).toBeVisible();
  await expect(second.getByText("reinstated: create_ticket")).toBeVisible();
  await expect(second.getByText("Forced tool reinstated")).toBeVisible();

  const third = page.locator("#iteration-2");
  await expect(third.locator("summary").getByText("empty palette")).toBeVisible();
  await expect(third.getByText("Empty palette", { exact: true })).toBeVisible();

  // The stage waterfall: offered 5 → after the stage 2 → selected 2.
  await expect(first.locator(".waterfall-step .waterfall-size")).toHaveText(["5", "2 (−3)", "2"]);

  // Untrusted tool names are text, never markup.
  await expect(first.getByText(HOSTILE_TOOL).first()).toBeVisible();
  await expect(page.locator("#injected")).toHaveCount(0);

  const summary = page.getByTestId("run-summary");
  await expect(summary).toContainText("Harmful drops1");
  await saveScreenshot(page, testInfo, "run-trace");

  const csv = await page.request.get(`/api/export/run?tenant=${ALPHA}&runId=${TRACE_RUN}`);
  expect((await csv.text()).trim().split("\r\n")).toHaveLength(4);
});
