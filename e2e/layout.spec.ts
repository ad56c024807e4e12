/**
 * Layout at 1280 px: no page scrolls sideways, and no card (panel) or table inside one is
 * wider than the room it has, so no column is cut off. The spec's tenant has what makes pages
 * wide: a long run id, long config versions (the rollouts group headers), two modes, harmful
 * drops, warnings, a run with several roles and a backtest. A second tenant holds one
 * decision with the eight-digit token total that once broke the overview tile across two lines.
 */
import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { decisionEvent, outcomeEvent, stageRecord } from "./support/events";
import { createKey, e2eDatabaseUrl, sendBatch } from "./support/server";

const TENANT = `layout-${randomUUID().slice(0, 8)}`;
const LARGE_TENANT = `layout-large-${randomUUID().slice(0, 8)}`;
const LARGE_TOTAL = 70_311_631;
const RUN = `${TENANT}-run-with-a-realistically-long-identifier`;
const OFFERED = ["search_docs", "hydrate_context", "refund_order", "escalate_to_human"];
const CONFIGS = ["cfg_4f325766eaaca57e", "cfg_860e8709a54bae94"];
const ROLES = ["action", "reasoning", "reflection"];
const RULE = randomUUID();

test.use({ viewport: { width: 1280, height: 900 } });

test.beforeAll(async () => {
  const key = await createKey(TENANT);
  const now = Date.now();
  const events = Array.from({ length: 24 }, (_, i) => {
    const timestamp = new Date(now - 50 * 60_000 + i * 60_000).toISOString();
    const enforce = i % 2 === 1;
    const selected = enforce ? ["search_docs"] : ["search_docs", "hydrate_context"];
    return [
      decisionEvent({
        run_id: RUN,
        iteration: i,
        timestamp,
        role: ROLES[i % ROLES.length] ?? "action",
        mode: enforce ? "enforce" : "observe",
        config_version: CONFIGS[i < 12 ? 0 : 1] ?? null,
        offered: OFFERED,
        selected,
        dropped_tokens: 2_400 + 37 * i,
        trace: [
          stageRecord({
            stage: "role_palette",
            action: "select",
            kept: selected,
            dropped: OFFERED.filter((name) => !selected.includes(name)),
            detail: "palette for this role, narrowed by the intent the router resolved",
          }),
        ],
        warnings: i % 5 === 0 ? [{ code: "empty_palette", stage: "role_palette" }] : [],
      }),
      outcomeEvent({
        run_id: RUN,
        iteration: i,
        timestamp,
        role: ROLES[i % ROLES.length] ?? "action",
        called: i % 4 === 0 ? ["refund_order"] : ["search_docs"],
      }),
    ];
  }).flat();
  await sendBatch(key, events);
  await sendBatch(await createKey(LARGE_TENANT), [
    decisionEvent({ timestamp: new Date(now - 60_000).toISOString(), dropped_tokens: LARGE_TOTAL }),
  ]);
  await insertFiringRule(now);
  await insertCancelledBacktest(now);
});

/**
 * A backtest of the tenant over its last week, cancelled half-way, so the backtests list has
 * a row of its own whichever specs ran before this one.
 */
async function insertCancelledBacktest(now: number) {
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO backtests (id, tenant_id, roles, window_from, window_to, candidate, candidate_version,
         threshold_percent, state, replayed, estimated_total, started_at, finished_at)
       VALUES ($1, $2, $3, $4, $5, '{}', $6, 5, 'cancelled', 12, 24, $5, $5)`,
      [randomUUID(), TENANT, ROLES, new Date(now - 7 * 86_400_000), new Date(now), CONFIGS[1]],
    );
  } finally {
    await db.end();
  }
}

/** An alert rule of the tenant with a long name and webhook, firing, with one delivery attempt. */
async function insertFiringRule(now: number) {
  const db = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await db.connect();
  try {
    const minute = new Date(Math.floor(now / 60_000) * 60_000 - 60_000);
    const channel = randomUUID();
    await db.query(
      `INSERT INTO alert_rules (id, tenant_id, name, role, mode, metric, window_minutes, comparison, threshold, min_sample)
       VALUES ($1, $2, $3, 'reflection', 'enforce', 'harmful-drop-rate', 60, 'gt', 5, 10)`,
      [RULE, TENANT, `${TENANT}: harmful drops of the reflection role in enforce, over an hour`],
    );
    await db.query(
      `INSERT INTO alert_channels (id, rule_id, tenant_id, kind, url, secret)
       VALUES ($1, $2, $3, 'webhook', $4, 'whsec_layout')`,
      [channel, RULE, TENANT, `https://hooks.example.com/${"routelens-alerts/".repeat(6)}${RUN}`],
    );
    await db.query(
      `INSERT INTO alert_states (rule_id, tenant_id, state, last_value, last_sample, since, last_evaluated_minute)
       VALUES ($1, $2, 'firing', 25, 12, $3, $3)`,
      [RULE, TENANT, minute],
    );
    const event = await db.query<{ id: string }>(
      `INSERT INTO alert_events (rule_id, tenant_id, kind, value, sample, threshold, minute)
       VALUES ($1, $2, 'firing', 25, 12, 5, $3) RETURNING id`,
      [RULE, TENANT, minute],
    );
    const delivery = randomUUID();
    await db.query(
      `INSERT INTO alert_deliveries (id, rule_id, tenant_id, channel_id, event_id, kind, payload, status, attempts, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, 'firing', '{}', 'pending', 1, $6)`,
      [delivery, RULE, TENANT, channel, event.rows[0]?.id, new Date(now + 60_000)],
    );
    await db.query(
      `INSERT INTO alert_delivery_attempts (delivery_id, tenant_id, attempt, status_code, latency_ms, error, next_attempt_at)
       VALUES ($1, $2, 1, NULL, 10000, $3, $4)`,
      [
        delivery,
        TENANT,
        `connect ECONNREFUSED: the receiver at hooks.example.com did not answer within 10000 ms`,
        new Date(now + 60_000),
      ],
    );
  } finally {
    await db.end();
  }
}

/** Waits until the browser has taken over: local times replace the server's UTC text. */
async function waitForHydration(page: Page) {
  await expect(page.locator("main time").first()).not.toHaveText(/UTC$/);
}

/** Every place where content is wider than its box: the page, a card, a table's scroll area. */
async function findOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
      found.push(`page: ${root.scrollWidth} px wide in ${root.clientWidth} px`);
    }
    for (const box of document.querySelectorAll<HTMLElement>(".panel, .table-scroll")) {
      if (box.scrollWidth > box.clientWidth) {
        const name =
          box.getAttribute("aria-label") ??
          box.querySelector("h2, caption")?.textContent?.trim() ??
          box.className;
        found.push(`${name}: ${box.scrollWidth} px of content in ${box.clientWidth} px`);
      }
    }
    return found;
  });
}

const PAGES = [
  { name: "overview", path: `/?tenant=${TENANT}`, ready: "svg.recharts-surface" },
  { name: "runs", path: `/runs?tenant=${TENANT}`, ready: "[data-testid=runs-table]" },
  { name: "run trace", path: `/runs/${RUN}?tenant=${TENANT}`, ready: "[data-testid=iterations]" },
  {
    name: "rollouts",
    path: `/rollouts?tenant=${TENANT}&before=${CONFIGS[0]}&after=${CONFIGS[1]}`,
    ready: "[data-testid=config-comparison]",
  },
  { name: "tools", path: `/tools?tenant=${TENANT}`, ready: "[data-testid=tools-table]" },
  { name: "alerts", path: "/alerts", ready: "[data-testid=rules-table]" },
  { name: "alert rule", path: `/alerts/${RULE}`, ready: "[data-testid=deliveries-table]" },
  { name: "backtests", path: "/backtests", ready: "[data-testid=backtests-table]" },
  { name: "new backtest", path: "/backtests/new", ready: "[data-testid=backtest-form]" },
];

for (const { name, path, ready } of PAGES) {
  test(`the ${name} page has no horizontal overflow at 1280 px`, async ({ page }, testInfo) => {
    await page.goto(path);
    await expect(page.locator(ready).first()).toBeVisible();
    await waitForHydration(page);
    const screenshot = testInfo.outputPath(`layout-${name.replace(" ", "-")}-1280.png`);
    await page.screenshot({ path: screenshot, fullPage: true });
    await testInfo.attach(`${name} at 1280 px`, { path: screenshot, contentType: "image/png" });
    expect(await findOverflow(page)).toEqual([]);
  });
}

test("a large total fits its tile: compact, on one line, exact on hover", async ({ page }) => {
  await page.goto(`/?tenant=${LARGE_TENANT}`);
  const tile = page.getByTestId("kpi-dropped-tokens-value");
  await expect(tile).toHaveText("70.3M");
  await expect(tile).toHaveAttribute("title", "70,311,631");
  const box = await tile.evaluate((el) => {
    const text = document.createRange();
    text.selectNodeContents(el);
    return { lines: text.getClientRects().length, fits: el.scrollWidth <= el.clientWidth };
  });
  expect(box).toEqual({ lines: 1, fits: true });
});
