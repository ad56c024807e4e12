/**
 * The backtest job's reader against real PostgreSQL:
 * - it decides in SQL which stored traces the replay reads, and sends the others as a short
 *   stand-in: for every form a stored trace can take, the replay reads the same inputs from
 *   what the reader sends as from the stored trace itself;
 * - read in slices planned from the minute rollups, several in flight, the window comes back
 *   whole, once, in (ts, id) order: with minutes holding more than a chunk, ties on the same
 *   millisecond, resumed mid-slice, with cuts anywhere, and with no rollups at all.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  type RecordedDecision,
  readRecordedInputs,
  traceNeedsReading,
  UNREAD_TRACE,
} from "@/lib/backtest/replay";
import { WindowReader } from "@/lib/backtest/window-reader";
import {
  type Cursor,
  DecisionTexts,
  openReadConnections,
  planWindow,
  readDecisions,
} from "@/lib/db/queries/backtest-job";
import { toDecisionRow } from "@/lib/ingest/events";
import { storeEvents } from "@/lib/ingest/store";
import { decisionEvent } from "@/lib/telemetry/events";
import { deleteTenantRows } from "../support/tenant-rows";

const TENANT = `bt-reader-${Date.now().toString(36)}`;
const DAY = 86_400_000;
const start = Math.floor(Date.now() / DAY) * DAY - 2 * DAY;
const window = { tenantId: TENANT, roles: [], from: new Date(start), to: new Date(start + DAY) };
const OFFERED = ["search_docs", "refund_order", "send_email"];
const client = new pg.Client({ connectionString: inject("databaseUrl") });

/** Stored traces, by what they hold: as ingest writes them, and as others may have. */
const TRACES: Record<string, string> = {
  "lazy routing selecting":
    '[{"stage":"lazy_routing","action":"select","kept":[0,2],"dropped":[1]},{"stage":"policy","action":"select","kept":[0,2]}]',
  "lazy routing abstaining":
    '[{"stage":"lazy_routing","action":"abstain","kept":[0,1,2],"detail":"no routing resolved"}]',
  "no lazy routing stage":
    '[{"stage":"role_palette","action":"select","kept":[0],"dropped":[1,2]}]',
  "an empty trace": "[]",
  "a degraded role palette":
    '[{"stage":"role_palette","action":"abstain","kept":[0,1,2],"degraded":true}]',
  "lazy routing with its fields in another order":
    '[{"action":"select","stage":"lazy_routing","kept":["refund_order"]}]',
  "lazy routing selecting, with spaces (a hand-written row)":
    '[{"stage": "lazy_routing", "action": "select", "kept": [1]}]',
  "names in full (an older row)":
    '[{"stage":"lazy_routing","action":"select","kept":["send_email"],"dropped":[],"added":[],"reinstated":[],"forced_choice":null,"detail":"","degraded":false}]',
  "not a list": '{"stage":"lazy_routing"}',
  "a JSON null": "null",
  "a text containing an apostrophe":
    '[{"stage":"policy","action":"select","kept":[0],"detail":"the user\'s policy"}]',
};

beforeAll(async () => {
  await client.connect();
  await client.query("INSERT INTO tenants (id) VALUES ($1)", [TENANT]);
  const entries = Object.values(TRACES);
  await client.query(
    `INSERT INTO decisions (tenant_id, event_id, run_id, role, mode, iteration, turn_hop_index,
                            ts, offered_count, selected_count, dropped_count, dropped_tokens,
                            reinstatements, empty_palette_warnings, stage_errors,
                            offered, selected, trace, warnings)
     SELECT $1, 'e-' || n, 'run-1', 'action', 'observe', n, 0, $2::timestamptz + n * interval '1 s',
            3, 3, 0, 0, 0, 0, 0, $3, $3, ($4::text[])[n]::json, '[]'
       FROM generate_series(1, $5::int) AS n`,
    [TENANT, new Date(start), OFFERED, entries, entries.length],
  );
});

afterAll(async () => {
  await deleteTenantRows(client, TENANT);
  await client.end();
});

describe("the backtest job's reader", () => {
  it("sends each trace the replay reads, and a stand-in that reads the same for the others", async () => {
    const read = await readDecisions(window, null, 100);
    const names = Object.keys(TRACES);
    expect(read).toHaveLength(names.length);
    const { rows } = await client.query<{ iteration: number; trace: string }>(
      "SELECT iteration, trace::text AS trace FROM decisions WHERE tenant_id = $1",
      [TENANT],
    );
    const stored = new Map(rows.map((row) => [row.iteration, row.trace]));

    const standIns: string[] = [];
    for (const decision of read) {
      const name = names[decision.iteration - 1];
      const text = stored.get(decision.iteration) as string;
      const asStored: RecordedDecision = { ...decision, trace: text };
      expect(readRecordedInputs(decision), name).toEqual(readRecordedInputs(asStored));
      const readsIt = !text.startsWith("[") || traceNeedsReading(text);
      if (readsIt) {
        expect(decision.trace, name).toBe(text);
      } else {
        expect(Object.values(UNREAD_TRACE), name).toContain(decision.trace);
        standIns.push(name as string);
      }
    }
    expect(standIns.sort()).toEqual(
      [
        "a text containing an apostrophe",
        "an empty trace",
        "lazy routing abstaining",
        "no lazy routing stage",
      ].sort(),
    );
  });
});

describe("a decision that kept all it was offered", () => {
  const KEPT_ALL = `${TENANT}-kept-all`;

  afterAll(() => deleteTenantRows(client, KEPT_ALL));

  it("is stored without its selected list, and read with its offered list as the selected one", async () => {
    const decision = decisionEvent({
      run_id: "kept-all",
      iteration: 0,
      timestamp: new Date(start + 60_000).toISOString(),
      offered: OFFERED,
      selected: [...OFFERED],
      dropped_tokens: 0,
    });
    await storeEvents(KEPT_ALL, [{ kind: "decision", row: toDecisionRow(KEPT_ALL, decision) }]);
    const { rows } = await client.query("SELECT selected FROM decisions WHERE tenant_id = $1", [
      KEPT_ALL,
    ]);
    expect(rows).toEqual([{ selected: null }]);

    const read = await readDecisions({ ...window, tenantId: KEPT_ALL }, null, 10);
    expect(read.map((d) => [d.offered, d.selected])).toEqual([[OFFERED, OFFERED]]);
  });
});

describe("reading a window in slices", () => {
  const SLICED = `${TENANT}-sliced`;
  const CHUNK = 50;
  const scope = { ...window, tenantId: SLICED, roles: [] as string[] };
  /** Every decision of the window, in (ts, id) order. */
  let expected: number[] = [];

  beforeAll(async () => {
    await client.query("INSERT INTO tenants (id) VALUES ($1)", [SLICED]);
    // 400 decisions a second apart, then 120 on one millisecond, then 200 a minute apart; every
    // tenth on another role.
    await client.query(
      `INSERT INTO decisions (tenant_id, event_id, run_id, role, mode, iteration, turn_hop_index,
                              ts, offered_count, selected_count, dropped_count, dropped_tokens,
                              reinstatements, empty_palette_warnings, stage_errors,
                              offered, selected, trace, warnings)
       SELECT $1, 'e-' || n, 'run-' || (n / 8), CASE WHEN n % 10 = 0 THEN 'planner' ELSE 'action' END,
              'observe', n % 8, 0,
              $2::timestamptz + CASE WHEN n < 400 THEN n * interval '1 s'
                                     WHEN n < 520 THEN interval '500 s'
                                     ELSE interval '600 s' + (n - 520) * interval '1 min' END,
              1, 1, 0, 0, 0, 0, 0, '{a}', '{a}', '[]', '[]'
         FROM generate_series(0, 719) AS n`,
      [SLICED, new Date(start)],
    );
    await client.query(
      `INSERT INTO rollup_minute (tenant_id, role, mode, config_version, bucket, decisions,
         dropped_tokens, dropped_tokens_sq, offered_tools, offered_tools_sq, selected_tools,
         selected_tools_sq, reinstatements, empty_palette_warnings, stage_errors,
         decisions_reinstated, decisions_empty_palette, decisions_stage_error, outcomes,
         harmful_decisions, harmful_drops, zero_call_outcomes)
       SELECT tenant_id, role, mode, config_version, date_trunc('minute', ts), count(*),
              0, 0, count(*), count(*), count(*), count(*), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
         FROM decisions WHERE tenant_id = $1 GROUP BY 1, 2, 3, 4, 5`,
      [SLICED],
    );
    const { rows } = await client.query<{ id: string }>(
      "SELECT id FROM decisions WHERE tenant_id = $1 ORDER BY ts, id",
      [SLICED],
    );
    expected = rows.map((row) => Number(row.id));
  });

  afterAll(async () => {
    await deleteTenantRows(client, SLICED);
  });

  async function readAll(reader: WindowReader): Promise<number[]> {
    const ids: number[] = [];
    for (;;) {
      const chunk = await reader.next();
      if (chunk.length === 0) return ids;
      expect(chunk.length).toBeLessThanOrEqual(CHUNK);
      ids.push(...chunk.map((decision) => decision.id));
    }
  }

  const reader = (
    cursor: Cursor | null,
    cuts: readonly Date[],
    inFlight = 2,
    connections: pg.PoolClient[] = [],
  ) => new WindowReader(scope, cursor, cuts, CHUNK, inFlight, new DecisionTexts(), connections);

  it("plans slices of at most a chunk from the rollups, or of one minute that holds more", async () => {
    const cuts = (await planWindow(scope, window.from, CHUNK)).cuts;
    for (const cut of cuts) expect(cut.getTime() % 60_000).toBe(0);
    const { rows } = await client.query<{ slice: number; n: number; minutes: number }>(
      `SELECT width_bucket(extract(epoch FROM ts)::float8, $4::float8[]) AS slice, count(*)::int AS n,
              count(DISTINCT date_trunc('minute', ts))::int AS minutes
         FROM decisions WHERE tenant_id = $1 AND ts >= $2 AND ts < $3
        GROUP BY 1 ORDER BY 1`,
      [SLICED, window.from, window.to, cuts.map((cut) => cut.getTime() / 1000)],
    );
    const sizes = new Map(rows.map((row) => [row.slice, row.n]));
    for (const row of rows) if (row.n > CHUNK) expect(row.minutes, `slice ${row.slice}`).toBe(1);
    for (let slice = 0; slice <= cuts.length; slice++) {
      const size = sizes.get(slice) ?? 0;
      // Packed: a slice and the next could not have been one.
      const next = sizes.get(slice + 1);
      if (next !== undefined)
        expect(size + next, `slices ${slice}, ${slice + 1}`).toBeGreaterThan(CHUNK);
    }
    // The minute of the 120 decisions on one millisecond is a slice of its own.
    expect([...sizes.values()]).toContain(120);
    expect([...sizes.values()].reduce((a, b) => a + b, 0)).toBe(expected.length);
  });

  it("reads the whole window once, in order, whatever the cuts and reads in flight", async () => {
    const planned = (await planWindow(scope, window.from, CHUNK)).cuts;
    expect(await readAll(reader(null, planned))).toEqual(expected);
    expect(await readAll(reader(null, planned, 1))).toEqual(expected);
    const connections = await openReadConnections(2);
    try {
      expect(connections.clients).toHaveLength(2);
      expect(await readAll(reader(null, planned, 2, connections.clients))).toEqual(expected);
      expect(await readAll(reader(null, planned, 3, connections.clients))).toEqual(expected);
    } finally {
      connections.close();
    }
    expect(await readAll(reader(null, []))).toEqual(expected);
    const anywhere = [
      new Date(start - 60_000),
      new Date(start + 500),
      new Date(start + 500_000),
      new Date(start + 500_000),
      new Date(start + 500_001),
      new Date(start + 2 * 86_400_000),
    ];
    expect(await readAll(reader(null, anywhere))).toEqual(expected);
  });

  it("resumes after a decision in the middle of a slice, ties on its millisecond included", async () => {
    const { rows } = await client.query<{ id: string; ts: Date }>(
      "SELECT id, ts FROM decisions WHERE tenant_id = $1 ORDER BY ts, id OFFSET 430 LIMIT 1",
      [SLICED],
    );
    const after = rows[0] as { id: string; ts: Date };
    const cursor = { ts: after.ts, id: Number(after.id) };
    const cuts = (await planWindow(scope, cursor.ts, CHUNK)).cuts;
    expect(await readAll(reader(cursor, cuts))).toEqual(expected.slice(431));
  });

  it("reads only the roles asked for", async () => {
    const planners = { ...scope, roles: ["planner"] };
    const cuts = (await planWindow(planners, window.from, CHUNK)).cuts;
    const read = new WindowReader(planners, null, cuts, CHUNK, 2, new DecisionTexts());
    const ids = await readAll(read);
    expect(ids).toHaveLength(72);
    const { rows } = await client.query<{ id: string }>(
      "SELECT id FROM decisions WHERE tenant_id = $1 AND role = 'planner' ORDER BY ts, id",
      [SLICED],
    );
    expect(ids).toEqual(rows.map((row) => Number(row.id)));
  });
});
