/**
 * The rollouts page on a designed data set (the same shape as lib/rollouts/test-fixtures.ts):
 *   observe, config cfg-a  40 decisions, all with outcomes; 4 harmful drops
 *                          (refund_order ×3, escalate_to_human ×1)
 *   observe, config cfg-b  20 decisions, all with outcomes, none harmful
 *   enforce, config cfg-b  30 decisions, all with outcomes; 6 called no tool;
 *                          3 reinstatements, 1 empty palette
 * A second tenant has 400 clean observe outcomes: safe at 1%, too few for 0.5%.
 */
import { randomUUID } from "node:crypto";
import { expect, type Page, type TestInfo, test } from "@playwright/test";
import type { ToolCallOutcome, ToolRoutingDecision } from "@/lib/schemas/events";
import { decisionEvent, outcomeEvent } from "./support/events";
import { createKey, sendBatch } from "./support/server";

const suffix = randomUUID().slice(0, 8);
const TENANT = `roll-${suffix}`;
const SAFE_TENANT = `roll-safe-${suffix}`;
const ROLE = "action";
const OFFERED = [
  "search_docs",
  "hydrate_context",
  "create_ticket",
  "refund_order",
  "escalate_to_human",
];
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A whole minute `hoursAgo` before now, plus a few seconds, so first-seen minutes are known. */
function minuteBefore(hoursAgo: number): number {
  return Math.floor((Date.now() - hoursAgo * HOUR) / MINUTE) * MINUTE + 5_000;
}

const T0 = minuteBefore(5); // observe, cfg-a
const T1 = minuteBefore(4); // observe, cfg-b
const T2 = minuteBefore(2); // enforce, cfg-b

interface Step {
  mode: "observe" | "enforce";
  config: string;
  selected: string[];
  droppedTokens: number;
  called: string[];
  warnings?: ToolRoutingDecision["warnings"];
}

function cohortEvents(
  tenant: string,
  name: string,
  start: number,
  steps: Step[],
): (ToolRoutingDecision | ToolCallOutcome)[] {
  const events: (ToolRoutingDecision | ToolCallOutcome)[] = [];
  steps.forEach((step, i) => {
    const runId = `${tenant}-${name}-${Math.floor(i / 4)}`;
    const iteration = i % 4;
    const timestamp = new Date(start + i * 2_000).toISOString();
    events.push(
      decisionEvent({
        run_id: runId,
        iteration,
        timestamp,
        role: ROLE,
        mode: step.mode,
        config_version: step.config,
        offered: OFFERED,
        selected: step.selected,
        dropped_tokens: step.droppedTokens,
        warnings: step.warnings ?? [],
      }),
      outcomeEvent({ run_id: runId, iteration, timestamp, role: ROLE, called: step.called }),
    );
  });
  return events;
}

const OBSERVE_SELECTED = ["search_docs", "hydrate_context", "create_ticket"];

function designedEvents() {
  const observeA = Array.from(
    { length: 40 },
    (_, i): Step => ({
      mode: "observe",
      config: "cfg-a",
      selected: OBSERVE_SELECTED,
      droppedTokens: 100 + (i % 5) * 10,
      called: i < 3 ? ["refund_order"] : i === 3 ? ["escalate_to_human"] : ["search_docs"],
    }),
  );
  const observeB = Array.from(
    { length: 20 },
    (_, i): Step => ({
      mode: "observe",
      config: "cfg-b",
      selected: OBSERVE_SELECTED,
      droppedTokens: 110 + (i % 3) * 5,
      called: ["create_ticket"],
    }),
  );
  const enforce = Array.from(
    { length: 30 },
    (_, i): Step => ({
      mode: "enforce",
      config: "cfg-b",
      selected: ["search_docs", "hydrate_context"],
      droppedTokens: 130 + (i % 4) * 10,
      called: i < 6 ? [] : ["search_docs"],
      warnings:
        i < 3
          ? [{ code: "forced_reinstated", stage: "role_palette" }]
          : i === 3
            ? [{ code: "empty_palette", stage: "role_palette" }]
            : [],
    }),
  );
  return [
    ...cohortEvents(TENANT, "obs-a", T0, observeA),
    ...cohortEvents(TENANT, "obs-b", T1, observeB),
    ...cohortEvents(TENANT, "enf-b", T2, enforce),
  ];
}

function safeEvents() {
  const clean = Array.from(
    { length: 400 },
    (): Step => ({
      mode: "observe",
      config: "cfg-a",
      selected: OBSERVE_SELECTED,
      droppedTokens: 120,
      called: ["search_docs"],
    }),
  );
  return cohortEvents(SAFE_TENANT, "obs", minuteBefore(3), clean);
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

/** The row of a comparison table for one metric. */
function metricRow(page: Page, table: string, metric: string) {
  return page.getByTestId(table).locator("tbody tr", { hasText: metric });
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  const [key, safeKey] = await Promise.all([createKey(TENANT), createKey(SAFE_TENANT)]);
  await sendBatch(key, designedEvents());
  await sendBatch(safeKey, safeEvents());
});

test("observe vs enforce shows the exact rates, the verdict and the change markers", async ({
  page,
}, testInfo) => {
  await page.goto(`/rollouts?range=24h&tenant=${TENANT}`);
  await expect(page.getByRole("heading", { level: 1, name: "Rollouts" })).toBeVisible();
  await expect(page.getByTestId("observational-note")).toContainText("not randomised");

  // Verdict on observe traffic: 4 harmful of 60 outcomes, not safe.
  const verdict = page.getByTestId("verdict");
  await expect(verdict).toHaveAttribute("data-status", "harmful");
  await expect(verdict.getByRole("heading", { level: 2 })).toHaveText(
    "Not safe to enforce: enforce would have broken calls",
  );
  await expect(page.getByTestId("verdict-rate")).toHaveText("6.67%");
  await expect(page.getByTestId("verdict-interval")).toHaveText("[2.62%, 15.93%]");
  await expect(page.getByTestId("verdict-threshold")).toHaveText("1.00%");
  await expect(page.getByTestId("verdict-minimum")).toHaveText("381 outcomes");
  await expect(page.getByTestId("verdict-check-sample")).toContainText("381 are needed");
  const tools = page.getByTestId("harmful-tools");
  await expect(tools.locator("li")).toHaveCount(2);
  await expect(tools.locator("li").nth(0)).toContainText("refund_order: 3 harmful drops");
  await expect(tools.locator("li").nth(1)).toContainText("escalate_to_human: 1 harmful drop");
  // Three example decisions for refund_order, each a link into its run trace.
  const refundExamples = tools.locator('li[data-tool="refund_order"] a[href^="/runs/"]');
  await expect(refundExamples).toHaveCount(3);

  // Observe (A) vs enforce (B).
  const harmful = metricRow(page, "mode-comparison", "Harmful-drop rate");
  await expect(harmful.locator('[data-column="aValue"]')).toHaveText(/6\.67%\s*4 \/ 60/);
  await expect(harmful.locator('[data-column="bValue"]')).toHaveText(/0\.00%\s*0 \/ 30/);
  await expect(harmful.locator('[data-column="aN"]')).toHaveText("60");
  await expect(harmful.locator('[data-column="difference"]')).toHaveText("−6.67 pp");
  await expect(harmful.locator('[data-column="differenceInterval"]')).toHaveText(
    "[−15.93 pp, +5.38 pp]",
  );
  const zeroCall = metricRow(page, "mode-comparison", "Zero-tool-call rate");
  await expect(zeroCall.locator('[data-column="aValue"]')).toHaveText(/0\.00%\s*0 \/ 60/);
  await expect(zeroCall.locator('[data-column="bValue"]')).toHaveText(/20\.00%\s*6 \/ 30/);
  await expect(zeroCall.locator('[data-column="difference"]')).toHaveText("+20.00 pp");
  await expect(zeroCall.locator('[data-column="relative"]')).toHaveText("—");
  // Only differences whose interval excludes zero are coloured.
  await expect(zeroCall.locator('[data-column="difference"] span')).toHaveClass(/worse/);
  await expect(harmful.locator('[data-column="difference"] span')).not.toHaveClass(/worse|better/);
  const tokens = metricRow(page, "mode-comparison", "Dropped tokens per decision");
  await expect(tokens.locator('[data-column="aValue"]')).toContainText("118.3");
  await expect(tokens.locator('[data-column="bValue"]')).toContainText("144.3");
  await expect(tokens.locator('[data-column="difference"]')).toHaveText("+26.1");
  await expect(tokens.locator('[data-column="differenceInterval"]')).toHaveText("[+20.9, +31.3]");
  const reinstatements = metricRow(page, "mode-comparison", "Reinstatement rate");
  await expect(reinstatements.locator('[data-column="bValue"]')).toHaveText(/10\.00%\s*3 \/ 30/);

  // Markers where enforce and cfg-b first appeared, in the chart and as text.
  const modeSection = page.getByRole("region", { name: "Observe vs enforce" });
  const markers = modeSection.getByTestId("change-markers");
  await expect(markers.locator("li")).toHaveCount(2);
  await expect(markers.locator('li[data-kind="config"]')).toContainText("config cfg-b first seen");
  await expect(markers.locator('li[data-kind="mode"]')).toContainText("mode enforce first seen");
  await expect(markers.locator('li[data-kind="config"] time')).toHaveAttribute(
    "datetime",
    new Date(T1 - 5_000).toISOString(),
  );
  await expect(markers.locator('li[data-kind="mode"] time')).toHaveAttribute(
    "datetime",
    new Date(T2 - 5_000).toISOString(),
  );
  const chart = modeSection.getByTestId("chart-harmfulDropRate");
  await expect(chart.locator("svg.recharts-surface")).toBeVisible();
  await expect(chart.locator(".recharts-reference-line")).toHaveCount(2);
  // Marker labels are drawn in the chart's label layer.
  await expect(chart.locator("svg.recharts-surface")).toContainText("cfg-b");
  await expect(chart.locator("svg.recharts-surface")).toContainText("enforce");
  await expect(chart.locator(".recharts-line")).toHaveCount(2);

  await screenshot(page, testInfo, "rollouts-observe-vs-enforce");

  // An example link opens the decision in its run trace.
  const href = await refundExamples.first().getAttribute("href");
  expect(href).toMatch(
    new RegExp(`^/runs/${TENANT}-obs-a-0\\?tenant=${TENANT}&issues=1#iteration-\\d$`),
  );
  await refundExamples.first().click();
  await expect(page).toHaveURL(/\/runs\/roll-/);
  await expect(page.getByTestId("run-summary")).toBeVisible();
});

test("before vs after lists the config versions and compares the chosen pair", async ({
  page,
}, testInfo) => {
  await page.goto(`/rollouts?range=24h&tenant=${TENANT}`);
  const versions = page.getByTestId("config-versions");
  await expect(versions.locator("tbody tr")).toHaveCount(2);
  await expect(versions.locator("tbody tr").nth(0)).toContainText("cfg-a");
  await expect(versions.locator("tbody tr").nth(0)).toContainText("before");
  await expect(versions.locator("tbody tr").nth(1)).toContainText("cfg-b");
  await expect(versions.locator("tbody tr").nth(1)).toContainText("after");
  await expect(versions.locator("tbody tr").nth(0).locator("time")).toHaveAttribute(
    "datetime",
    new Date(T0 - 5_000).toISOString(),
  );

  // cfg-a (observe only) against cfg-b (observe and enforce): fewer harmful drops after.
  const harmful = metricRow(page, "config-comparison", "Harmful-drop rate");
  await expect(harmful.locator('[data-column="aValue"]')).toHaveText(/10\.00%\s*4 \/ 40/);
  await expect(harmful.locator('[data-column="bValue"]')).toHaveText(/0\.00%\s*0 \/ 50/);
  await expect(harmful.locator('[data-column="difference"]')).toHaveText("−10.00 pp");
  await expect(harmful.locator('[data-column="difference"] span')).toHaveClass(/better/);

  // Restrict the comparison to observe traffic with the mode select (URL state).
  await page
    .getByRole("form", { name: "Config versions to compare" })
    .getByLabel("Mode")
    .selectOption("observe");
  await expect(page).toHaveURL(/compareMode=observe/);
  const zeroCall = metricRow(page, "config-comparison", "Zero-tool-call rate");
  await expect(zeroCall.locator('[data-column="bValue"]')).toHaveText(/0\.00%\s*0 \/ 20/);
  await expect(
    page
      .getByRole("region", { name: "Before vs after a config change" })
      .getByTestId("chart-droppedTokens")
      .locator("svg.recharts-surface"),
  ).toBeVisible();
  await screenshot(page, testInfo, "rollouts-before-vs-after");
});

test("the verdict follows the sample size and the threshold in the URL", async ({
  page,
}, testInfo) => {
  await page.goto(`/rollouts?range=24h&tenant=${SAFE_TENANT}`);
  const verdict = page.getByTestId("verdict");
  await expect(verdict).toHaveAttribute("data-status", "safe");
  await expect(verdict.getByRole("heading", { level: 2 })).toHaveText("Safe to enforce");
  await expect(page.getByTestId("verdict-interval")).toHaveText("[0.00%, 0.95%]");
  await expect(page.getByTestId("harmful-tools")).toHaveCount(0);
  await screenshot(page, testInfo, "rollouts-safe");

  const threshold = page.getByLabel("Harmful-drop threshold (%)");
  await threshold.fill("0.5");
  await threshold.press("Enter");
  await expect(page).toHaveURL(/threshold=0\.5/);
  await expect(verdict).toHaveAttribute("data-status", "insufficient");
  await expect(verdict.getByRole("heading", { level: 2 })).toHaveText("Not enough samples yet");
  await expect(page.getByTestId("verdict-minimum")).toHaveText("765 outcomes");
  await expect(page.getByTestId("verdict-check-sample")).toContainText("365 more");
});
