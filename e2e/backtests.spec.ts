/**
 * A backtest from the pages, end to end: an hour of the demo support agent's traffic (produced
 * by the real selection core and sent through the API by `npm run simulate`) under a tenant of
 * its own; a maintainer of that tenant signs in, pastes a candidate config whose reasoning
 * palette leaves out `lookup_order` (which the demo's reasoning steps call on almost every
 * request), starts the backtest, waits for the server's job to finish it, and reads the verdict
 * and the per-tool table: the candidate would break calls, and `lookup_order` is the costliest
 * tool it drops. The window and the traffic are small (an hour, a few hundred decisions), so
 * the job finishes in a few seconds.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { supportProfile } from "@/lib/demo/profiles/support";
import { createTestUser } from "@/tests/support/accounts";
import { baseURL, createKey, e2eDatabaseUrl } from "./support/server";
import { signInAs } from "./support/sign-in";

const TENANT = `bt-support-${randomUUID().slice(0, 8)}`;
const DROPPED = "lookup_order";

/** The demo support tenant's palettes, with the reasoning role losing `lookup_order`. */
function candidateConfig() {
  const { roleTools, alwaysInclude } = supportProfile.routing;
  return {
    roleTools: {
      ...roleTools,
      reasoning: roleTools.reasoning.filter((name) => name !== DROPPED),
    },
    alwaysInclude,
  };
}

test.describe.configure({ mode: "serial" });

test.use({ storageState: { cookies: [], origins: [] } });

test.beforeAll(async () => {
  const key = await createKey(TENANT);
  // One hour of the support agent's traffic, all sent to this tenant (about 300 decisions).
  execFileSync(
    "npx",
    [
      "--no-install",
      "tsx",
      "scripts/simulate.ts",
      "--backfill",
      "1h",
      "--tenants",
      "support",
      "--per-day",
      "8000",
      "--seed",
      "16",
      "--key",
      key,
      "--endpoint",
      baseURL,
    ],
    { encoding: "utf8", stdio: "pipe" },
  );
});

test("a maintainer backtests a pasted config and reads the verdict and the per-tool table", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const maintainer = await createTestUser(e2eDatabaseUrl(), { roles: { [TENANT]: "maintainer" } });
  await signInAs(page, maintainer);

  await page.goto("/backtests");
  await expect(page.getByRole("heading", { level: 1, name: "Backtests" })).toBeVisible();
  await page.getByRole("link", { name: "New backtest" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New backtest" })).toBeVisible();

  const form = page.getByTestId("backtest-form");
  await form.getByRole("combobox", { name: /^Tenant/ }).selectOption(TENANT);
  await form.getByRole("combobox", { name: /^Window/ }).selectOption("24h");
  await form.getByTestId("candidate-config").getByLabel("pasted JSON").check();
  await form.getByLabel("Routing config (JSON)").fill(JSON.stringify(candidateConfig(), null, 2));
  await form.getByRole("button", { name: "Start backtest" }).click();

  // The backtest's own page: progress while it runs, then the result.
  await expect(page).toHaveURL(/\/backtests\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("backtest-state")).toHaveAttribute("data-state", "done", {
    timeout: 90_000,
  });

  const verdict = page.getByTestId("verdict");
  await expect(verdict).toHaveAttribute("data-status", "harmful");
  await expect(verdict.getByRole("heading", { level: 2 })).toHaveText(
    "Not safe to enforce: this config would have broken calls",
  );
  await expect(verdict.getByTestId("verdict-threshold")).toHaveText("1.00%");
  await expect(page.getByTestId("backtest-lost-tools")).toContainText(DROPPED);

  const tools = page.getByTestId("backtest-tools");
  const first = tools.locator("tbody tr").first();
  await expect(first).toContainText(`would drop ${DROPPED}, which the model called`);
  const lost = Number(
    (await first.locator('[data-column="candidateHarmful"]').textContent())?.replace(/,/g, ""),
  );
  expect(lost).toBeGreaterThan(0);
  // The recorded config keeps lookup_order in the reasoning palette: it lost fewer of its calls.
  const recordedLost = Number(
    (await first.locator('[data-column="recordedHarmful"]').textContent())?.replace(/,/g, ""),
  );
  expect(recordedLost).toBeLessThan(lost);

  // The comparison and what could not be replayed are stated.
  await expect(page.getByTestId("backtest-comparison")).toContainText("Harmful-drop rate");
  await expect(page.getByTestId("backtest-notes")).toBeVisible();
  await expect(page.getByTestId("backtest-tokens")).toBeVisible();

  const path = testInfo.outputPath("backtest-result.png");
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach("backtest-result", { path, contentType: "image/png" });

  // An example run opens the run trace with that decision replayed beside the recorded one.
  const example = first.locator('[data-column="examples"] a').first();
  await example.click();
  await expect(page).toHaveURL(/\/runs\/.+backtest=.+iteration=\d+#replay$/);
  const replay = page.getByTestId("backtest-replay");
  await expect(replay).toContainText(`The candidate would not have bound ${DROPPED}`);
  await expect(replay.getByTestId("replay-recorded").locator("table.stage-table")).toBeVisible();
  const replayed = replay.getByTestId("replay-candidate");
  await expect(replayed.locator("table.stage-table tbody tr").first()).toBeVisible();
  await expect(replayed).toContainText(`harmful drop: ${DROPPED}`);
  const replayShot = testInfo.outputPath("backtest-replay.png");
  await replay.screenshot({ path: replayShot });
  await testInfo.attach("backtest-replay", { path: replayShot, contentType: "image/png" });

  // The list shows it with its verdict.
  await page.goto("/backtests");
  const row = page.getByTestId("backtests-table").locator("tbody tr", { hasText: TENANT });
  await expect(row.getByTestId("backtest-verdict")).toHaveText(
    "Not safe to enforce: this config would have broken calls",
  );
});
