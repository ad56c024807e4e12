/**
 * CSV downloads over real HTTP: a run longer than the iterations download's row limit is cut at
 * the limit, in iteration order, and the response says so; the keyset batches of the run query
 * return every decision once, in order, at any batch size.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { EXPORT_HEADERS } from "@/lib/dashboard/export-route";
import { listRunDecisionsInBatches } from "@/lib/db/queries/run-trace";
import { createApiKey } from "@/lib/keys";
import { EXPORT_ROW_LIMIT, RUN_EXPORT_ROW_LIMIT } from "@/lib/schemas/dashboard";
import { decisionEvent } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";

const baseUrl = inject("baseUrl");
const tenant = `exports-${Date.now()}`;
const longRun = `run-long-${Date.now()}`;
const shortRun = `run-short-${Date.now()}`;
/** Decisions of the long run: past the iterations download's limit. */
const LONG_RUN_DECISIONS = RUN_EXPORT_ROW_LIMIT + 250;
/** A whole second of yesterday, e.g. `2026-03-09T10:00:00`. */
const shortRunSecond = `${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}T10:00:00`;
let key: string;

async function send(events: ReturnType<typeof decisionEvent>[]) {
  const response = await postBatch(baseUrl, key, events, { gzip: true });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  key = (await createApiKey(tenant)).key;
  const base = Date.now() - 3_600_000;
  for (let start = 0; start < LONG_RUN_DECISIONS; start += 1_000) {
    const events = [];
    for (
      let iteration = start;
      iteration < Math.min(start + 1_000, LONG_RUN_DECISIONS);
      iteration++
    ) {
      events.push(
        decisionEvent({
          run_id: longRun,
          iteration,
          timestamp: new Date(base + iteration).toISOString(),
          trace: [],
        }),
      );
    }
    await send(events);
  }
  // Three decisions share iteration 1 and differ by microseconds only. Dated yesterday, so the
  // retention test that may run later in the same database does not prune them.
  await send([
    decisionEvent({ run_id: shortRun, iteration: 0, timestamp: `${shortRunSecond}.000001Z` }),
    decisionEvent({ run_id: shortRun, iteration: 1, timestamp: `${shortRunSecond}.000003Z` }),
    decisionEvent({ run_id: shortRun, iteration: 1, timestamp: `${shortRunSecond}.000002Z` }),
    decisionEvent({ run_id: shortRun, iteration: 1, timestamp: `${shortRunSecond}.000004Z` }),
    decisionEvent({ run_id: shortRun, iteration: 2, timestamp: `${shortRunSecond}.000001Z` }),
  ]);
}, 300_000);

function dataLines(csv: string): string[] {
  return csv.split("\r\n").slice(1, -1);
}

describe("iterations download", () => {
  it("stops at the row limit, in iteration order, and states the limit", async () => {
    const response = await fetch(`${baseUrl}/api/export/run?tenant=${tenant}&runId=${longRun}`);
    expect(response.status).toBe(200);
    expect(response.headers.get(EXPORT_HEADERS.rowLimit)).toBe(String(RUN_EXPORT_ROW_LIMIT));
    expect(response.headers.get(EXPORT_HEADERS.rowCount)).toBe(String(RUN_EXPORT_ROW_LIMIT));
    expect(response.headers.get(EXPORT_HEADERS.truncated)).toBe("true");
    const lines = dataLines(await response.text());
    expect(lines).toHaveLength(RUN_EXPORT_ROW_LIMIT);
    const iterations = lines.map((line) => Number(line.split(",")[0]));
    expect(iterations).toEqual(Array.from({ length: RUN_EXPORT_ROW_LIMIT }, (_, index) => index));
  });

  it("writes a run within the limit whole and says it is not cut", async () => {
    const response = await fetch(`${baseUrl}/api/export/run?tenant=${tenant}&runId=${shortRun}`);
    expect(response.status).toBe(200);
    expect(response.headers.get(EXPORT_HEADERS.rowCount)).toBe("5");
    expect(response.headers.get(EXPORT_HEADERS.truncated)).toBe("false");
    const lines = dataLines(await response.text());
    const ts = `${shortRunSecond}.000Z`;
    expect(lines.map((line) => line.split(",").slice(0, 2).join(" "))).toEqual([
      `0 ${ts}`,
      `1 ${ts}`,
      `1 ${ts}`,
      `1 ${ts}`,
      `2 ${ts}`,
    ]);
  });
});

describe("listRunDecisionsInBatches", () => {
  it("returns every decision once, in (iteration, time, id) order, at any batch size", async () => {
    const whole: number[] = [];
    for await (const batch of listRunDecisionsInBatches(tenant, shortRun, { max: 100 })) {
      whole.push(...batch.map((row) => row.id));
    }
    expect(whole).toHaveLength(5);
    for (const batchSize of [1, 2, 3]) {
      const ids: number[] = [];
      for await (const batch of listRunDecisionsInBatches(tenant, shortRun, {
        batchSize,
        max: 100,
      })) {
        expect(batch.length).toBeLessThanOrEqual(batchSize);
        ids.push(...batch.map((row) => row.id));
      }
      expect(ids, `batch size ${batchSize}`).toEqual(whole);
    }
    const capped: number[] = [];
    for await (const batch of listRunDecisionsInBatches(tenant, shortRun, {
      batchSize: 2,
      max: 3,
    })) {
      capped.push(...batch.map((row) => row.id));
    }
    expect(capped).toEqual(whole.slice(0, 3));
  });
});

describe("every download states its limit", () => {
  it("runs, breakdown and tools", async () => {
    const cases = [
      { path: `/api/export/runs?tenant=${tenant}`, limit: EXPORT_ROW_LIMIT, rows: 2 },
      {
        path: `/api/export/breakdown?tenant=${tenant}&range=7d`,
        limit: EXPORT_ROW_LIMIT,
        rows: 1,
      },
      {
        path: `/api/export/tools?tenant=${tenant}&range=7d`,
        limit: EXPORT_ROW_LIMIT,
        rows: 3,
      },
    ];
    for (const { path, limit, rows } of cases) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get(EXPORT_HEADERS.rowLimit), path).toBe(String(limit));
      expect(response.headers.get(EXPORT_HEADERS.rowCount), path).toBe(String(rows));
      expect(response.headers.get(EXPORT_HEADERS.truncated), path).toBe("false");
      expect(dataLines(await response.text()), path).toHaveLength(rows);
    }
  });
});
