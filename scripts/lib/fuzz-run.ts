/**
 * Sends the requests of scripts/lib/fuzz-requests.ts from two tenants at once over real HTTP
 * and checks what the product answered and stored. Shared by `npm run fuzz` and
 * tests/integration/fuzz.test.ts.
 *
 * Checks, each failure described in one line:
 * - no answer is a 5xx (a 503 or 429 with Retry-After is a request to come back: its valid
 *   events are sent again later, like any refused request's);
 * - a request that must be refused as a whole gets a 4xx; a judged one gets 200 or 207;
 * - in a judged answer every valid event is among the successes and no invalid one is;
 * - afterwards (once every valid event of a refused request has been sent again in a clean
 *   batch) every valid event is stored exactly once, no event id is stored twice, every event
 *   reported stored is stored, and no event that was never reported stored is.
 * Whether the rollups equal the sums of the raw rows is checked by the caller.
 */
import type pg from "pg";
import { type FuzzEvent, FuzzGenerator, type FuzzRequest, stringify } from "./fuzz-requests";

export interface FuzzTarget {
  baseUrl: string;
  /** The two tenants and their keys. */
  tenants: readonly [{ id: string; key: string }, { id: string; key: string }];
  db: pg.Client | pg.Pool;
}

export interface FuzzReport {
  requests: number;
  statuses: Record<string, number>;
  /** Events tracked by id, and how many of them ended up stored. */
  events: number;
  stored: number;
  failures: string[];
}

const MAX_FAILURES_KEPT = 50;
const RETRY_STATUSES = new Set([429, 503]);

interface Tracked {
  expect: FuzzEvent["expect"];
  mutations: Set<string>;
  reportedStored: boolean;
}

export async function runFuzz({
  target,
  seed,
  requests,
  concurrency = 4,
  now = new Date(),
  keyMutations = true,
  onProgress,
}: {
  target: FuzzTarget;
  seed: number;
  /** Requests in all, half from each tenant. */
  requests: number;
  /** Requests in flight per tenant. */
  concurrency?: number;
  now?: Date;
  /** Requests with a wrong or no key (see FuzzOptions). */
  keyMutations?: boolean;
  onProgress?: (sent: number) => void;
}): Promise<FuzzReport> {
  const tenantIds = [target.tenants[0].id, target.tenants[1].id] as const;
  const failures: string[] = [];
  const fail = (line: string) => {
    if (failures.length < MAX_FAILURES_KEPT) failures.push(line);
  };
  const statuses: Record<string, number> = {};
  const tracked = [new Map<string, Tracked>(), new Map<string, Tracked>()];
  const resend: unknown[][] = [[], []];
  let sent = 0;

  const track = (tenant: number, event: FuzzEvent): Tracked | null => {
    if (event.eventId === null) return null;
    const map = tracked[tenant] as Map<string, Tracked>;
    let entry = map.get(event.eventId);
    if (!entry) {
      entry = { expect: event.expect, mutations: new Set(), reportedStored: false };
      map.set(event.eventId, entry);
    } else if (event.expect === "valid") {
      entry.expect = "valid";
    }
    entry.mutations.add(event.mutation);
    return entry;
  };

  async function send(request: FuzzRequest): Promise<void> {
    const headers = { ...request.headers };
    const own = target.tenants[request.tenant] as { key: string };
    if (request.key === "own") headers.Authorization = `Bearer ${own.key}`;
    if (request.key === "wrong") headers.Authorization = "Bearer rl_fuzz-wrong-key";
    const where = `seed ${seed}, tenant ${request.tenant}, request mutation "${request.mutation}"`;
    let response: Response;
    try {
      response = await fetch(`${target.baseUrl}/api/ingest`, {
        method: "POST",
        headers,
        body: request.body,
      });
    } catch (error) {
      fail(`${where}: no answer (${(error as Error).message})`);
      for (const event of request.events) track(request.tenant, event);
      return;
    }
    const status = response.status;
    statuses[status] = (statuses[status] ?? 0) + 1;
    const text = await response.text();
    for (const event of request.events) track(request.tenant, event);
    if (status >= 500 && status !== 503) {
      fail(`${where}: answered ${status} ${text.slice(0, 300)}`);
      return;
    }
    if (status !== 200 && status !== 207) {
      if (request.expect === "judged" && !RETRY_STATUSES.has(status)) {
        fail(`${where}: expected 200 or 207, got ${status} ${text.slice(0, 300)}`);
      }
      if (RETRY_STATUSES.has(status) && !response.headers.get("retry-after")) {
        fail(`${where}: ${status} without Retry-After`);
      }
      // Nothing of a refused request is stored: its valid events go again, in a clean batch.
      for (const event of request.events) {
        if (event.expect === "valid") (resend[request.tenant] as unknown[]).push(event.value);
      }
      return;
    }
    if (request.expect === "refused") {
      fail(`${where}: must be refused as a whole, got ${status} ${text.slice(0, 300)}`);
    }
    let body: { successes?: { id: string; status: number }[] };
    try {
      body = JSON.parse(text);
    } catch {
      fail(`${where}: ${status} with a body that is not JSON: ${text.slice(0, 200)}`);
      return;
    }
    const succeeded = new Set((body.successes ?? []).map((s) => s.id));
    for (const id of succeeded) {
      const entry = (tracked[request.tenant] as Map<string, Tracked>).get(id);
      if (entry) entry.reportedStored = true;
    }
    for (const event of request.events) {
      if (event.eventId === null) continue;
      if (event.expect === "valid" && !succeeded.has(event.eventId)) {
        fail(
          `${where}: valid event "${event.mutation}" (${event.eventId}) not among the successes`,
        );
      }
      if (event.expect === "invalid" && succeeded.has(event.eventId)) {
        fail(`${where}: invalid event "${event.mutation}" (${event.eventId}) reported stored`);
      }
    }
  }

  async function tenantLoop(tenant: number): Promise<void> {
    const generator = new FuzzGenerator({ seed, tenants: tenantIds, now, keyMutations }, tenant);
    const share = tenant === 0 ? Math.ceil(requests / 2) : Math.floor(requests / 2);
    let taken = 0;
    const worker = async () => {
      while (taken < share) {
        taken++;
        await send(generator.next());
        sent++;
        if (sent % 500 === 0) onProgress?.(sent);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }
  await Promise.all([tenantLoop(0), tenantLoop(1)]);

  // Every valid event of a refused request, again, in clean batches until each is stored.
  for (const tenant of [0, 1]) {
    const queue = resend[tenant] as unknown[];
    for (let attempt = 0; queue.length > 0 && attempt < 20; attempt++) {
      const batch = queue.splice(0, 500);
      const response = await fetch(`${target.baseUrl}/api/ingest`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${(target.tenants[tenant] as { key: string }).key}`,
          "Content-Type": "application/json",
        },
        body: stringify({ batch }),
      });
      const text = await response.text();
      if (response.status === 200 || response.status === 207) {
        const body = JSON.parse(text) as {
          successes: { id: string }[];
          errors?: { id: string | null; message: string }[];
        };
        for (const { id } of body.successes) {
          const entry = (tracked[tenant] as Map<string, Tracked>).get(id);
          if (entry) entry.reportedStored = true;
        }
        for (const error of body.errors ?? []) {
          fail(
            `re-sending valid events of tenant ${tenant}: ${error.id} refused: ${error.message}`,
          );
        }
      } else if (RETRY_STATUSES.has(response.status)) {
        queue.push(...batch);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      } else {
        fail(
          `re-sending ${batch.length} valid events of tenant ${tenant}: ${response.status} ${text.slice(0, 300)}`,
        );
      }
    }
    if (queue.length > 0)
      fail(`${queue.length} valid events of tenant ${tenant} could not be re-sent`);
  }

  // What is stored, by (tenant, event id).
  const { rows } = await target.db.query<{ tenant_id: string; event_id: string; n: number }>(
    `SELECT tenant_id, event_id, count(*)::int AS n
       FROM (SELECT tenant_id, event_id FROM decisions WHERE tenant_id = ANY($1)
             UNION ALL
             SELECT tenant_id, event_id FROM outcomes WHERE tenant_id = ANY($1)) AS stored
      GROUP BY 1, 2`,
    [tenantIds],
  );
  const storedCount = [new Map<string, number>(), new Map<string, number>()];
  for (const row of rows) {
    (storedCount[tenantIds.indexOf(row.tenant_id)] as Map<string, number>).set(row.event_id, row.n);
  }
  let events = 0;
  let stored = 0;
  for (const tenant of [0, 1]) {
    const counts = storedCount[tenant] as Map<string, number>;
    for (const [id, entry] of tracked[tenant] as Map<string, Tracked>) {
      events++;
      const n = counts.get(id) ?? 0;
      if (n > 0) stored++;
      const what = `tenant ${tenant} event ${id} (${[...entry.mutations].join(", ")})`;
      if (n > 1) fail(`${what}: stored ${n} times`);
      if (entry.expect === "valid" && n !== 1) fail(`${what}: valid, stored ${n} times`);
      if (entry.expect === "invalid" && n > 0) fail(`${what}: invalid, stored`);
      if (entry.reportedStored && n === 0) fail(`${what}: reported stored, not found`);
      if (!entry.reportedStored && n > 0) fail(`${what}: stored, never reported stored`);
    }
    for (const [id] of counts) {
      if (!(tracked[tenant] as Map<string, Tracked>).has(id)) {
        fail(`tenant ${tenant}: event ${id} stored but never sent as a tracked event`);
      }
    }
  }
  return { requests: sent, statuses, events, stored, failures };
}
