/**
 * The backtest job against real PostgreSQL, on designed traffic stored through the ingest
 * store: progress per committed chunk, cancellation between chunks, a job stopped between a
 * chunk's replay and its commit (as a crash would) resumes without counting anything twice,
 * a designed candidate reports exactly the designed harmful drops, and a backtest handed to
 * the job queue runs to the end.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ALL_TENANTS } from "@/lib/auth/scope";
import { runBacktest } from "@/lib/backtest/job";
import type { BacktestConfigJson, BacktestInput } from "@/lib/backtest/types";
import { createBacktest, getBacktest, requestBacktestCancel } from "@/lib/db/queries/backtests";
import { toDecisionRow, toOutcomeRow } from "@/lib/ingest/events";
import { type StoreInput, storeEvents } from "@/lib/ingest/store";
import { defaultPipeline, type RoutingConfig, routeTurn } from "@/lib/selection";
import { outcomeFor } from "@/lib/telemetry/events";
import { deleteTenantRows } from "../support/tenant-rows";

const databaseUrl = inject("databaseUrl");
const TENANT = `bt-job-${Date.now().toString(36)}`;
const TOOLS = ["hydrate_context", "search_orders", "refund_order", "send_email", "delete_account"];
const DECISIONS = 1_000;
const CHUNK = 100;
const DAY = 86_400_000;
/** Inside the prune horizon; two decisions share each timestamp, so the keyset breaks ties. */
const start = Math.floor(Date.now() / DAY) * DAY - 3 * DAY;
const window = { from: new Date(start), to: new Date(start + DAY) };

const recordedConfig = {
  roleTools: { support: ["search_orders", "refund_order", "send_email"] },
  alwaysInclude: ["hydrate_context"],
};
/** The designed candidate: send_email leaves the support palette. */
const candidateConfig = {
  roleTools: { support: ["search_orders", "refund_order"] },
  alwaysInclude: ["hydrate_context"],
};
/** Decisions i with i % 10 === 0 are support decisions whose outcome called send_email. */
const DESIGNED_HARMFUL = DECISIONS / 10;

const client = new pg.Client({ connectionString: databaseUrl });

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

function roleOf(i: number): string {
  return i % 5 === 4 ? "planner" : "support";
}

function calledBy(i: number): string[] | null {
  if (i % 10 === 0) return ["send_email"];
  if (i % 10 === 1) return ["refund_order", "search_orders"];
  if (i % 10 === 2) return null; // no outcome reported
  return [];
}

async function storeDesignedTraffic(): Promise<void> {
  const pipeline = defaultPipeline(recordedConfig as RoutingConfig);
  const tools = TOOLS.map((name) => ({ name, description: `The ${name} tool.` }));
  let batch: StoreInput[] = [];
  for (let i = 0; i < DECISIONS; i++) {
    const { event } = await routeTurn({
      mode: "observe",
      pipeline,
      tools,
      meta: {
        runId: `run-${Math.floor(i / 4)}`,
        iteration: i % 4,
        role: roleOf(i),
        tenantId: TENANT,
        eventId: `d-${i}`,
        timestamp: new Date(start + Math.floor(i / 2) * 1_000),
      },
    });
    if (!event) throw new Error("no event in observe mode");
    batch.push({ kind: "decision", row: toDecisionRow(TENANT, event) });
    const called = calledBy(i);
    if (called) {
      const outcome = outcomeFor(event, called, {
        event_id: `o-${i}`,
        timestamp: new Date(start + Math.floor(i / 2) * 1_000 + 500).toISOString(),
      });
      batch.push({ kind: "outcome", row: toOutcomeRow(TENANT, outcome) });
    }
    if (batch.length >= 400) {
      await storeEvents(TENANT, batch);
      batch = [];
    }
  }
  await storeEvents(TENANT, batch);
}

function input(overrides: Partial<BacktestInput> = {}): BacktestInput {
  return {
    tenantId: TENANT,
    roles: [],
    ...window,
    candidate: candidateConfig,
    baseline: recordedConfig,
    thresholdPercent: 1,
    ...overrides,
  };
}

async function create(overrides: Partial<BacktestInput> = {}): Promise<string> {
  return createBacktest({
    input: input(overrides),
    candidateVersion: "cfg_candidate",
    baselineVersion: "cfg_recorded",
    createdBy: null,
  });
}

async function read(id: string) {
  const backtest = await getBacktest(id, ALL_TENANTS);
  if (!backtest) throw new Error(`backtest ${id} not found`);
  return backtest;
}

beforeAll(async () => {
  await client.connect();
  await client.query("INSERT INTO tenants (id) VALUES ($1)", [TENANT]);
  await storeDesignedTraffic();
}, 120_000);

afterAll(async () => {
  await deleteTenantRows(client, TENANT);
  await client.end();
});

describe("the backtest job", () => {
  let completeResult: unknown;

  it("replays every decision of the window and finds exactly the designed harmful drops", async () => {
    const id = await create();
    expect(await runBacktest(id, { chunkSize: CHUNK })).toBe("done");
    const backtest = await read(id);
    expect(backtest.state).toBe("done");
    expect(backtest.progress).toEqual({ replayed: DECISIONS, estimatedTotal: DECISIONS });
    expect(backtest.finishedAt).toBeInstanceOf(Date);
    const result = backtest.result;
    if (!result) throw new Error("no result");
    expect(result.overall.candidate).toMatchObject({
      decisions: DECISIONS,
      outcomes: (DECISIONS * 9) / 10,
      harmfulDecisions: DESIGNED_HARMFUL,
      harmfulDrops: DESIGNED_HARMFUL,
      // Every support decision binds one tool fewer than recorded.
      differFromRecorded: (DECISIONS * 4) / 5,
    });
    expect(result.overall.recorded).toMatchObject({ harmfulDrops: 0, differFromRecorded: 0 });
    expect(result.overall.baseline).toMatchObject({ harmfulDrops: 0, differFromRecorded: 0 });
    expect(result.roles.planner?.candidate).toMatchObject({
      decisions: DECISIONS / 5,
      harmfulDrops: 0,
      differFromRecorded: 0,
    });
    const sendEmail = result.tools.find((tool) => tool.tool === "send_email");
    expect(sendEmail).toMatchObject({
      offered: DECISIONS,
      called: DESIGNED_HARMFUL,
      candidate: { bound: DECISIONS / 5, harmful: DESIGNED_HARMFUL },
      recorded: { bound: DECISIONS, harmful: 0 },
    });
    expect(sendEmail?.examples.map((e) => `${e.runId}#${e.iteration}`)).toEqual([
      "run-0#0",
      "run-2#2",
      "run-5#0",
      "run-7#2",
      "run-10#0",
    ]);
    expect(result.tools.filter((tool) => tool.candidate.harmful > 0)).toHaveLength(1);
    expect(result.notes["no-outcome"]).toBe(DECISIONS / 10);
    // Every tool's size comes from tool_sizes: the decisions carried tool_tokens.
    expect(result.toolSizes.map((size) => [size.tool, size.source])).toEqual(
      [...TOOLS].sort().map((tool) => [tool, "otlp"]),
    );
    completeResult = result;
  });

  it("checkpoints progress per chunk and resumes after a stop between replay and checkpoint, counting nothing twice", async () => {
    const id = await create();
    // Stops after replaying the fourth chunk, before its checkpoint.
    const firstRun: number[] = [];
    expect(
      await runBacktest(id, {
        chunkSize: CHUNK,
        checkpointEveryMs: 0,
        interruptBeforeCommit: (c, decisions) => {
          firstRun.push(decisions);
          return c === 3;
        },
      }),
    ).toBe("interrupted");
    expect(firstRun).toHaveLength(4);
    for (const size of firstRun) expect(size).toBeLessThanOrEqual(CHUNK);
    const committed = sum(firstRun.slice(0, 3));
    const stopped = await read(id);
    expect(stopped.state).toBe("running");
    expect(stopped.progress.replayed).toBe(committed);
    expect(stopped.result?.overall.candidate.decisions).toBe(committed);
    // Resumed by the next run of the job (a restart): it continues from the third chunk's end.
    const resumedRun: number[] = [];
    expect(
      await runBacktest(id, {
        chunkSize: CHUNK,
        interruptBeforeCommit: (_, decisions) => {
          resumedRun.push(decisions);
          return false;
        },
      }),
    ).toBe("done");
    expect(sum(resumedRun)).toBe(DECISIONS - committed);
    const resumed = await read(id);
    expect(resumed.progress.replayed).toBe(DECISIONS);
    expect(resumed.result).toEqual(completeResult);
  });

  it("with a checkpoint a minute, a stop replays everything since the last one again, counting nothing twice", async () => {
    const id = await create();
    expect(
      await runBacktest(id, {
        chunkSize: CHUNK,
        checkpointEveryMs: 60_000,
        interruptBeforeCommit: (c) => c === 3,
      }),
    ).toBe("interrupted");
    const stopped = await read(id);
    expect(stopped.progress.replayed).toBe(0);
    expect(stopped.result).toBeNull();
    // The last chunk is checkpointed when the window ends, whatever the interval.
    expect(await runBacktest(id, { chunkSize: CHUNK, checkpointEveryMs: 60_000 })).toBe("done");
    const resumed = await read(id);
    expect(resumed.progress.replayed).toBe(DECISIONS);
    expect(resumed.result).toEqual(completeResult);
  });

  it("of two runs of one backtest at once, the one that loses a commit stops without counting", async () => {
    const id = await create();
    const outcomes = await Promise.all([
      runBacktest(id, { chunkSize: CHUNK }),
      runBacktest(id, { chunkSize: CHUNK }),
    ]);
    expect(outcomes.sort()).toEqual(["done", "superseded"]);
    const backtest = await read(id);
    expect(backtest.progress.replayed).toBe(DECISIONS);
    expect(backtest.result).toEqual(completeResult);
    // Once done, a late run finds nothing to do.
    expect(await runBacktest(id, { chunkSize: CHUNK })).toBe("not-runnable");
  });

  it("stops at the chunk after a cancel, keeping what it committed", async () => {
    const id = await create();
    const replayed: number[] = [];
    expect(
      await runBacktest(id, {
        chunkSize: CHUNK,
        checkpointEveryMs: 0,
        interruptBeforeCommit: async (c, decisions) => {
          replayed.push(decisions);
          if (c === 1) expect(await requestBacktestCancel(id, ALL_TENANTS)).toBe("cancelling");
          return false;
        },
      }),
    ).toBe("cancelled");
    expect(replayed).toHaveLength(2);
    const cancelled = await read(id);
    expect(cancelled.state).toBe("cancelled");
    expect(cancelled.progress.replayed).toBe(sum(replayed));
    expect(cancelled.finishedAt).toBeInstanceOf(Date);
    expect(await runBacktest(id, { chunkSize: CHUNK })).toBe("not-runnable");
  });

  it("replays only the roles asked for", async () => {
    const id = await create({ roles: ["planner"] });
    expect(await runBacktest(id, { chunkSize: CHUNK })).toBe("done");
    const backtest = await read(id);
    expect(backtest.progress).toEqual({ replayed: DECISIONS / 5, estimatedTotal: DECISIONS / 5 });
    expect(Object.keys(backtest.result?.roles ?? {})).toEqual(["planner"]);
  });

  it("sizes tools from the recorded drops when the store holds no size for them", async () => {
    await client.query("DELETE FROM tool_sizes WHERE tenant_id = $1", [TENANT]);
    const id = await create();
    expect(await runBacktest(id, { chunkSize: CHUNK })).toBe("done");
    const result = (await read(id)).result;
    // The recorded config dropped delete_account on every support decision, and nothing else:
    // 1 tool's estimate per decision; send_email was never dropped, so it has no size.
    const sizes = Object.fromEntries(result?.toolSizes.map((s) => [s.tool, s]) ?? []);
    expect(sizes.delete_account?.source).toBe("recorded-drops");
    expect(sizes.send_email).toEqual({ tool: "send_email", tokens: 0, source: "unknown" });
    expect(result?.overall.candidate.harmfulDrops).toBe(DESIGNED_HARMFUL);
  });

  it("fails with the reason when a config cannot be read", async () => {
    // Stored without passing the input schema (as a row written by hand would be).
    const unreadable = { roleTools: { support: "send_email" } } as unknown as BacktestConfigJson;
    const id = await create({ candidate: unreadable });
    expect(await runBacktest(id)).toBe("failed");
    const failed = await read(id);
    expect(failed.state).toBe("failed");
    expect(failed.error).toMatch(/^candidate config: roleTools\.support/);
  });
});
