/**
 * Backtests on the job queue (pg-boss in the test database): the worker started in this
 * process runs a backtest that was waiting when it started (the start-up sweep) and one handed
 * to it afterwards, each to the end.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ALL_TENANTS } from "@/lib/auth/scope";
import { enqueueBacktest, startBacktests, stopBacktests } from "@/lib/backtest/runner";
import type { BacktestInput } from "@/lib/backtest/types";
import { createBacktest, getBacktest } from "@/lib/db/queries/backtests";
import { stopJobQueue } from "@/lib/jobs/queue";

const databaseUrl = inject("databaseUrl");
const TENANT = `bt-queue-${Date.now().toString(36)}`;
const client = new pg.Client({ connectionString: databaseUrl });

const input: BacktestInput = {
  tenantId: TENANT,
  roles: [],
  from: new Date(Date.now() - 86_400_000),
  to: new Date(),
  candidate: { roleTools: { support: ["search_orders"] } },
  baseline: null,
  thresholdPercent: 1,
};

async function waitForState(id: string, state: string): Promise<void> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const backtest = await getBacktest(id, ALL_TENANTS);
    if (backtest?.state === state) return;
    if (Date.now() > deadline)
      throw new Error(`backtest ${id} is ${backtest?.state}, not ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  await client.connect();
  await client.query("INSERT INTO tenants (id) VALUES ($1)", [TENANT]);
});

afterAll(async () => {
  stopBacktests();
  await stopJobQueue();
  await client.query("DELETE FROM tenants WHERE id = $1", [TENANT]);
  await client.end();
});

describe("the backtest worker", () => {
  it("runs a backtest waiting at start and one enqueued later", async () => {
    const waiting = await createBacktest({
      input,
      candidateVersion: "cfg_waiting",
      baselineVersion: null,
      createdBy: null,
    });
    await startBacktests();
    await waitForState(waiting, "done");

    const later = await createBacktest({
      input,
      candidateVersion: "cfg_later",
      baselineVersion: null,
      createdBy: null,
    });
    await enqueueBacktest(later);
    await waitForState(later, "done");
    const backtest = await getBacktest(later, ALL_TENANTS);
    expect(backtest?.progress.replayed).toBe(0);
    expect(backtest?.result?.overall.candidate.decisions ?? 0).toBe(0);
  });
});
