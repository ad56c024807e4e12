/**
 * Time partitions of the raw tables (lib/db/partitions.ts): events land in the week partition of
 * their own timestamp, or in the default partition when their week has none; a re-sent event
 * stores nothing new whichever partition holds it, and neither does its id sent again with
 * another timestamp; creating a week's partition moves that week's rows out of the default
 * partition; retention drops a week wholly before the horizon.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getPool } from "@/lib/db/client";
import { createPartitionsAround, createWeekPartitions, listPartitions } from "@/lib/db/partitions";
import { pruneOlderThan } from "@/lib/db/prune";
import { createApiKey } from "@/lib/keys";
import { decisionEvent, outcomeFor } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";
import { deleteTenantRows } from "../support/tenant-rows";

const baseUrl = inject("baseUrl");
const DAY = 86_400_000;
let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
});
afterAll(() => db.end());

/** Monday 00:00 UTC of the week holding `ms`. */
function weekStart(ms: number): number {
  const day = Math.floor(ms / DAY) * DAY;
  const weekday = (new Date(day).getUTCDay() + 6) % 7;
  return day - weekday * DAY;
}
const weekName = (table: string, ms: number) =>
  `${table}_p${new Date(weekStart(ms)).toISOString().slice(0, 10).replaceAll("-", "")}`;

async function partitionsOf(tenant: string): Promise<Record<string, string>> {
  const { rows } = await db.query<{ event_id: string; part: string }>(
    `SELECT event_id, tableoid::regclass::text AS part FROM decisions WHERE tenant_id = $1
     UNION ALL
     SELECT event_id, tableoid::regclass::text FROM outcomes WHERE tenant_id = $1
     UNION ALL
     SELECT d.event_id || ' joined', j.tableoid::regclass::text
       FROM decision_outcomes j
       JOIN decisions d ON d.tenant_id = j.tenant_id AND d.id = j.decision_id AND d.ts = j.ts
      WHERE j.tenant_id = $1`,
    [tenant],
  );
  return Object.fromEntries(rows.map((r) => [r.event_id, r.part]));
}

describe("time partitions", () => {
  it("keeps the weeks around now ready, and creating them again changes nothing", async () => {
    await createPartitionsAround(getPool());
    expect(await createPartitionsAround(getPool())).toBe(0);
    const names = new Set((await listPartitions(getPool())).map((p) => p.name));
    for (const offset of [-28, -7, 0, 7, 14]) {
      expect(names.has(weekName("decisions", Date.now() + offset * DAY))).toBe(true);
      expect(names.has(weekName("outcomes", Date.now() + offset * DAY))).toBe(true);
      expect(names.has(weekName("decision_outcomes", Date.now() + offset * DAY))).toBe(true);
    }
    expect(names.has("decisions_default")).toBe(true);
    const created = await Promise.all(
      Array.from({ length: 4 }, () =>
        createWeekPartitions(
          getPool(),
          new Date(Date.now() + 40 * DAY),
          new Date(Date.now() + 40 * DAY),
        ),
      ),
    );
    expect(created.sort()).toEqual([0, 0, 0, 3]);
    const later = Date.now() + 40 * DAY;
    await db.query(
      `DROP TABLE ${weekName("decisions", later)}, ${weekName("outcomes", later)},
                  ${weekName("decision_outcomes", later)}`,
    );
  });

  it("keeps no statistics for the list and document columns, in every partition, one created later too", async () => {
    const later = Date.now() + 47 * DAY;
    expect(await createWeekPartitions(getPool(), new Date(later), new Date(later))).toBe(3);
    const { rows } = await db.query<{ table: string; column: string; target: number | null }>(
      `SELECT c.relname AS table, a.attname AS column, a.attstattarget AS target
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE (c.relname ~ '^(decisions|outcomes)(_p[0-9]{8}|_default)?$' OR c.relname = 'otel_spans')
          AND a.attname IN ('selected', 'offered', 'trace', 'warnings', 'intent', 'called',
                            'call_ids', 'run_id')`,
    );
    const unstated = {
      decisions: ["selected", "offered", "trace", "warnings", "intent"],
      outcomes: ["called"],
      otel_spans: ["call_ids"],
    };
    const tables = new Set(rows.map((r) => r.table));
    expect(tables).toContain(weekName("decisions", later));
    expect(tables).toContain(weekName("outcomes", later));
    expect(tables).toContain(weekName("decisions", Date.now()));
    for (const { table, column, target } of rows) {
      const parent = table.replace(/_(p[0-9]{8}|default)$/, "") as keyof typeof unstated;
      // A column queries filter by keeps the default target (NULL from PostgreSQL 17, -1 before).
      const expected = unstated[parent].includes(column) ? 0 : -1;
      expect(target ?? -1, `${table}.${column}`).toBe(expected);
    }
    await db.query(
      `DROP TABLE ${weekName("decisions", later)}, ${weekName("outcomes", later)},
                  ${weekName("decision_outcomes", later)}`,
    );
  });

  it("stores a re-sent event once in whichever partition holds it, and an id sent again with another timestamp too", async () => {
    const tenant = `parts-${Date.now()}`;
    const key = (await createApiKey(tenant)).key;
    const times = {
      now: Date.now(),
      weeksAgo: Date.now() - 20 * DAY,
      tomorrow: Date.now() + 20 * 3_600_000,
      // Older than any week partition: the default partition.
      longAgo: Date.UTC(2001, 4, 6, 12),
    };
    const events = Object.entries(times).flatMap(([label, ms], i) => {
      const decision = decisionEvent({
        event_id: `${tenant}-${label}`,
        run_id: `run-${tenant}`,
        iteration: i,
        timestamp: new Date(ms).toISOString(),
        dropped_tokens: 3,
      });
      return [
        decision,
        outcomeFor(decision, ["search_docs"], {
          event_id: `${tenant}-${label}-outcome`,
          timestamp: decision.timestamp,
        }),
      ];
    });
    const first = await postBatch(baseUrl, key, events);
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body.successes.map((s: { status: number }) => s.status)).toEqual(events.map(() => 201));
    const placed = await partitionsOf(tenant);
    expect(placed).toEqual({
      [`${tenant}-now`]: weekName("decisions", times.now),
      [`${tenant}-now-outcome`]: weekName("outcomes", times.now),
      [`${tenant}-weeksAgo`]: weekName("decisions", times.weeksAgo),
      [`${tenant}-weeksAgo-outcome`]: weekName("outcomes", times.weeksAgo),
      [`${tenant}-tomorrow`]: weekName("decisions", times.tomorrow),
      [`${tenant}-tomorrow-outcome`]: weekName("outcomes", times.tomorrow),
      [`${tenant}-longAgo`]: "decisions_default",
      [`${tenant}-longAgo-outcome`]: "outcomes_default",
      // Each decision's joined outcome lies in its decision's week.
      [`${tenant}-now joined`]: weekName("decision_outcomes", times.now),
      [`${tenant}-weeksAgo joined`]: weekName("decision_outcomes", times.weeksAgo),
      [`${tenant}-tomorrow joined`]: weekName("decision_outcomes", times.tomorrow),
      [`${tenant}-longAgo joined`]: "decision_outcomes_default",
    });

    const stored = async () =>
      (
        await db.query(
          `SELECT (SELECT count(*)::int FROM decisions WHERE tenant_id = $1) AS decisions,
                  (SELECT count(*)::int FROM outcomes WHERE tenant_id = $1) AS outcomes,
                  (SELECT count(*)::int FROM decision_outcomes WHERE tenant_id = $1) AS joined,
                  (SELECT count(*)::int FROM event_ids WHERE tenant_id = $1) AS ids,
                  (SELECT sum(decisions)::int FROM rollup_hour WHERE tenant_id = $1) AS counted`,
          [tenant],
        )
      ).rows[0];
    expect(await stored()).toEqual({ decisions: 4, outcomes: 4, joined: 4, ids: 8, counted: 4 });

    // The same events again, concurrently, and the same ids with other timestamps.
    const shifted = events.map((e) => ({
      ...e,
      timestamp: new Date(Date.parse(e.timestamp) - 9 * DAY).toISOString(),
    }));
    const again = await Promise.all([
      postBatch(baseUrl, key, events),
      postBatch(baseUrl, key, events),
      postBatch(baseUrl, key, shifted),
    ]);
    for (const response of again) {
      expect(response.status).toBe(200);
      const { successes } = await response.json();
      expect(successes.map((s: { status: number }) => s.status)).toEqual(events.map(() => 200));
    }
    expect(await stored()).toEqual({ decisions: 4, outcomes: 4, joined: 4, ids: 8, counted: 4 });

    // A week partition created for the default partition's rows takes them over.
    expect(
      await createWeekPartitions(getPool(), new Date(times.longAgo), new Date(times.longAgo)),
    ).toBe(3);
    expect(await partitionsOf(tenant)).toMatchObject({
      [`${tenant}-longAgo`]: weekName("decisions", times.longAgo),
      [`${tenant}-longAgo-outcome`]: weekName("outcomes", times.longAgo),
      [`${tenant}-longAgo joined`]: weekName("decision_outcomes", times.longAgo),
    });
    expect((await postBatch(baseUrl, key, events)).status).toBe(200);
    expect(await stored()).toEqual({ decisions: 4, outcomes: 4, joined: 4, ids: 8, counted: 4 });

    // Retention drops that week whole.
    const result = await pruneOlderThan(getPool(), new Date(Date.UTC(2002, 0, 1)));
    expect(result.decisions).toBeGreaterThanOrEqual(1);
    const gone = await db.query<{ d: string | null; o: string | null; j: string | null }>(
      "SELECT to_regclass($1) AS d, to_regclass($2) AS o, to_regclass($3) AS j",
      [
        weekName("decisions", times.longAgo),
        weekName("outcomes", times.longAgo),
        weekName("decision_outcomes", times.longAgo),
      ],
    );
    expect(gone.rows[0]).toEqual({ d: null, o: null, j: null });
    // Its rollup hour went with it.
    expect(await stored()).toEqual({ decisions: 3, outcomes: 3, joined: 3, ids: 6, counted: 3 });
    await deleteTenantRows(db, tenant);
  });

  it("reads a time-bounded range from the partitions of that range only", async () => {
    const from = new Date(Date.now() - 3 * DAY).toISOString();
    const { rows } = await db.query<{ "QUERY PLAN": string }>(
      `EXPLAIN SELECT count(*) FROM decisions WHERE tenant_id = 'x' AND ts >= $1 AND ts < now()`,
      [from],
    );
    const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
    const scanned = new Set(plan.match(/decisions_(p\d{8}|default)/g));
    expect(scanned.size).toBeGreaterThanOrEqual(1);
    expect(scanned.size).toBeLessThanOrEqual(2);
    expect(scanned.has("decisions_default")).toBe(false);
  });
});
