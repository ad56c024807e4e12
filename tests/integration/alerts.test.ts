/**
 * Alerts end to end (SPEC §9): events ingested through /api/ingest, the evaluator running in
 * real servers (pg-boss on this run's PostgreSQL), deliveries to a webhook receiver this test
 * runs on 127.0.0.1. Slots are 2 s instead of a minute (ROUTELENS_ALERTS_SLOT_MS, test-only)
 * and retries start 1 s apart, so nothing here waits for real minutes.
 */
import { createHmac, randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CLAIM_GRACE_MS } from "@/lib/alerts/delivery";
import { createApiKey } from "@/lib/keys";
import { decisionEvent } from "@/lib/telemetry/events";
import { type AppServer, startAppServer } from "@/scripts/lib/app-server";
import { postBatch } from "../support/http";
import { deleteTenantRows } from "../support/tenant-rows";
import { type Received, Receiver } from "../support/webhook-receiver";

const databaseUrl = inject("databaseUrl");
const ALERT_ENV = {
  ROUTELENS_ALERTS: "1",
  ROUTELENS_ALERTS_SLOT_MS: "2000",
  ROUTELENS_ALERTS_RETRY_BASE_MS: "1000",
  ROUTELENS_ALERTS_TIMEOUT_MS: "5000",
  ROUTELENS_URL: "https://routelens.example.com",
};

let db: pg.Client;
const receiver = new Receiver();
const servers: AppServer[] = [];
const tenants: string[] = [];

async function startServer(): Promise<AppServer> {
  const server = await startAppServer({ databaseUrl, env: ALERT_ENV });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await receiver.start();
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await receiver.stop();
  for (const tenant of tenants) await deleteTenantRows(db, tenant);
  await db.end();
});

/** A tenant with an ingest key and an empty-palette rule (> 50 %, at least 10 decisions). */
async function setUp(label: string) {
  const tenant = `alerts-${label}-${Date.now()}`;
  tenants.push(tenant);
  const { key } = await createApiKey(tenant);
  const ruleId = randomUUID();
  const secret = `whsec_test_${randomUUID()}`;
  await db.query(
    `INSERT INTO alert_rules (id, tenant_id, name, metric, window_minutes, comparison, threshold, min_sample)
     VALUES ($1, $2, $3, 'empty-palette-rate', 5, 'gt', 50, 10)`,
    [ruleId, tenant, `Empty palettes in ${tenant}`],
  );
  await db.query(
    `INSERT INTO alert_channels (id, rule_id, tenant_id, kind, url, secret) VALUES ($1, $2, $3, 'webhook', $4, $5)`,
    [randomUUID(), ruleId, tenant, receiver.url, secret],
  );
  return { tenant, key, ruleId, secret };
}

async function ingest(baseUrl: string, key: string, count: number, emptyPalette: boolean) {
  const events = Array.from({ length: count }, () =>
    decisionEvent(emptyPalette ? { warnings: [{ code: "empty_palette", stage: "intent" }] } : {}),
  );
  const response = await postBatch(baseUrl, key, events);
  expect(response.status).toBe(200);
}

async function waitFor<T>(
  what: string,
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  ms = 30_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function expectSigned(received: Received, secret: string) {
  const timestamp = String(received.headers["x-routelens-timestamp"]);
  const expected = createHmac("sha256", secret)
    .update(`${timestamp}.${received.body}`)
    .digest("hex");
  expect(received.headers["x-routelens-signature"]).toBe(`sha256=${expected}`);
  expect(Math.abs(Date.now() / 1000 - Number(timestamp))).toBeLessThan(120);
}

async function events(ruleId: string) {
  const { rows } = await db.query<{ kind: string }>(
    "SELECT kind FROM alert_events WHERE rule_id = $1 ORDER BY minute",
    [ruleId],
  );
  return rows.map((row) => row.kind);
}

/** Slots (2 s each) pass with no new transition: what "exactly one" waits out. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5_000));

describe("alerts: evaluation and webhook delivery", () => {
  it("data crossing a threshold sends one signed `firing`, then `resolved` when it falls back", async () => {
    const server = await startServer();
    const { key, ruleId, secret, tenant } = await setUp("cross");
    await ingest(server.baseUrl, key, 5, true);
    // 5 decisions: 100 % empty palettes, but below the minimum sample of 10: cannot fire.
    await waitFor(
      "an evaluation",
      () =>
        db.query(
          "SELECT below_min_sample FROM alert_states WHERE rule_id = $1 AND last_value IS NOT NULL",
          [ruleId],
        ),
      (r) => r.rows.length > 0,
    );
    const { rows: held } = await db.query(
      "SELECT state, below_min_sample FROM alert_states WHERE rule_id = $1",
      [ruleId],
    );
    expect(held[0]).toEqual({ state: "ok", below_min_sample: true });
    expect(receiver.forRule(ruleId)).toEqual([]);

    await ingest(server.baseUrl, key, 15, true);
    const [firing] = await waitFor(
      "the firing webhook",
      () => receiver.forRule(ruleId),
      (r) => r.length >= 1,
    );
    if (!firing) throw new Error("unreachable");
    expect(firing.json).toMatchObject({
      type: "alert.firing",
      state: "firing",
      tenant,
      value: 100,
    });
    expect(firing.json.runsUrl).toMatch(
      new RegExp(`^https://routelens\\.example\\.com/runs\\?tenant=${tenant}&`),
    );
    expectSigned(firing, secret);

    await ingest(server.baseUrl, key, 60, false);
    const both = await waitFor(
      "the resolved webhook",
      () => receiver.forRule(ruleId),
      (r) => r.length >= 2,
    );
    expect(both[1]?.json).toMatchObject({ type: "alert.resolved", state: "resolved", tenant });
    expectSigned(both[1] as Received, secret);
    await settle();
    expect(receiver.forRule(ruleId).map((r) => r.json.state)).toEqual(["firing", "resolved"]);
    expect(await events(ruleId)).toEqual(["firing", "resolved"]);
  });

  it("two server processes on one database still send exactly one delivery per transition", async () => {
    while (servers.length < 2) await startServer();
    const [first, second] = servers as [AppServer, AppServer];
    const { key, ruleId } = await setUp("two");
    await ingest(first.baseUrl, key, 20, true);
    await waitFor(
      "the firing webhook",
      () => receiver.forRule(ruleId),
      (r) => r.length >= 1,
    );
    await ingest(second.baseUrl, key, 60, false);
    await waitFor(
      "the resolved webhook",
      () => receiver.forRule(ruleId),
      (r) => r.length >= 2,
    );
    await settle();
    expect(receiver.forRule(ruleId).map((r) => r.json.state)).toEqual(["firing", "resolved"]);
    const { rows } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM alert_delivery_attempts a JOIN alert_deliveries d ON d.id = a.delivery_id WHERE d.rule_id = $1",
      [ruleId],
    );
    expect(rows[0]?.n).toBe(2);
  });

  it("a muted rule records its firing but sends it only once the mute has ended", async () => {
    const server = servers[0] as AppServer;
    const { key, ruleId } = await setUp("muted");
    const until = new Date(Date.now() + 8_000);
    await db.query("UPDATE alert_rules SET muted_until = $2 WHERE id = $1", [ruleId, until]);
    await ingest(server.baseUrl, key, 20, true);
    const { rows } = await waitFor(
      "the muted firing",
      () => db.query("SELECT muted, at FROM alert_events WHERE rule_id = $1", [ruleId]),
      (result) => result.rows.length > 0,
    );
    expect(rows[0].muted).toBe(true);
    expect(rows[0].at.getTime()).toBeLessThan(until.getTime());
    expect(receiver.forRule(ruleId)).toEqual([]);
    const [sent] = await waitFor(
      "the firing after the mute",
      () => receiver.forRule(ruleId),
      (r) => r.length >= 1,
    );
    expect(Date.now()).toBeGreaterThanOrEqual(until.getTime());
    expect(sent?.json.state).toBe("firing");
    await settle();
    expect(receiver.forRule(ruleId)).toHaveLength(1);
  });

  it("a receiver that is down gets the delivery when it returns; every attempt is logged", async () => {
    const server = servers[0] as AppServer;
    const { key, ruleId, secret } = await setUp("down");
    await receiver.stop();
    await ingest(server.baseUrl, key, 20, true);
    const failed = await waitFor(
      "two failed attempts",
      async () =>
        (
          await db.query(
            "SELECT a.* FROM alert_delivery_attempts a JOIN alert_deliveries d ON d.id = a.delivery_id WHERE d.rule_id = $1 ORDER BY attempt",
            [ruleId],
          )
        ).rows,
      (rows) => rows.length >= 2,
    );
    for (const attempt of failed) {
      expect(attempt.status_code).toBeNull();
      expect(attempt.error).toMatch(/fetch failed|ECONNREFUSED/);
      expect(attempt.next_attempt_at).not.toBeNull();
    }
    await receiver.start();
    const [delivered] = await waitFor(
      "the firing webhook",
      () => receiver.forRule(ruleId),
      (r) => r.length >= 1,
    );
    expectSigned(delivered as Received, secret);
    await settle();
    expect(receiver.forRule(ruleId)).toHaveLength(1);
    const { rows: attempts } = await db.query(
      "SELECT a.attempt, a.status_code, a.latency_ms, a.error FROM alert_delivery_attempts a JOIN alert_deliveries d ON d.id = a.delivery_id WHERE d.rule_id = $1 ORDER BY attempt",
      [ruleId],
    );
    expect(attempts.map((a) => a.attempt)).toEqual(attempts.map((_, i) => i + 1));
    expect(attempts.at(-1)).toMatchObject({ status_code: 204, error: null });
    for (const attempt of attempts) expect(attempt.latency_ms).toBeGreaterThanOrEqual(0);
    const { rows: delivery } = await db.query(
      "SELECT status, attempts FROM alert_deliveries WHERE rule_id = $1",
      [ruleId],
    );
    expect(delivery).toEqual([{ status: "delivered", attempts: attempts.length }]);
  });

  it("a server killed between the firing and its delivery delivers it once after a restart", async () => {
    const { key, ruleId } = await setUp("restart");
    await receiver.stop();
    await ingest((servers[0] as AppServer).baseUrl, key, 20, true);
    await waitFor(
      "the firing transition",
      () => events(ruleId),
      (kinds) => kinds.includes("firing"),
    );
    // Every server dies at once (no graceful stop); the delivery is left pending.
    for (const server of servers.splice(0)) server.child.kill("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { rows: pending } = await db.query(
      "SELECT status FROM alert_deliveries WHERE rule_id = $1",
      [ruleId],
    );
    expect(pending).toEqual([{ status: "pending" }]);
    await receiver.start();
    await startServer();
    // The kill may land inside an attempt, between its claim and its record: the delivery is
    // then held by the dead process's lease (send timeout + grace) before anyone retries it.
    const leaseMs = Number(ALERT_ENV.ROUTELENS_ALERTS_TIMEOUT_MS) + CLAIM_GRACE_MS;
    await waitFor(
      "the firing webhook",
      () => receiver.forRule(ruleId),
      (r) => r.length >= 1,
      leaseMs + 30_000,
    );
    await settle();
    expect(receiver.forRule(ruleId).map((r) => r.json.state)).toEqual(["firing"]);
    expect(await events(ruleId)).toEqual(["firing"]);
  }, 120_000);
});
