/**
 * Event ids are unique per tenant, not globally (SPEC §3: idempotent per tenant): two tenants
 * may send the same `event_id`, and each is stored once for its own tenant.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createApiKey } from "@/lib/keys";
import { decisionEvent, outcomeFor } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";

const baseUrl = inject("baseUrl");
const stamp = Date.now();
const tenants = [`ids-a-${stamp}`, `ids-b-${stamp}`] as const;
let db: pg.Client;
const keys: Record<string, string> = {};

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
  for (const tenant of tenants) keys[tenant] = (await createApiKey(tenant)).key;
});
afterAll(() => db.end());

/** Each tenant's own batch, with event ids shared by both tenants. */
function batchOf(tenant: string, index: number) {
  const decision = decisionEvent({
    event_id: `shared-decision-${stamp}`,
    run_id: `run-${tenant}`,
    offered: ["search_docs", "create_ticket"],
    selected: ["search_docs"],
    dropped_tokens: 100 * (index + 1),
  });
  const outcome = outcomeFor(decision, ["create_ticket"], { event_id: `shared-outcome-${stamp}` });
  return [decision, outcome];
}

async function stored(tenant: string) {
  const { rows } = await db.query(
    `SELECT (SELECT count(*)::int FROM decisions WHERE tenant_id = $1 AND event_id = $2) AS decisions,
            (SELECT count(*)::int FROM outcomes WHERE tenant_id = $1 AND event_id = $3) AS outcomes,
            (SELECT array_agg(run_id) FROM decisions WHERE tenant_id = $1) AS runs,
            (SELECT sum(decisions)::int FROM rollup_minute WHERE tenant_id = $1) AS minute_decisions,
            (SELECT sum(dropped_tokens)::int FROM rollup_hour WHERE tenant_id = $1) AS hour_tokens,
            (SELECT sum(harmful_drops)::int FROM rollup_hour WHERE tenant_id = $1) AS harmful_drops`,
    [tenant, `shared-decision-${stamp}`, `shared-outcome-${stamp}`],
  );
  return rows[0];
}

const statuses = async (response: Response) =>
  ((await response.json()) as { successes: { status: number }[] }).successes.map((s) => s.status);

describe("the same event id from two tenants", () => {
  it("is stored once for each tenant, whichever comes first, and retries change nothing", async () => {
    const [a, b] = tenants;
    // One after the other: the second tenant's events are new for it (201), not duplicates.
    const first = await postBatch(baseUrl, keys[a] ?? "", batchOf(a, 0));
    expect(first.status).toBe(200);
    expect(await statuses(first)).toEqual([201, 201]);
    const second = await postBatch(baseUrl, keys[b] ?? "", batchOf(b, 1));
    expect(second.status).toBe(200);
    expect(await statuses(second)).toEqual([201, 201]);

    // Retries from both tenants at once, so they can share a group commit.
    const retries = await Promise.all(
      Array.from({ length: 6 }, (_, i) => {
        const tenant = tenants[i % 2] as string;
        return postBatch(baseUrl, keys[tenant] ?? "", batchOf(tenant, i % 2));
      }),
    );
    for (const response of retries) {
      expect(response.status).toBe(200);
      expect(await statuses(response)).toEqual([200, 200]);
    }

    expect(await stored(a)).toEqual({
      decisions: 1,
      outcomes: 1,
      runs: [`run-${a}`],
      minute_decisions: 1,
      hour_tokens: 100,
      harmful_drops: 1,
    });
    expect(await stored(b)).toEqual({
      decisions: 1,
      outcomes: 1,
      runs: [`run-${b}`],
      minute_decisions: 1,
      hour_tokens: 200,
      harmful_drops: 1,
    });
  });

  it("is stored for each tenant when both send it in concurrent requests", async () => {
    const id = `concurrent-${stamp}`;
    const responses = await Promise.all(
      tenants.flatMap((tenant) =>
        Array.from({ length: 4 }, () =>
          postBatch(baseUrl, keys[tenant] ?? "", [
            decisionEvent({ event_id: id, run_id: `run-concurrent-${tenant}`, dropped_tokens: 7 }),
          ]),
        ),
      ),
    );
    const perTenant = new Map<string, number[]>();
    for (const [index, response] of responses.entries()) {
      expect(response.status).toBe(200);
      const tenant = tenants[Math.floor(index / 4)] as string;
      perTenant.set(tenant, [...(perTenant.get(tenant) ?? []), ...(await statuses(response))]);
    }
    for (const tenant of tenants) {
      // Exactly one of each tenant's four copies was new to it.
      expect(perTenant.get(tenant)?.filter((status) => status === 201)).toHaveLength(1);
      const { rows } = await db.query(
        "SELECT count(*)::int AS n, min(run_id) AS run FROM decisions WHERE tenant_id = $1 AND event_id = $2",
        [tenant, id],
      );
      expect(rows[0]).toEqual({ n: 1, run: `run-concurrent-${tenant}` });
    }
  });
});
