/**
 * One tenant's poison among another tenant's traffic, as it was measured against a
 * production build: 60 requests of an attacking tenant, each 99 valid decisions and one
 * poison — a timestamp PostgreSQL cannot store (year 0, year 1 at +01:00, 9999-12-31 at
 * -01:00) or dropped_tokens of 2^53 - 1, whose sums overflow a bigint — sent four at a time
 * while a bystander tenant sends 100-event batches. Before, the poison failed whole
 * group-commit transactions: 58 of the 60 requests and 125 bystander batches answered 500 and
 * no valid neighbour was stored. Now only the poison event is refused.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createApiKey } from "@/lib/keys";
import type { ToolRoutingDecision } from "@/lib/schemas/events";
import { decisionEvent } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";
import { rollupDifferences } from "../support/rollup-sums";

const baseUrl = inject("baseUrl");
const stamp = Date.now();
const attacker = `poison-a-${stamp}`;
const bystander = `poison-b-${stamp}`;
const ATTACKER_REQUESTS = 60;
const BYSTANDER_BATCHES = 30;
const POISONS: { field: "timestamp" | "dropped_tokens"; value: string | number }[] = [
  { field: "timestamp", value: "0000-01-01T00:00:00Z" },
  { field: "timestamp", value: "0001-01-01T00:00:00+01:00" },
  { field: "timestamp", value: "9999-12-31T23:59:59-01:00" },
  { field: "dropped_tokens", value: Number.MAX_SAFE_INTEGER },
];

let db: pg.Client;
let attackerKey: string;
let bystanderKey: string;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
  attackerKey = (await createApiKey(attacker)).key;
  bystanderKey = (await createApiKey(bystander)).key;
});

afterAll(async () => {
  await db.end();
});

interface Answer {
  successes: { id: string; status: number }[];
  errors: { id: string | null; index: number; status: number; message: string }[];
}

const decisions = (count: number, run: string): ToolRoutingDecision[] =>
  Array.from({ length: count }, (_, i) =>
    decisionEvent({
      run_id: `${run}-${i % 10}`,
      iteration: Math.floor(i / 10),
      offered: ["search_docs", "run_sql", "send_email"],
      selected: ["search_docs"],
      dropped_tokens: 100 + i,
      timestamp: new Date(Date.now() - 60_000 - i * 1_000).toISOString(),
    }),
  );

describe("poison events of one tenant among another tenant's traffic", () => {
  it("refuse only the poison: every bystander batch 200, every valid neighbour stored once, rollups exact", async () => {
    const attackerBatches = Array.from({ length: ATTACKER_REQUESTS }, (_, r) => {
      const events: ToolRoutingDecision[] = decisions(100, `attack-${stamp}-${r}`);
      const at = (r * 37) % 100;
      const poison = POISONS[r % POISONS.length] as (typeof POISONS)[number];
      events[at] = { ...(events[at] as ToolRoutingDecision), [poison.field]: poison.value };
      return { events, at, poison };
    });
    const bystanderBatches = Array.from({ length: BYSTANDER_BATCHES }, (_, b) =>
      decisions(100, `bystander-${stamp}-${b}`),
    );

    const attackerAnswers: { status: number; body: Answer }[] = [];
    const bystanderStatuses: number[] = [];
    let nextAttack = 0;
    let nextBystander = 0;
    const attackWorker = async () => {
      while (nextAttack < attackerBatches.length) {
        const batch = attackerBatches[nextAttack++] as (typeof attackerBatches)[number];
        const response = await postBatch(baseUrl, attackerKey, batch.events);
        attackerAnswers.push({ status: response.status, body: await response.json() });
      }
    };
    const bystanderWorker = async () => {
      while (nextBystander < bystanderBatches.length) {
        const response = await postBatch(baseUrl, bystanderKey, bystanderBatches[nextBystander++]);
        bystanderStatuses.push(response.status);
        await response.arrayBuffer();
      }
    };
    await Promise.all([
      ...Array.from({ length: 4 }, attackWorker),
      ...Array.from({ length: 2 }, bystanderWorker),
    ]);

    expect(bystanderStatuses).toEqual(Array(BYSTANDER_BATCHES).fill(200));
    expect(attackerAnswers.map((a) => a.status)).toEqual(Array(ATTACKER_REQUESTS).fill(207));
    // Each answer refuses exactly the poison event, naming its field.
    const refused = attackerAnswers.flatMap((a) => a.body.errors);
    expect(refused).toHaveLength(ATTACKER_REQUESTS);
    const poisonIds = new Map(
      attackerBatches.map((b) => [(b.events[b.at] as ToolRoutingDecision).event_id, b]),
    );
    for (const error of refused) {
      const batch = poisonIds.get(error.id ?? "");
      expect(batch, JSON.stringify(error)).toBeDefined();
      expect(error.status).toBe(400);
      expect(error.index).toBe(batch?.at);
      expect(error.message).toMatch(
        new RegExp(`^batch\\[${batch?.at}\\]\\.${batch?.poison.field}: `),
      );
    }
    expect(attackerAnswers.reduce((n, a) => n + a.body.successes.length, 0)).toBe(
      ATTACKER_REQUESTS * 99,
    );

    const { rows } = await db.query<{ tenant_id: string; n: number; ids: number }>(
      `SELECT tenant_id, count(*)::int AS n, count(DISTINCT event_id)::int AS ids
         FROM decisions WHERE tenant_id = ANY($1) GROUP BY tenant_id ORDER BY tenant_id`,
      [[attacker, bystander]],
    );
    expect(rows).toEqual([
      { tenant_id: attacker, n: ATTACKER_REQUESTS * 99, ids: ATTACKER_REQUESTS * 99 },
      { tenant_id: bystander, n: BYSTANDER_BATCHES * 100, ids: BYSTANDER_BATCHES * 100 },
    ]);
    const stored = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM decisions WHERE tenant_id = $1 AND event_id = ANY($2)",
      [attacker, [...poisonIds.keys()]],
    );
    expect(stored.rows[0]?.n).toBe(0);
    expect(await rollupDifferences(db, attacker)).toEqual([]);
    expect(await rollupDifferences(db, bystander)).toEqual([]);
  });
});
