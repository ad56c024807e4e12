/**
 * The outcome join that ingest leaves to the database — an outcome arriving in a later
 * transaction than its decision — pairs the rows there and finds the harmful tools in the
 * server, from the decision's tool list. A server process usually knows that list (it stored
 * decisions offering it); when it does not (another process stored the decision, or the
 * process started since, or lists were deleted since), it reads the list once. Both ways must
 * store what a join in memory stores.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { inTransactionOn } from "@/lib/db/transaction";
import { toDecisionRow, toOutcomeRow } from "@/lib/ingest/events";
import { openPaletteDeletion, resolvePalettes, toolsOfPalettes } from "@/lib/ingest/palettes";
import { storeEvents } from "@/lib/ingest/store";
import { decisionEvent, outcomeFor } from "@/lib/telemetry/events";
import { deleteTenantRows } from "../support/tenant-rows";

const TENANT = `join-${Date.now().toString(36)}`;
const T0 = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;
const OFFERED = ["search_orders", "refund_order", "create_ticket", "escalate"];

let client: pg.Client;

beforeAll(async () => {
  client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
});

afterAll(async () => {
  await deleteTenantRows(client, TENANT);
  await client.end();
});

/**
 * A decision of run `run` that kept `selected` (only search_orders unless given), and an outcome
 * that called `called`.
 */
function pair(run: string, called: string[], selected = ["search_orders"]) {
  const decision = decisionEvent({
    event_id: `${run}-decision`,
    run_id: run,
    iteration: 0,
    timestamp: new Date(T0).toISOString(),
    offered: OFFERED,
    selected,
    dropped_tokens: selected.length < OFFERED.length ? 30 : 0,
  });
  const outcome = outcomeFor(decision, called, {
    event_id: `${run}-outcome`,
    timestamp: new Date(T0 + 500).toISOString(),
  });
  return {
    decision: { kind: "decision" as const, row: toDecisionRow(TENANT, decision) },
    outcome: { kind: "outcome" as const, row: toOutcomeRow(TENANT, outcome) },
  };
}

async function storedJoin(run: string) {
  const { rows } = await client.query(
    `SELECT j.called, j.harmful_tools
       FROM decisions d JOIN decision_outcomes j
         ON j.tenant_id = d.tenant_id AND j.decision_id = d.id AND j.ts = d.ts
      WHERE d.tenant_id = $1 AND d.run_id = $2`,
    [TENANT, run],
  );
  return rows;
}

async function runHarmfulDrops(run: string) {
  const { rows } = await client.query(
    "SELECT harmful_drops::int FROM runs WHERE tenant_id = $1 AND run_id = $2",
    [TENANT, run],
  );
  return rows[0]?.harmful_drops;
}

describe("the outcome join left to the database", () => {
  it("joins a decision stored without its selected list (it kept all it was offered) as one that kept them all", async () => {
    // The same names in the same order, not the same array: stored as NULL all the same.
    const keptAll = (run: string) => pair(run, ["refund_order", "escalate"], [...OFFERED]);
    const together = keptAll("kept-all-together");
    await storeEvents(TENANT, [together.decision, together.outcome]);
    const apart = keptAll("kept-all-apart");
    await storeEvents(TENANT, [apart.decision]);
    await storeEvents(TENANT, [apart.outcome]);

    const { rows } = await client.query(
      "SELECT run_id, selected FROM decisions WHERE tenant_id = $1 AND run_id LIKE 'kept-all-%' ORDER BY run_id",
      [TENANT],
    );
    expect(rows).toEqual([
      { run_id: "kept-all-apart", selected: null },
      { run_id: "kept-all-together", selected: null },
    ]);
    // Nothing was dropped, so nothing called was a harmful drop, joined here or in the database.
    const expected = [{ called: ["refund_order", "escalate"], harmful_tools: [] }];
    expect(await storedJoin("kept-all-together")).toEqual(expected);
    expect(await storedJoin("kept-all-apart")).toEqual(expected);
    expect(await runHarmfulDrops("kept-all-apart")).toBe(0);
  });

  it("stores what a join in memory stores: called tools, harmful ones in code point order", async () => {
    const together = pair("together", [
      "search_orders",
      "refund_order",
      "escalate",
      "refund_order",
    ]);
    await storeEvents(TENANT, [together.decision, together.outcome]);
    const apart = pair("apart", ["search_orders", "refund_order", "escalate", "refund_order"]);
    await storeEvents(TENANT, [apart.decision]);
    await storeEvents(TENANT, [apart.outcome]);

    const expected = [
      {
        called: ["search_orders", "refund_order", "escalate", "refund_order"],
        harmful_tools: ["escalate", "refund_order"],
      },
    ];
    expect(await storedJoin("together")).toEqual(expected);
    expect(await storedJoin("apart")).toEqual(expected);
    expect(await runHarmfulDrops("apart")).toBe(2);
  });

  it("reads a tool list this process no longer remembers, and joins with it", async () => {
    const { decision, outcome } = pair("forgotten", ["create_ticket"]);
    await storeEvents(TENANT, [decision]);
    // A deletion of tool lists (what `npm run prune` opens) makes every process forget the
    // lists it remembers; nothing is deleted here.
    const pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });
    try {
      await inTransactionOn(pool, (tx) => openPaletteDeletion(tx));
    } finally {
      await pool.end();
    }
    await storeEvents(TENANT, [outcome]);

    expect(await storedJoin("forgotten")).toEqual([
      { called: ["create_ticket"], harmful_tools: ["create_ticket"] },
    ]);
    expect(await runHarmfulDrops("forgotten")).toBe(1);
    const { rows } = await client.query(
      `SELECT sum(harmful_drops)::int AS harmful, sum(called)::int AS called
         FROM tool_rollup_hour WHERE tenant_id = $1 AND tool = 'create_ticket'`,
      [TENANT],
    );
    // create_ticket was called once in "forgotten", never in the first test's runs.
    expect(rows[0]).toEqual({ harmful: 1, called: 1 });
  });

  it("answers every list it was asked for, known or read, when the process forgets its lists meanwhile", async () => {
    // A list this process knows: it stored a decision offering it.
    const { decision } = pair("known-list", []);
    await storeEvents(TENANT, [decision]);
    const { rows: lists } = await client.query<{ id: string; tools: string[] }>(
      "SELECT id::text, tools FROM palettes WHERE tenant_id = $1",
      [TENANT],
    );
    const known = lists.find((list) => list.tools.join() === OFFERED.join());
    // A list it has never seen.
    const { rows: added } = await client.query<{ id: string }>(
      `INSERT INTO palettes (tenant_id, hash, tools, last_day)
       VALUES ($1, '\\x02', '{audit_log,export_csv}', '2100-01-01') RETURNING id::text`,
      [TENANT],
    );
    const unseen = added[0]?.id as string;
    expect(known).toBeDefined();

    const asked = toolsOfPalettes(client, [
      { tenant_id: TENANT, palette_id: known?.id as string },
      { tenant_id: TENANT, palette_id: unseen },
    ]);
    // While the unseen list is read, another transaction sees a deletion count of its own and
    // makes the process forget every list it knows.
    await resolvePalettes(client as unknown as pg.PoolClient, [], "another deletion count");
    const toolsOf = await asked;

    expect(toolsOf(TENANT, known?.id as string)).toEqual(OFFERED);
    expect(toolsOf(TENANT, unseen)).toEqual(["audit_log", "export_csv"]);
  });
});
