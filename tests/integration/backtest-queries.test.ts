/**
 * Stored backtests against real PostgreSQL: created queued, read back whole within the
 * viewer's tenants and as absent outside them, listed newest first per scope, cancelled at
 * once when queued and asked to stop when running; the database refuses a window over 30 days.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ALL_TENANTS, tenantsScope } from "@/lib/auth/scope";
import type { BacktestInput } from "@/lib/backtest/types";
import {
  countBacktests,
  createBacktest,
  getBacktest,
  listBacktests,
  requestBacktestCancel,
} from "@/lib/db/queries/backtests";
import { createTestUser } from "../support/accounts";

const databaseUrl = inject("databaseUrl");
const suffix = Date.now().toString(36);
const TENANT_A = `bt-a-${suffix}`;
const TENANT_B = `bt-b-${suffix}`;
const client = new pg.Client({ connectionString: databaseUrl });

function input(tenantId: string, overrides: Partial<BacktestInput> = {}): BacktestInput {
  return {
    tenantId,
    roles: ["action"],
    from: new Date("2026-11-20T00:00:00Z"),
    to: new Date("2026-11-27T00:00:00Z"),
    candidate: { roleTools: { action: ["search_docs"] } },
    baseline: null,
    thresholdPercent: 1,
    ...overrides,
  };
}

beforeAll(async () => {
  await client.connect();
  for (const tenant of [TENANT_A, TENANT_B]) {
    await client.query("INSERT INTO tenants (id) VALUES ($1) ON CONFLICT DO NOTHING", [tenant]);
  }
});

afterAll(async () => {
  await client.query("DELETE FROM tenants WHERE id = ANY($1)", [[TENANT_A, TENANT_B]]);
  await client.end();
});

describe("backtest storage", () => {
  it("stores a queued backtest with its configs and reads it back only within the scope", async () => {
    const user = await createTestUser(databaseUrl, { roles: { [TENANT_A]: "maintainer" } });
    const baseline = { roleTools: { action: ["search_docs", "refund_order"] } };
    const id = await createBacktest({
      input: input(TENANT_A, { baseline, thresholdPercent: 2.5 }),
      candidateVersion: "cfg_candidate",
      baselineVersion: "cfg_baseline",
      createdBy: user.id,
    });
    const stored = await getBacktest(id, tenantsScope([TENANT_A]));
    expect(stored).toMatchObject({
      id,
      tenantId: TENANT_A,
      roles: ["action"],
      from: new Date("2026-11-20T00:00:00Z"),
      to: new Date("2026-11-27T00:00:00Z"),
      candidate: { roleTools: { action: ["search_docs"] } },
      baseline,
      thresholdPercent: 2.5,
      state: "queued",
      progress: { replayed: 0, estimatedTotal: 0 },
      result: null,
      error: null,
      createdBy: { id: user.id, email: user.email },
      startedAt: null,
      finishedAt: null,
    });
    expect(await getBacktest(id, ALL_TENANTS)).not.toBeNull();
    expect(await getBacktest(id, tenantsScope([TENANT_B]))).toBeNull();
    expect(await getBacktest(id, tenantsScope([]))).toBeNull();
    expect(await getBacktest("not-a-uuid", ALL_TENANTS)).toBeNull();
  });

  it("lists the scope's backtests newest first, without configs", async () => {
    const first = await createBacktest({
      input: input(TENANT_B),
      candidateVersion: "cfg_1",
      baselineVersion: null,
      createdBy: null,
    });
    const second = await createBacktest({
      input: input(TENANT_B, { roles: [] }),
      candidateVersion: "cfg_2",
      baselineVersion: null,
      createdBy: null,
    });
    const listed = await listBacktests(tenantsScope([TENANT_B]));
    expect(listed.map((b) => b.id)).toEqual([second, first]);
    expect(listed[0]).toMatchObject({ candidateVersion: "cfg_2", roles: [], createdBy: null });
    expect(listed[0]).not.toHaveProperty("candidate");
    const both = await listBacktests(ALL_TENANTS, { tenantId: TENANT_B });
    expect(both.map((b) => b.id)).toEqual([second, first]);
    expect(await listBacktests(tenantsScope([TENANT_A]), { tenantId: TENANT_B })).toEqual([]);
    // A page at a time, counted in the same scope.
    expect(
      (await listBacktests(ALL_TENANTS, { tenantId: TENANT_B, limit: 1 })).map((b) => b.id),
    ).toEqual([second]);
    expect(
      (await listBacktests(ALL_TENANTS, { tenantId: TENANT_B, limit: 1, offset: 1 })).map(
        (b) => b.id,
      ),
    ).toEqual([first]);
    expect(await countBacktests(tenantsScope([TENANT_B]), null)).toBe(2);
    expect(await countBacktests(ALL_TENANTS, TENANT_B)).toBe(2);
    expect(await countBacktests(tenantsScope([TENANT_A]), TENANT_B)).toBe(0);
  });

  it("cancels a queued backtest at once and asks a running one to stop", async () => {
    const queued = await createBacktest({
      input: input(TENANT_A),
      candidateVersion: "cfg_q",
      baselineVersion: null,
      createdBy: null,
    });
    expect(await requestBacktestCancel(queued, tenantsScope([TENANT_B]))).toBeNull();
    expect(await requestBacktestCancel(queued, tenantsScope([TENANT_A]))).toBe("cancelled");
    expect((await getBacktest(queued, ALL_TENANTS))?.finishedAt).toBeInstanceOf(Date);
    expect(await requestBacktestCancel(queued, ALL_TENANTS)).toBe("cancelled");

    const running = await createBacktest({
      input: input(TENANT_A),
      candidateVersion: "cfg_r",
      baselineVersion: null,
      createdBy: null,
    });
    await client.query("UPDATE backtests SET state = 'running' WHERE id = $1", [running]);
    expect(await requestBacktestCancel(running, ALL_TENANTS)).toBe("cancelling");
    expect((await getBacktest(running, ALL_TENANTS))?.finishedAt).toBeNull();
  });

  it("refuses a window over 30 days in the database too", async () => {
    await expect(
      createBacktest({
        input: input(TENANT_A, { to: new Date("2026-12-20T00:00:01Z") }),
        candidateVersion: "cfg_long",
        baselineVersion: null,
        createdBy: null,
      }),
    ).rejects.toThrow(/backtests_window_check/);
  });
});
