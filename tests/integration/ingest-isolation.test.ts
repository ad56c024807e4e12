/**
 * Fault isolation in group commit: an event PostgreSQL refuses fails neither its neighbours
 * nor another request that shared its transaction. Validation already refuses every value
 * known to break storage, so this test makes PostgreSQL refuse events of its own choosing:
 * CHECK constraints added to this run's database (and dropped afterwards) refuse decisions
 * and outcomes whose event id starts with `poison-`, and rollup rows of the role
 * `poison-role` — one failing in COPY, the other in the rollup upsert.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Random } from "@/lib/demo/random";
import { createApiKey } from "@/lib/keys";
import { decisionEvent, outcomeEvent, outcomeFor } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";
import { rollupDifferences } from "../support/rollup-sums";

const baseUrl = inject("baseUrl");
const stamp = Date.now();
const poisoner = `isolation-a-${stamp}`;
const bystander = `isolation-b-${stamp}`;
let db: pg.Client;
let poisonerKey: string;
let bystanderKey: string;

const CONSTRAINTS = [
  ["decisions", "poison_decision_check", "event_id NOT LIKE 'poison-%'"],
  ["outcomes", "poison_outcome_check", "event_id NOT LIKE 'poison-%'"],
  ["rollup_minute", "poison_rollup_check", "role <> 'poison-role'"],
] as const;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
  for (const [table, name, check] of CONSTRAINTS) {
    await db.query(`ALTER TABLE ${table} ADD CONSTRAINT ${name} CHECK (${check}) NOT VALID`);
  }
  poisonerKey = (await createApiKey(poisoner)).key;
  bystanderKey = (await createApiKey(bystander)).key;
});

afterAll(async () => {
  for (const [table, name] of CONSTRAINTS) {
    await db.query(`ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${name}`);
  }
  await db.end();
});

type Event = ReturnType<typeof decisionEvent> | ReturnType<typeof outcomeEvent>;

interface Planned {
  key: string;
  events: Event[];
  /** Indexes PostgreSQL must refuse. */
  poison: Set<number>;
  /** Indexes that repeat an earlier event id of the batch (stored once, answered 200). */
  repeats: Set<number>;
}

function poisonEvent(random: Random, run_id: string): Event {
  switch (random.int(0, 2)) {
    case 0:
      return decisionEvent({ run_id, event_id: `poison-${randomUUID()}` });
    case 1:
      return outcomeEvent({ run_id, event_id: `poison-${randomUUID()}` });
    default:
      return decisionEvent({ run_id, role: "poison-role" });
  }
}

/** A batch of valid decisions and their outcomes, some with poison events and a repeat mixed in. */
function plan(random: Random, key: string, withPoison: boolean): Planned {
  const run_id = `isolation-run-${randomUUID()}`;
  const events: Event[] = [];
  for (let i = 0; events.length < 16; i++) {
    const decision = decisionEvent({
      run_id,
      iteration: i,
      offered: ["search_docs", "create_ticket", "refund_order"],
      selected: ["search_docs"],
      dropped_tokens: random.int(1, 900),
    });
    events.push(decision);
    if (random.chance(0.6))
      events.push(outcomeFor(decision, random.pick([[], ["refund_order"], ["search_docs"]])));
  }
  const poison = new Set<number>();
  const repeats = new Set<number>();
  if (withPoison) {
    for (let p = random.int(1, 3); p > 0; p--) {
      const at = random.int(0, events.length);
      events.splice(at, 0, poisonEvent(random, run_id));
    }
    events.forEach((event, index) => {
      if (event.event_id.startsWith("poison-") || event.role === "poison-role") poison.add(index);
    });
    const original = events.findIndex((_, index) => !poison.has(index));
    repeats.add(events.length);
    events.push(structuredClone(events[original] as Event));
  }
  return { key, events, poison, repeats };
}

interface IngestBody {
  successes: { id: string; status: number }[];
  errors: { id: string | null; index: number; status: number; message: string }[];
}

async function storedIds(tenant: string): Promise<string[]> {
  const { rows } = await db.query<{ event_id: string }>(
    `SELECT event_id FROM decisions WHERE tenant_id = $1
     UNION ALL SELECT event_id FROM outcomes WHERE tenant_id = $1`,
    [tenant],
  );
  return rows.map((r) => r.event_id).sort();
}

function expectedIds(plans: Planned[]): string[] {
  return plans
    .flatMap((p) => p.events.filter((_, i) => !p.poison.has(i) && !p.repeats.has(i)))
    .map((e) => e.event_id)
    .sort();
}

describe("POST /api/ingest: an event PostgreSQL refuses fails no one else", () => {
  it("answers 422 for the poison events only, across concurrent groups from two tenants", async () => {
    const random = new Random(1130);
    const plans: Planned[] = [];
    for (let i = 0; i < 30; i++) {
      plans.push(plan(random, poisonerKey, i % 5 !== 4));
      plans.push(plan(random, bystanderKey, false));
    }
    // Eight requests in flight: the writers' queue fills, so requests of both tenants share
    // transactions.
    const results: { planned: Planned; status: number; body: IngestBody }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < plans.length) {
          const planned = plans[next++] as Planned;
          const response = await postBatch(baseUrl, planned.key, planned.events);
          results.push({ planned, status: response.status, body: await response.json() });
        }
      }),
    );

    for (const { planned, status, body } of results) {
      if (planned.poison.size === 0) {
        expect(status, JSON.stringify(body).slice(0, 500)).toBe(200);
        expect(body.errors).toEqual([]);
      } else {
        expect(status, JSON.stringify(body).slice(0, 500)).toBe(207);
        expect(body.errors.map((e) => e.index)).toEqual([...planned.poison]);
        for (const error of body.errors) {
          expect(error.status).toBe(422);
          expect(error.id).toBe(planned.events[error.index]?.event_id);
          expect(error.message).toMatch(
            new RegExp(
              `^batch\\[${error.index}\\]: the database refused to store this event \\(.*poison_(decision|outcome|rollup)_check`,
            ),
          );
        }
      }
      const expectedSuccesses = planned.events
        .map((event, index) => ({ event, index }))
        .filter(({ index }) => !planned.poison.has(index))
        .map(({ event, index }) => ({
          id: event.event_id,
          status: planned.repeats.has(index) ? 200 : 201,
        }));
      expect(body.successes).toEqual(expectedSuccesses);
    }

    const poisonerPlans = plans.filter((p) => p.key === poisonerKey);
    const bystanderPlans = plans.filter((p) => p.key === bystanderKey);
    expect(await storedIds(poisoner)).toEqual(expectedIds(poisonerPlans));
    expect(await storedIds(bystander)).toEqual(expectedIds(bystanderPlans));
    expect(await rollupDifferences(db, poisoner)).toEqual([]);
    expect(await rollupDifferences(db, bystander)).toEqual([]);

    // Sending a poisoned batch again stores nothing twice and refuses the same events.
    const again = poisonerPlans.find((p) => p.poison.size > 0) as Planned;
    const response = await postBatch(baseUrl, poisonerKey, again.events);
    expect(response.status).toBe(207);
    const body = (await response.json()) as IngestBody;
    expect(body.errors.map((e) => [e.index, e.status])).toEqual(
      [...again.poison].map((index) => [index, 422]),
    );
    expect(body.successes.every((s) => s.status === 200)).toBe(true);
    expect(await storedIds(poisoner)).toEqual(expectedIds(poisonerPlans));
    expect(await rollupDifferences(db, poisoner)).toEqual([]);
  });
});
