import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getPool } from "@/lib/db/client";
import { parseDuration, pruneOlderThan } from "@/lib/db/prune";
import { offeredOf, PALETTE_GATE } from "@/lib/ingest/palettes";
import { createApiKey } from "@/lib/keys";
import { storeSpans } from "@/lib/otlp/store";
import { decisionEvent, outcomeEvent } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";
import { aiSdkCall, aiSdkToolRun, spanId, traceId } from "../support/otel-spans";
import { deleteTenantRows } from "../support/tenant-rows";

const baseUrl = inject("baseUrl");
const tenant = `prune-${Date.now()}`;
let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
});
afterAll(() => db.end());

describe("parseDuration", () => {
  it("reads minutes, hours, days and weeks and refuses anything else", () => {
    expect(parseDuration("30d")).toBe(30 * 86_400_000);
    expect(parseDuration("12h")).toBe(12 * 3_600_000);
    expect(parseDuration("2w")).toBe(14 * 86_400_000);
    expect(parseDuration("0d")).toBeNull();
    expect(parseDuration("30 days")).toBeNull();
  });
});

describe("pruneOlderThan", () => {
  it("deletes raw rows and rollups before the horizon, in chunks, and keeps the rest", async () => {
    const key = (await createApiKey(tenant)).key;
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const recent = new Date(Date.now() - 86_400_000).toISOString();
    const oldEvents = Array.from({ length: 7 }, (_, i) =>
      decisionEvent({ run_id: `old-${tenant}`, iteration: i, timestamp: old, dropped_tokens: 5 }),
    );
    const recentEvents = [
      decisionEvent({
        run_id: `new-${tenant}`,
        iteration: 0,
        timestamp: recent,
        dropped_tokens: 9,
      }),
      outcomeEvent({ run_id: `new-${tenant}`, iteration: 0, timestamp: recent }),
      outcomeEvent({ run_id: `old-${tenant}`, iteration: 0, timestamp: old }),
    ];
    expect((await postBatch(baseUrl, key, [...oldEvents, ...recentEvents])).status).toBe(200);
    // OpenTelemetry spans without a tool list (so they add no decision): an LLM call and a tool
    // run 40 days old, and a recent LLM call.
    const oldMs = Date.parse(old);
    const trace = traceId(`prune-${tenant}`);
    const spans = [
      aiSdkCall({ traceId: trace, spanId: spanId(1), startMs: oldMs }),
      aiSdkToolRun({ traceId: trace, spanId: spanId(2), startMs: oldMs, tool: "t", callId: "c" }),
      aiSdkCall({ traceId: trace, spanId: spanId(3), startMs: Date.parse(recent) }),
    ];
    expect(await storeSpans(tenant, spans)).toEqual({ rejectedSpans: 0, errorMessage: "" });

    const chunks: number[] = [];
    const result = await pruneOlderThan(getPool(), new Date(Date.now() - 30 * 86_400_000), {
      chunkSize: 3,
      onProgress: (table, deleted) => {
        if (table === "decisions") chunks.push(deleted);
      },
    });
    expect(chunks).toEqual([3, 3, 1]);
    expect(result.decisions).toBeGreaterThanOrEqual(7);
    expect(result.spans).toBeGreaterThanOrEqual(2);

    const left = await db.query(
      `SELECT (SELECT count(*)::int FROM decisions WHERE tenant_id = $1) AS decisions,
              (SELECT count(*)::int FROM outcomes WHERE tenant_id = $1) AS outcomes,
              (SELECT array_agg(run_id) FROM runs WHERE tenant_id = $1) AS runs,
              (SELECT sum(decisions)::int FROM rollup_hour WHERE tenant_id = $1) AS hour_decisions,
              (SELECT sum(dropped_tokens)::int FROM rollup_minute WHERE tenant_id = $1) AS minute_tokens,
              (SELECT count(*)::int FROM tool_rollup_hour WHERE tenant_id = $1 AND bucket < now() - interval '30 days') AS old_tool_rows,
              (SELECT array_agg(span_id ORDER BY span_id) FROM otel_spans WHERE tenant_id = $1) AS spans,
              (SELECT array_agg(calls_without_tools::int) FROM otel_call_rollup_hour WHERE tenant_id = $1) AS calls_without_tools`,
      [tenant],
    );
    expect(left.rows[0]).toEqual({
      decisions: 1,
      outcomes: 1,
      runs: [`new-${tenant}`],
      hour_decisions: 1,
      minute_tokens: 9,
      old_tool_rows: 0,
      spans: [spanId(3)],
      calls_without_tools: [1],
    });
  });

  it("keeps a rollup bucket that straddles the horizon and deletes the buckets wholly before it", async () => {
    const straddle = `prune-edge-${Date.now()}`;
    const key = (await createApiKey(straddle)).key;
    // An hour 35 days back; the horizon falls 30.5 minutes into it.
    const hour = Math.floor((Date.now() - 35 * 86_400_000) / 3_600_000) * 3_600_000;
    const horizon = new Date(hour + 30 * 60_000 + 30_000);
    const at = (offsetMs: number, dropped_tokens: number, iteration: number) =>
      decisionEvent({
        run_id: `run-${straddle}-${iteration < 3 ? "old" : "new"}`,
        iteration,
        timestamp: new Date(hour + offsetMs).toISOString(),
        dropped_tokens,
        offered: ["search_docs", "create_ticket"],
        selected: ["search_docs"],
      });
    const events = [
      at(-10 * 60_000, 1, 0), // the hour before: every bucket of it lies before the horizon
      at(10 * 60_000, 10, 1), // minute :10, wholly before the horizon, in the straddling hour
      at(30 * 60_000 + 10_000, 100, 2), // :30:10, before the horizon, in the straddling minute
      at(45 * 60_000, 1_000, 3), // :45, after the horizon
    ];
    expect((await postBatch(baseUrl, key, events)).status).toBe(200);

    await pruneOlderThan(getPool(), horizon);

    const left = await db.query(
      `SELECT (SELECT array_agg(dropped_tokens::int ORDER BY ts) FROM decisions WHERE tenant_id = $1) AS decisions,
              (SELECT array_agg(run_id ORDER BY run_id) FROM runs WHERE tenant_id = $1) AS runs,
              (SELECT json_agg(json_build_array(extract(epoch FROM bucket) * 1000, dropped_tokens::int) ORDER BY bucket)
                 FROM rollup_minute WHERE tenant_id = $1) AS minutes,
              (SELECT json_agg(json_build_array(extract(epoch FROM bucket) * 1000, decisions::int, dropped_tokens::int) ORDER BY bucket)
                 FROM rollup_hour WHERE tenant_id = $1) AS hours,
              (SELECT json_agg(DISTINCT extract(epoch FROM bucket) * 1000) FROM tool_rollup_hour WHERE tenant_id = $1) AS tool_hours`,
      [straddle],
    );
    const start = (offsetMs: number) => hour + offsetMs; // a bucket's start, in epoch ms
    expect(left.rows[0]).toEqual({
      // Raw rows go by their own time.
      decisions: [1_000],
      runs: [`run-${straddle}-new`],
      // Rollups go by whole buckets: the minute and the hour holding the horizon stay, with
      // everything counted in them; only buckets that end at or before the horizon go.
      minutes: [
        [start(30 * 60_000), 100],
        [start(45 * 60_000), 1_000],
      ],
      hours: [[start(0), 3, 1_110]],
      tool_hours: [start(0)],
    });
    await deleteTenantRows(db, straddle);
  });
});

describe("pruning tool lists", () => {
  const DAY = 86_400_000;
  const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
  const listTenant = `prune-lists-${Date.now()}`;
  let key: string;
  let iteration = 0;
  /** Posts one decision offering `offered`, dated `days` back, to the test server. */
  const post = async (offered: string[], days: number) => {
    const event = decisionEvent({
      run_id: `run-${listTenant}`,
      iteration: iteration++,
      timestamp: daysAgo(days).toISOString(),
      offered,
      selected: offered.slice(0, 1),
    });
    expect((await postBatch(baseUrl, key, [event])).status).toBe(200);
  };
  /** The tenant's stored lists, with their last day. */
  const lists = async () =>
    (
      await db.query<{ tools: string[]; id: string; last_day: string }>(
        `SELECT tools, id::text, last_day::text FROM palettes WHERE tenant_id = $1 ORDER BY tools`,
        [listTenant],
      )
    ).rows;
  const day = (days: number) => daysAgo(days).toISOString().slice(0, 10);

  beforeAll(async () => {
    key = (await createApiKey(listTenant)).key;
  });
  afterAll(() => deleteTenantRows(db, listTenant));

  it("keeps each list's last day: the latest day of a decision naming it, never moved back", async () => {
    await post(["moving_a", "moving_b"], 10);
    await post(["moving_a", "moving_b"], 2);
    await post(["moving_a", "moving_b"], 5);
    expect((await lists()).map(({ tools, last_day }) => ({ tools, last_day }))).toEqual([
      { tools: ["moving_a", "moving_b"], last_day: day(2) },
    ]);
  });

  it("deletes the lists only decisions before the horizon named, and stores one again when a new decision names it", async () => {
    await post(["old_a", "old_b"], 40);
    await post(["both_a"], 40);
    await post(["both_a"], 1);
    const before = await lists();
    const oldId = before.find((list) => list.tools[0] === "old_a")?.id;

    const chunks: number[] = [];
    const result = await pruneOlderThan(getPool(), daysAgo(30), {
      chunkSize: 1,
      onProgress: (table, deleted) => {
        if (table === "palettes") chunks.push(deleted);
      },
    });
    // One list a chunk: the walk goes on from each chunk's last key to the end.
    expect(result.palettes).toBeGreaterThanOrEqual(1);
    expect(chunks).toEqual(Array(result.palettes).fill(1));
    expect((await lists()).map((list) => list.tools)).toEqual([
      ["both_a"],
      ["moving_a", "moving_b"],
    ]);

    // The server still remembers the pruned list's id: it must find it gone and add it again.
    await post(["old_a", "old_b"], 0);
    const again = (await lists()).find((list) => list.tools[0] === "old_a");
    expect(again?.id).not.toBe(oldId);
    expect(again?.last_day).toBe(day(0));
    const { rows } = await db.query(
      `SELECT d.ts, ${offeredOf("d")} AS offered FROM decisions d
        WHERE d.tenant_id = $1 ORDER BY d.ts`,
      [listTenant],
    );
    // Every decision left names a stored list (none falls back to the empty list).
    expect(rows.map((row) => row.offered)).toEqual([
      ["moving_a", "moving_b"],
      ["moving_a", "moving_b"],
      ["moving_a", "moving_b"],
      ["both_a"],
      ["old_a", "old_b"],
    ]);
  });

  it("waits for the transactions storing decisions before it deletes a list, and holds new ones back", async () => {
    await post(["held_a"], 50);
    const holder = new pg.Client({ connectionString: inject("databaseUrl") });
    await holder.connect();
    let pruned: Promise<unknown> | null = null;
    try {
      // A transaction storing decisions opens with the gate: a shared lock until it ends.
      await holder.query(`BEGIN; ${PALETTE_GATE}`);
      pruned = pruneOlderThan(getPool(), daysAgo(30));
      // The prune waits for the gate's lock, with the old list still stored.
      for (let waited = 0; ; waited += 20) {
        const { rows } = await db.query(
          "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND mode = 'ExclusiveLock' AND NOT granted",
        );
        if (rows.length > 0) break;
        if (waited > 10_000) throw new Error("the prune never waited for the gate");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await lists()).map((list) => list.tools[0])).toContain("held_a");
      await holder.query("COMMIT");
      await pruned;
    } finally {
      await holder.end();
      await pruned?.catch(() => {});
    }
    expect((await lists()).map((list) => list.tools[0])).not.toContain("held_a");
  });
});
