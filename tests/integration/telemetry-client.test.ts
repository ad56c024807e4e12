/**
 * The telemetry client against the real server: batches stored once, per-event errors and a
 * refused key reported through onError, a lost response retried without duplicates, and —
 * with its own PostgreSQL stopped for a while — every event stored exactly once after the
 * restart.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { DECISIONS_WITH_OUTCOMES } from "@/lib/ingest/decision-outcomes";
import { setTenantLimits } from "@/lib/ingest/limit-settings";
import { createApiKey } from "@/lib/keys";
import type { TelemetryEvent } from "@/lib/schemas/events";
import { NO_OVERRIDES } from "@/lib/schemas/ingest-limits";
import { RoutelensClient, type TelemetryDeliveryError } from "@/lib/telemetry/client";
import { decisionEvent, outcomeFor } from "@/lib/telemetry/events";
import { type AppServer, startAppServer } from "@/scripts/lib/app-server";
import { dropDatabase, ensureDatabase } from "@/scripts/lib/local-postgres";
import { seedApiKey } from "@/scripts/lib/seed-key";
import { type OwnPostgres, startOwnPostgres } from "../support/own-postgres";

/** `runs` runs of `iterations` decisions, each followed by its outcome. */
function runEvents(prefix: string, runs: number, iterations: number): TelemetryEvent[] {
  const events: TelemetryEvent[] = [];
  for (let r = 0; r < runs; r++) {
    for (let i = 0; i < iterations; i++) {
      const decision = decisionEvent({
        run_id: `${prefix}-run-${r}`,
        iteration: i,
        dropped_tokens: 10 + i,
      });
      events.push(decision, outcomeFor(decision, ["search_docs"]));
    }
  }
  return events;
}

async function countRows(url: string, tenant: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{
      decisions: number;
      outcomes: number;
      rolled: number;
      joined: number;
    }>(
      `SELECT (SELECT count(*)::int FROM decisions WHERE tenant_id = $1) AS decisions,
              (SELECT count(*)::int FROM outcomes WHERE tenant_id = $1) AS outcomes,
              (SELECT count(*)::int FROM ${DECISIONS_WITH_OUTCOMES} d
                WHERE tenant_id = $1 AND has_outcome) AS joined,
              (SELECT coalesce(sum(decisions), 0)::int FROM rollup_hour WHERE tenant_id = $1) AS rolled`,
      [tenant],
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

describe("RoutelensClient against the server", () => {
  const baseUrl = inject("baseUrl");
  const databaseUrl = inject("databaseUrl");
  let key: string;

  beforeAll(async () => {
    key = (await createApiKey("client-it")).key;
  });

  it("delivers batches, gzipped, and the server stores each event once", async () => {
    const client = new RoutelensClient({
      endpoint: baseUrl,
      apiKey: key,
      batchSize: 40,
      flushIntervalMs: 50,
    });
    const events = runEvents("batches", 10, 7);
    for (const event of events) client.record(event);
    const stats = await client.close();
    expect(stats).toMatchObject({ sent: 140, failed: 0, dropped: 0, buffered: 0, inFlight: 0 });
    expect(stats.requests).toBeGreaterThanOrEqual(4);
    expect(await countRows(databaseUrl, "client-it")).toEqual({
      decisions: 70,
      outcomes: 70,
      joined: 70,
      rolled: 70,
    });
  });

  it("surfaces per-event errors inside a 207 through onError", async () => {
    const errors: TelemetryDeliveryError[] = [];
    const client = new RoutelensClient({
      endpoint: baseUrl,
      apiKey: key,
      onError: (e) => errors.push(e),
    });
    const foreign = decisionEvent({ tenant_id: "someone-else", run_id: "per-event" });
    client.record(decisionEvent({ run_id: "per-event", iteration: 1 }));
    client.record(foreign);
    const stats = await client.close();
    expect(stats).toMatchObject({ sent: 1, failed: 1 });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ kind: "event_rejected", status: 403 });
    expect(errors[0]?.eventIds).toEqual([foreign.event_id]);
    expect(errors[0]?.message).toMatch(/tenant_id/);
  });

  it("reports a refused key once, without retrying", async () => {
    const errors: TelemetryDeliveryError[] = [];
    const client = new RoutelensClient({
      endpoint: baseUrl,
      apiKey: "rl_not-a-real-key",
      onError: (e) => errors.push(e),
    });
    client.record(decisionEvent());
    const stats = await client.close();
    expect(stats).toMatchObject({ sent: 0, failed: 1, retries: 0, requests: 1 });
    expect(errors[0]).toMatchObject({ kind: "request_rejected", status: 401 });
  });

  it("retries a batch whose response was lost; the server stores it once", async () => {
    let calls = 0;
    const losingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      calls++;
      if (calls === 1) {
        await response.arrayBuffer();
        throw new TypeError("fetch failed: socket hang up");
      }
      return response;
    };
    const client = new RoutelensClient({
      endpoint: baseUrl,
      apiKey: key,
      fetch: losingFetch,
      retry: { initialDelayMs: 20 },
    });
    const events = runEvents("lost-response", 3, 4);
    for (const event of events) client.record(event);
    const stats = await client.close();
    expect(stats).toMatchObject({ sent: 24, failed: 0, retries: 1 });
    const pool = new pg.Client({ connectionString: databaseUrl });
    await pool.connect();
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM decisions WHERE tenant_id = 'client-it' AND run_id LIKE 'lost-response-%'",
    );
    await pool.end();
    expect(rows[0]?.n).toBe(12);
  });

  it("waits out a 429's Retry-After when its tenant is over its ingest limit, and loses nothing", async () => {
    const tenant = "client-it-limited";
    const limitedKey = (await createApiKey(tenant)).key;
    // 100 events per second, burst 100: the second batch of 100 waits a second for its tokens.
    await setTenantLimits(tenant, {
      ...NO_OVERRIDES,
      tenantEventsPerSecond: 100,
      tenantBurst: 100,
    });
    const answers: { at: number; status: number; retryAfter: string | null }[] = [];
    const client = new RoutelensClient({
      endpoint: baseUrl,
      apiKey: limitedKey,
      batchSize: 100,
      flushIntervalMs: 0,
      // Backoff alone would retry after 10-20 ms: a retry a second later is the Retry-After's.
      retry: { initialDelayMs: 10, maxDelayMs: 20, maxAttempts: 20 },
      // The real fetch, with each answer's time, status and Retry-After noted.
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        answers.push({
          at: performance.now(),
          status: response.status,
          retryAfter: response.headers.get("retry-after"),
        });
        return response;
      },
    });
    const events = Array.from({ length: 300 }, (_, i) =>
      decisionEvent({ run_id: "limited-run", iteration: i }),
    );
    for (const event of events) client.record(event);
    const stats = await client.close();
    expect(stats).toMatchObject({ sent: 300, failed: 0, dropped: 0, buffered: 0, inFlight: 0 });

    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(stats.retries).toBe(refused.length);
    for (const [i, answer] of answers.entries()) {
      if (answer.status !== 429) continue;
      expect(answer.retryAfter).toMatch(/^[1-9][0-9]*$/);
      const next = answers[i + 1];
      expect(next).toBeDefined();
      // The retry went out no sooner than Retry-After said (the answer arrives after it left).
      if (next)
        expect(next.at - answer.at).toBeGreaterThanOrEqual(Number(answer.retryAfter) * 1000);
    }
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
    expect(await countRows(databaseUrl, tenant)).toMatchObject({ decisions: 300, rolled: 300 });
  });
});

describe("RoutelensClient while PostgreSQL is down", () => {
  const DATA_DIR = ".data/test-pg-client-outage";
  const DATABASE = "routelens_test_client_outage";
  let database: OwnPostgres;
  let app: AppServer;
  let url: string;
  let key: string;

  beforeAll(async () => {
    database = await startOwnPostgres(DATA_DIR);
    await dropDatabase(database.current().adminUrl, DATABASE);
    await ensureDatabase(database.current().adminUrl, DATABASE);
    url = database.current().urlFor(DATABASE);
    await migrate(url);
    key = await seedApiKey(url, "client-outage");
    app = await startAppServer({ databaseUrl: url, env: { DATABASE_CONNECT_TIMEOUT_MS: "1000" } });
  });

  afterAll(async () => {
    await app?.stop();
    await database?.current().stop();
  });

  it("keeps retrying through the outage; after the restart every event is stored exactly once", async () => {
    const errors: TelemetryDeliveryError[] = [];
    const client = new RoutelensClient({
      endpoint: app.baseUrl,
      apiKey: key,
      batchSize: 25,
      flushIntervalMs: 50,
      maxConcurrentRequests: 2,
      retry: { initialDelayMs: 100, maxDelayMs: 1_000, maxAttempts: 200 },
      onError: (e) => errors.push(e),
    });
    const before = runEvents("before", 5, 6);
    const during = runEvents("during", 8, 6);
    const after = runEvents("after", 3, 6);

    for (const event of before) client.record(event);
    await client.flush();
    expect(client.stats().sent).toBe(before.length);

    await database.current().stop();
    for (const event of during) client.record(event);
    // The client meets the outage: 503 with Retry-After, then retries; nothing is delivered.
    await vi.waitFor(() => expect(client.stats().retries).toBeGreaterThan(0), {
      timeout: 20_000,
      interval: 100,
    });
    expect(client.stats().sent).toBe(before.length);

    await database.restart();
    for (const event of after) client.record(event);
    const stats = await client.close({ deadlineMs: 60_000 });

    expect(errors).toEqual([]);
    const total = before.length + during.length + after.length;
    expect(stats).toMatchObject({ sent: total, failed: 0, dropped: 0, buffered: 0, inFlight: 0 });
    expect(await countRows(url, "client-outage")).toEqual({
      decisions: total / 2,
      outcomes: total / 2,
      joined: total / 2,
      rolled: total / 2,
    });
  });
});
