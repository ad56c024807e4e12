/**
 * Fair sharing of ingest (docs/LIMITS.md) against the real server: a tenant whose admin-set
 * limits are low floods `/api/ingest` at full speed while another tenant sends 200 events/s;
 * the second one loses nothing, the first gets 429s with Retry-After, and every event the
 * flooder was answered 200 for is stored exactly once (a refused batch stores nothing). An
 * admin's change of a tenant's limits applies to its next request, on both endpoints. How fast
 * the second tenant is answered meanwhile is measured by `npm run bench:fair-share`.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { setTenantLimits } from "@/lib/ingest/limit-settings";
import { createApiKey } from "@/lib/keys";
import { NO_OVERRIDES } from "@/lib/schemas/ingest-limits";
import { decisionEvent } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";

const baseUrl = inject("baseUrl");
const stamp = Date.now();
let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
});

afterAll(async () => {
  await db.end();
});

async function storedDecisions(tenant: string, ids?: string[]): Promise<number> {
  const { rows } = ids
    ? await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM decisions WHERE tenant_id = $1 AND event_id = ANY($2)",
        [tenant, ids],
      )
    : await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM decisions WHERE tenant_id = $1",
        [tenant],
      );
  return rows[0]?.n ?? 0;
}

const batchOf = (size: number, run: string) =>
  Array.from({ length: size }, (_, iteration) => decisionEvent({ run_id: run, iteration }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A whole number of seconds of at least 1, as Retry-After must be. */
function retryAfterOf(response: Response): number {
  const header = response.headers.get("retry-after");
  expect(header).toMatch(/^[1-9][0-9]*$/);
  return Number(header);
}

describe("one tenant floods, another sends 200 events/s", () => {
  const flooder = `fair-flood-${stamp}`;
  const steady = `fair-steady-${stamp}`;

  it("the steady tenant loses nothing; the flooder gets 429s and stores each answered event once", async () => {
    const flooderKey = (await createApiKey(flooder)).key;
    const steadyKey = (await createApiKey(steady)).key;
    // The flooder's admin-set limits, low enough to be reached however slow the machine; the
    // steady tenant keeps the defaults.
    await setTenantLimits(flooder, {
      ...NO_OVERRIDES,
      tenantEventsPerSecond: 100,
      tenantBurst: 250,
      tenantConcurrentRequests: 4,
    });

    const durationMs = 3_000;
    const until = Date.now() + durationMs;
    const accepted: string[] = [];
    const refusals: { retryAfter: number; error: string }[] = [];
    const otherStatuses: number[] = [];
    let flooderRequests = 0;

    // 8 clients of the flooder, each sending its next batch of 250 as soon as the last is
    // answered, without waiting for any Retry-After.
    const flood = async (worker: number) => {
      for (let n = 0; Date.now() < until; n++) {
        const batch = batchOf(250, `flood-${worker}-${n}`);
        const response = await postBatch(baseUrl, flooderKey, batch);
        flooderRequests++;
        if (response.status === 200) {
          accepted.push(...batch.map((event) => event.event_id));
        } else if (response.status === 429) {
          const body = (await response.json()) as { error: string };
          refusals.push({ retryAfter: retryAfterOf(response), error: body.error });
        } else {
          otherStatuses.push(response.status);
        }
        if (!response.bodyUsed) await response.body?.cancel();
      }
    };

    // The steady tenant: a batch of 20 every 100 ms, sent on schedule whatever the answers.
    const steadySent: string[] = [];
    const steadyStatuses: number[] = [];
    const steadyRequests: Promise<void>[] = [];
    const steadyClient = async () => {
      const start = Date.now();
      for (let n = 0; n < durationMs / 100; n++) {
        await sleep(Math.max(0, start + n * 100 - Date.now()));
        const batch = batchOf(20, `steady-${n}`);
        steadySent.push(...batch.map((event) => event.event_id));
        steadyRequests.push(
          postBatch(baseUrl, steadyKey, batch).then(async (response) => {
            steadyStatuses.push(response.status);
            await response.body?.cancel();
          }),
        );
      }
      await Promise.all(steadyRequests);
    };

    await Promise.all([...Array.from({ length: 8 }, (_, w) => flood(w)), steadyClient()]);

    // The steady tenant: every batch answered 200, every event stored once.
    expect(steadyStatuses).toHaveLength(30);
    expect(steadyStatuses.every((status) => status === 200)).toBe(true);
    expect(await storedDecisions(steady)).toBe(steadySent.length);
    expect(steadySent).toHaveLength(600);

    // The flooder: refused with 429 and a whole-second Retry-After that names its limit.
    expect(otherStatuses).toEqual([]);
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.length + accepted.length / 250).toBe(flooderRequests);
    const byRate = refusals.filter((r) => r.error.includes("100 events per second (burst 250)"));
    const byConcurrency = refusals.filter((r) => r.error.includes("4 ingest requests in progress"));
    expect(byRate.length).toBeGreaterThan(0);
    expect(byRate.length + byConcurrency.length).toBe(refusals.length);
    for (const refusal of refusals) {
      expect(refusal.error).toContain(`Tenant "${flooder}"`);
      expect(refusal.error).toContain("Retry after");
    }
    // Admitted: the burst, then at most the rate over the run and its last answers.
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThanOrEqual(250 + (durationMs / 1000 + 5) * 100);
    // Each event answered 200 stored exactly once, and nothing of a refused batch.
    expect(new Set(accepted).size).toBe(accepted.length);
    expect(await storedDecisions(flooder, accepted)).toBe(accepted.length);
    expect(await storedDecisions(flooder)).toBe(accepted.length);
  });
});

describe("limits an admin sets", () => {
  it("apply to the tenant's next request, with Retry-After from the bucket", async () => {
    const tenant = `fair-admin-${stamp}`;
    const key = (await createApiKey(tenant)).key;
    // The defaults admit a batch of 100 at once.
    expect((await postBatch(baseUrl, key, batchOf(100, "a"))).status).toBe(200);

    // 10 events per second, burst 50: a batch of 100 is above the burst, admitted from a full
    // bucket, which then owes 50 (5 s); the next batch is refused before it is read.
    await setTenantLimits(tenant, { ...NO_OVERRIDES, tenantEventsPerSecond: 10, tenantBurst: 50 });
    const first = await postBatch(baseUrl, key, batchOf(100, "b"));
    expect(first.status).toBe(200);
    const refused = await postBatch(baseUrl, key, batchOf(10, "c"));
    expect(refused.status).toBe(429);
    // Taken to be as large as the last batch (100, at most the burst of 50): the debt of 50
    // and 50 more at 10/s, 10 s less the time since.
    const wait = retryAfterOf(refused);
    expect(wait).toBeGreaterThanOrEqual(9);
    expect(wait).toBeLessThanOrEqual(10);
    const body = (await refused.json()) as { error: string };
    expect(body.error).toContain(
      `Tenant "${tenant}" is over its ingest limit of 10 events per second (burst 50)`,
    );
    expect(body.error).toContain("nothing of it was stored");
    expect(body.error).toContain("An admin can change the tenant's limits");
    expect(await storedDecisions(tenant)).toBe(200);

    // Back to the defaults: the next request looked up a second after the last one is
    // admitted, long before the 10 s the old limit asked for.
    await setTenantLimits(tenant, NO_OVERRIDES);
    await sleep(1_100);
    expect((await postBatch(baseUrl, key, batchOf(100, "d"))).status).toBe(200);
    expect(await storedDecisions(tenant)).toBe(300);
  });

  it("refuse a tenant's requests beyond its concurrent requests, storing none of them", async () => {
    const tenant = `fair-concurrent-${stamp}`;
    const key = (await createApiKey(tenant)).key;
    await setTenantLimits(tenant, { ...NO_OVERRIDES, tenantConcurrentRequests: 1 });
    const batches = Array.from({ length: 8 }, (_, n) => batchOf(500, `c-${n}`));
    const responses = await Promise.all(batches.map((batch) => postBatch(baseUrl, key, batch)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    const refused = responses.filter((response) => response.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const response of refused) {
      expect(retryAfterOf(response)).toBe(1);
      const body = (await response.json()) as { error: string };
      expect(body.error).toContain(
        `Tenant "${tenant}" already has 1 ingest requests in progress on this server`,
      );
    }
    const admitted = batches.filter((_, n) => statuses[n] === 200).flat();
    expect(
      await storedDecisions(
        tenant,
        admitted.map((event) => event.event_id),
      ),
    ).toBe(admitted.length);
    expect(await storedDecisions(tenant)).toBe(admitted.length);
  });

  it("give each key of the tenant its own bucket", async () => {
    const tenant = `fair-keys-${stamp}`;
    const key = (await createApiKey(tenant)).key;
    const otherKey = (await createApiKey(tenant)).key;
    await setTenantLimits(tenant, { ...NO_OVERRIDES, keyEventsPerSecond: 5, keyBurst: 20 });
    expect((await postBatch(baseUrl, key, batchOf(20, "a"))).status).toBe(200);
    const refused = await postBatch(baseUrl, key, batchOf(10, "b"));
    expect(refused.status).toBe(429);
    // Refused before it is read, taken to be as large as the key's last batch: 20 tokens at
    // 5/s, 4 s.
    expect(retryAfterOf(refused)).toBe(4);
    const body = (await refused.json()) as { error: string };
    expect(body.error).toMatch(
      new RegExp(
        `^API key rl_\\S+… of tenant "${tenant}" is over its ingest limit of 5 events per second \\(burst 20\\)`,
      ),
    );
    expect((await postBatch(baseUrl, otherKey, batchOf(20, "c"))).status).toBe(200);
    expect(await storedDecisions(tenant)).toBe(40);
  });

  it("apply to OTLP exports, refused with a google.rpc.Status and nothing stored", async () => {
    const tenant = `fair-otlp-${stamp}`;
    const key = (await createApiKey(tenant)).key;
    await setTenantLimits(tenant, { ...NO_OVERRIDES, tenantEventsPerSecond: 1, tenantBurst: 2 });
    const exportOf = (spans: number) => {
      const traceId = randomBytes(16).toString("hex");
      const start = BigInt(Date.now()) * 1_000_000n;
      return JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [{ key: "service.name", value: { stringValue: "fair" } }] },
            scopeSpans: [
              {
                scope: { name: "ai" },
                spans: Array.from({ length: spans }, () => ({
                  traceId,
                  spanId: randomBytes(8).toString("hex"),
                  name: "ai.generateText.doGenerate",
                  startTimeUnixNano: String(start),
                  endTimeUnixNano: String(start + 5_000_000n),
                  attributes: [
                    { key: "ai.telemetry.functionId", value: { stringValue: "fair-agent" } },
                    { key: "ai.model.id", value: { stringValue: "mock-model" } },
                  ],
                })),
              },
            ],
          },
        ],
      });
    };
    const send = (body: string) =>
      fetch(`${baseUrl}/api/otlp/v1/traces`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
        body,
      });
    const countSpans = async () =>
      (
        await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM otel_spans WHERE tenant_id = $1",
          [tenant],
        )
      ).rows[0]?.n ?? 0;

    // Five spans from a full bucket of 2: admitted, 3 owed; the next export needs 2 more.
    expect((await send(exportOf(5))).status).toBe(200);
    const stored = await countSpans();
    const refused = await send(exportOf(1));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/json");
    const wait = retryAfterOf(refused);
    expect(wait).toBeGreaterThanOrEqual(4);
    expect(wait).toBeLessThanOrEqual(5);
    const status = (await refused.json()) as { code: number; message: string };
    expect(status.code).toBe(8); // RESOURCE_EXHAUSTED
    expect(status.message).toContain(
      `Tenant "${tenant}" is over its ingest limit of 1 events per second (burst 2)`,
    );
    expect(await countSpans()).toBe(stored);
  });
});
