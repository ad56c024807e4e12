import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getPool } from "@/lib/db/client";
import { parseDuration, pruneOlderThan } from "@/lib/db/prune";
import { createApiKey } from "@/lib/keys";
import { decisionEvent, outcomeEvent } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";

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

    const chunks: number[] = [];
    const result = await pruneOlderThan(getPool(), new Date(Date.now() - 30 * 86_400_000), {
      chunkSize: 3,
      onProgress: (table, deleted) => {
        if (table === "decisions") chunks.push(deleted);
      },
    });
    expect(chunks).toEqual([3, 3, 1]);
    expect(result.decisions).toBeGreaterThanOrEqual(7);

    const left = await db.query(
      `SELECT (SELECT count(*)::int FROM decisions WHERE tenant_id = $1) AS decisions,
              (SELECT count(*)::int FROM outcomes WHERE tenant_id = $1) AS outcomes,
              (SELECT array_agg(run_id) FROM runs WHERE tenant_id = $1) AS runs,
              (SELECT sum(decisions)::int FROM rollup_hour WHERE tenant_id = $1) AS hour_decisions,
              (SELECT sum(dropped_tokens)::int FROM rollup_minute WHERE tenant_id = $1) AS minute_tokens,
              (SELECT count(*)::int FROM tool_rollup_hour WHERE tenant_id = $1 AND bucket < now() - interval '30 days') AS old_tool_rows`,
      [tenant],
    );
    expect(left.rows[0]).toEqual({
      decisions: 1,
      outcomes: 1,
      runs: [`new-${tenant}`],
      hour_decisions: 1,
      minute_tokens: 9,
      old_tool_rows: 0,
    });
  });
});
