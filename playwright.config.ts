import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { ADMIN_STATE } from "./e2e/support/sign-in";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const debianChromium = "/usr/bin/chromium";
const launchOptions = existsSync(debianChromium)
  ? {
      executablePath: debianChromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    }
  : {};

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    // Creates the e2e admin and signs in once; every spec starts signed in as them.
    { name: "setup", testMatch: /.*\.setup\.ts/, use: { launchOptions } },
    {
      name: "chromium",
      dependencies: ["setup"],
      use: {
        ...devices["Desktop Chrome"],
        storageState: ADMIN_STATE,
        launchOptions,
      },
    },
  ],
  webServer: {
    // A production build on a fresh database (see scripts/e2e-server.ts).
    command: `npx --no-install tsx scripts/e2e-server.ts --port ${PORT}`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    // Alert rules are evaluated every 2 s instead of every minute (e2e/alerts.spec.ts); the
    // server runs the backtests started from the pages.
    env: { ROUTELENS_ALERTS: "1", ROUTELENS_ALERTS_SLOT_MS: "2000", ROUTELENS_BACKTESTS: "1" },
  },
});
