/**
 * CSV downloads over real HTTP: a run longer than the iterations download's row limit is cut at
 * the limit, in iteration order, and the response says so; the keyset batches of the run query
 * return every decision once, in order, at any batch size; downloads past the process's slots
 * wait in line or get 503 with Retry-After, and a cancelled download gives its slot back.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  DOWNLOAD_MAX_WAITING,
  DOWNLOAD_RETRY_AFTER_S,
  EXPORT_HEADERS,
} from "@/lib/dashboard/export-route";
import { listRunDecisionsInBatches } from "@/lib/db/queries/run-trace";
import { createApiKey } from "@/lib/keys";
import { EXPORT_ROW_LIMIT, RUN_EXPORT_ROW_LIMIT } from "@/lib/schemas/dashboard";
import { decisionEvent } from "@/lib/telemetry/events";
import { type AppServer, startAppServer } from "@/scripts/lib/app-server";
import { type SignedIn, signedInAs, signedInUser } from "../support/accounts";
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

let admin: SignedIn;

beforeAll(async () => {
  admin = await signedInUser(baseUrl, inject("databaseUrl"), { isAdmin: true });
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
    const response = await admin.fetch(
      `${baseUrl}/api/export/run?tenant=${tenant}&runId=${longRun}`,
    );
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
    const response = await admin.fetch(
      `${baseUrl}/api/export/run?tenant=${tenant}&runId=${shortRun}`,
    );
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
      const response = await admin.fetch(`${baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get(EXPORT_HEADERS.rowLimit), path).toBe(String(limit));
      expect(response.headers.get(EXPORT_HEADERS.rowCount), path).toBe(String(rows));
      expect(response.headers.get(EXPORT_HEADERS.truncated), path).toBe("false");
      expect(dataLines(await response.text()), path).toHaveLength(rows);
    }
  });
});

describe("download slots", () => {
  // A server of its own with one slot, and a wait in line long enough that the line is served
  // however slow the machine: only a full line is refused, never one that waited too long.
  let app: AppServer;
  let db: pg.Client;
  let slotAdmin: SignedIn;
  beforeAll(async () => {
    app = await startAppServer({
      databaseUrl: inject("databaseUrl"),
      env: { ROUTELENS_EXPORT_STREAMS: "1", ROUTELENS_EXPORT_WAIT_MS: "50000" },
    });
    db = new pg.Client({ connectionString: inject("databaseUrl") });
    await db.connect();
    slotAdmin = await signedInAs(app.baseUrl, admin);
  });
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  const longRunUrl = () => `${app.baseUrl}/api/export/run?tenant=${tenant}&runId=${longRun}`;
  const shortRunUrl = () => `${app.baseUrl}/api/export/run?tenant=${tenant}&runId=${shortRun}`;

  /**
   * Holds the decisions table locked, so every download that has a slot is stuck before its
   * first batch of rows (holding the slot) until `unlock`. Over loopback a client that merely
   * does not read cannot hold one: the socket buffers take a whole 20,000-row file.
   */
  async function lockDecisions(): Promise<{ unlock: () => Promise<void> }> {
    await db.query("BEGIN");
    await db.query("LOCK TABLE decisions IN ACCESS EXCLUSIVE MODE");
    return { unlock: async () => void (await db.query("ROLLBACK")) };
  }

  it("refuses a download past the slot and the line with 503 and Retry-After; the line gets full files", async () => {
    const lock = await lockDecisions();
    const held = await slotAdmin.fetch(longRunUrl());
    expect(held.status).toBe(200);
    // The slot is taken until the lock goes, so of these all but one wait in line and the last
    // to arrive is refused at once.
    const requests = Array.from({ length: DOWNLOAD_MAX_WAITING + 1 }, () =>
      slotAdmin.fetch(shortRunUrl()),
    );
    const refused = await Promise.race(requests);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toBe(String(DOWNLOAD_RETRY_AFTER_S));
    const { error } = (await refused.json()) as { error: string };
    expect(error).toContain(`1 in progress and ${DOWNLOAD_MAX_WAITING} waiting`);
    expect(error).toContain(`Retry in ${DOWNLOAD_RETRY_AFTER_S} s`);
    await lock.unlock();

    const heldLines = dataLines(await held.text());
    expect(heldLines).toHaveLength(RUN_EXPORT_ROW_LIMIT);
    expect(heldLines.at(-1)?.split(",")[0]).toBe(String(RUN_EXPORT_ROW_LIMIT - 1));
    const answers = await Promise.all(requests);
    const served = answers.filter((answer) => answer !== refused);
    expect(served).toHaveLength(DOWNLOAD_MAX_WAITING);
    for (const answer of served) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get(EXPORT_HEADERS.rowCount)).toBe("5");
      const iterations = dataLines(await answer.text()).map((line) => line.split(",")[0]);
      expect(iterations).toEqual(["0", "1", "1", "1", "2"]);
    }
  });

  it("gives the slot of a cancelled download to the next one", async () => {
    const lock = await lockDecisions();
    const held = await slotAdmin.fetch(longRunUrl());
    expect(held.status).toBe(200);
    const reader = held.body?.getReader();
    const header = await reader?.read();
    expect(header?.done).toBe(false);
    const waiting = slotAdmin.fetch(shortRunUrl());
    await reader?.cancel();
    // Still locked: the held download cannot have ended on its own, so only the cancel can
    // have freed the slot (otherwise this waits until it is refused with 503).
    const next = await waiting;
    expect(next.status).toBe(200);
    await lock.unlock();
    expect(dataLines(await next.text())).toHaveLength(5);
  });

  it("takes no slot for HEAD, and gives it back when the run does not exist", async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const head = await slotAdmin.fetch(longRunUrl(), { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get(EXPORT_HEADERS.rowCount)).toBe(String(RUN_EXPORT_ROW_LIMIT));
      const missing = await slotAdmin.fetch(
        `${app.baseUrl}/api/export/run?tenant=${tenant}&runId=nope`,
      );
      expect(missing.status).toBe(404);
    }
    // A slot kept by any of them would leave this one waiting until it is refused.
    const next = await slotAdmin.fetch(shortRunUrl());
    expect(next.status).toBe(200);
    expect(dataLines(await next.text())).toHaveLength(5);
  });
});
