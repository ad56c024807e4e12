/**
 * The rollup-query helper against real rollups: for windows read by the minute, the hour and
 * the day, and every combination of tenant, role and mode, the table it picks and the
 * conditions it writes sum to exactly what a SUM over the raw decisions gives. The views'
 * queries built on it (overview totals, rollout cells, tool usage) are checked the same way.
 */

import { beforeAll, describe, expect, inject, it } from "vitest";
import { ALL_TENANTS, tenantsScope } from "@/lib/auth/scope";
import { resolveTimeRange, type TimeRange } from "@/lib/dashboard/time-range";
import { getPool } from "@/lib/db/client";
import {
  countContextTaxDayLines,
  sumContextTaxByDay,
  sumContextTaxByTenantTool,
} from "@/lib/db/queries/context-tax";
import {
  sumMetricsByBucket,
  sumMetricsByTenantRole,
  sumOverviewTotals,
} from "@/lib/db/queries/overview";
import {
  listHarmfulDropExamples,
  sumCohortCells,
  sumCohortSeries,
  sumHarmfulDropsByTool,
} from "@/lib/db/queries/rollouts";
import {
  type RollupFilter,
  rollupConditions,
  rollupSource,
  rollupTable,
  toHourWindow,
} from "@/lib/db/queries/rollup";
import { SqlParams, whereClause } from "@/lib/db/queries/sql";
import { listHarmfulDropHours } from "@/lib/db/queries/tools";
import { DECISIONS_WITH_OUTCOMES } from "@/lib/ingest/decision-outcomes";
import { offeredOf, selectedOf } from "@/lib/ingest/palettes";
import { createApiKey } from "@/lib/keys";
import type { RoutingMode, ToolRoutingDecision } from "@/lib/schemas/events";
import { decisionEvent, outcomeFor } from "@/lib/telemetry/events";
import { sumToolUsagePerTool } from "@/lib/tools/tool-lines";
import { postBatch } from "../support/http";

const baseUrl = inject("baseUrl");
const suffix = Date.now().toString(36);
const TENANTS = [`rollup-a-${suffix}`, `rollup-b-${suffix}`] as const;
const ROLES = [`planner-${suffix}`, `action-${suffix}`] as const;
const MODES: readonly RoutingMode[] = ["observe", "enforce"];
const TOOLS = ["search_docs", "create_ticket", "refund_order", "escalate", "lookup_order"];
const CONFIGS = ["v1", "v2", undefined];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Inside the prune horizon of 30 days, so the prune test's chunk counts never see these rows. */
const anchor = Math.floor(Date.now() / DAY) * DAY - 20 * DAY;

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Decisions (and for some an outcome calling a dropped tool) spread over minutes and days. */
function trafficFor(tenantIndex: number): unknown[] {
  const next = random(17 + tenantIndex);
  function pick<T>(list: readonly T[]): T {
    return list[Math.floor(next() * list.length)] as T;
  }
  const events: unknown[] = [];
  for (let i = 0; i < 240; i++) {
    // Half inside 10:00-14:00 of the anchor day (the minute window's hours), half over 15 days.
    const offset = i % 2 === 0 ? 10 * HOUR + next() * 4 * HOUR : -3 * DAY + next() * 15 * DAY;
    const offered = TOOLS.filter(() => next() < 0.7);
    const selected = offered.filter(() => next() < 0.6);
    const configVersion = pick(CONFIGS);
    const decision: ToolRoutingDecision = decisionEvent({
      timestamp: new Date(anchor + Math.floor(offset)).toISOString(),
      run_id: `run-${tenantIndex}-${i}`,
      role: pick(ROLES),
      mode: pick(MODES),
      offered,
      selected,
      dropped_tokens: Math.floor(next() * 900),
      ...(configVersion ? { config_version: configVersion } : {}),
    });
    events.push(decision);
    const dropped = offered.filter((tool) => !selected.includes(tool));
    if (dropped.length > 0 && next() < 0.4) events.push(outcomeFor(decision, dropped.slice(0, 2)));
  }
  return events;
}

interface Totals {
  decisions: number;
  droppedTokens: number;
  offeredTools: number;
  selectedTools: number;
  harmfulDrops: number;
}

/** The oracle: the same totals straight from `decisions`, with its own WHERE clause. */
async function rawTotals(filter: RollupFilter, from: Date, to: Date): Promise<Totals> {
  const values: unknown[] = [from, to];
  const where = ["ts >= $1", "ts < $2"];
  for (const [column, value] of [
    ["tenant_id", filter.tenant],
    ["role", filter.role],
    ["mode", filter.mode],
  ] as const) {
    if (value === undefined) continue;
    values.push(value);
    where.push(`${column} = $${values.length}`);
  }
  const { rows } = await getPool().query<Totals>(
    `SELECT count(*) AS "decisions",
            coalesce(sum(dropped_tokens), 0) AS "droppedTokens",
            coalesce(sum(offered_count), 0) AS "offeredTools",
            coalesce(sum(selected_count), 0) AS "selectedTools",
            coalesce(sum(cardinality(harmful_tools)), 0) AS "harmfulDrops"
       FROM ${DECISIONS_WITH_OUTCOMES} AS decisions WHERE ${where.join(" AND ")}`,
    values,
  );
  return rows[0] as Totals;
}

/** The raw totals' measures summed over rollup rows. */
const ROLLUP_TOTALS = `coalesce(sum(decisions), 0) AS "decisions",
  coalesce(sum(dropped_tokens), 0) AS "droppedTokens",
  coalesce(sum(offered_tools), 0) AS "offeredTools",
  coalesce(sum(selected_tools), 0) AS "selectedTools",
  coalesce(sum(harmful_drops), 0) AS "harmfulDrops"`;

/** The same totals read through the helper: its table for the granularity, its conditions. */
async function rollupTotals(
  filter: RollupFilter,
  range: TimeRange,
  table = rollupTable(range.granularity),
): Promise<Totals> {
  const params = new SqlParams();
  const where = rollupConditions(params, filter, range);
  const { rows } = await getPool().query<Totals>(
    `SELECT ${ROLLUP_TOTALS} FROM ${table} ${whereClause(where)}`,
    params.values,
  );
  return rows[0] as Totals;
}

function customRange(fromMs: number, toMs: number): TimeRange {
  const range = resolveTimeRange(
    { range: "custom", from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString() },
    new Date(),
  );
  if (!range || range.fellBack) throw new Error("the test's custom range was refused");
  return range;
}

/** Windows whose length makes the dashboard read minute, hour and day buckets. */
const WINDOWS = [
  {
    name: "2 h 26 min",
    range: () => customRange(anchor + 10 * HOUR + 17 * 60_000, anchor + 12 * HOUR + 43 * 60_000),
    granularity: "minute",
    table: "rollup_minute",
  },
  {
    name: "5 days",
    range: () => customRange(anchor - 2 * DAY + 5.5 * HOUR, anchor + 3 * DAY + 7.25 * HOUR),
    granularity: "hour",
    table: "rollup_hour",
  },
  {
    name: "15 days",
    range: () => customRange(anchor - 3 * DAY, anchor + 12 * DAY),
    granularity: "day",
    table: "rollup_day",
  },
] as const;

const FILTERS: RollupFilter[] = [undefined, ...TENANTS].flatMap((tenant) =>
  [undefined, ...ROLES].flatMap((role) =>
    [undefined, ...MODES].map((mode) => ({ scope: ALL_TENANTS, tenant, role, mode })),
  ),
);

beforeAll(async () => {
  for (const [index, tenant] of TENANTS.entries()) {
    const key = (await createApiKey(tenant)).key;
    const response = await postBatch(baseUrl, key, trafficFor(index));
    expect(response.status).toBe(200);
  }
});

describe("rollup-query helper", () => {
  it.each(WINDOWS)("reads a $name window from $table", (window) => {
    const range = window.range();
    expect(range.granularity).toBe(window.granularity);
    expect(rollupTable(range.granularity)).toBe(window.table);
  });

  it.each(WINDOWS)(
    "sums a $name window to the raw decisions' totals under every filter",
    async (window) => {
      const range = window.range();
      for (const filter of FILTERS) {
        const expected = await rawTotals(filter, range.from, range.to);
        expect(await rollupTotals(filter, range), JSON.stringify(filter)).toEqual(expected);
      }
      // The traffic is not trivially empty: harmful drops happen, and the narrowest filter
      // still matches decisions.
      expect(
        (await rawTotals({ scope: ALL_TENANTS }, range.from, range.to)).harmfulDrops,
      ).toBeGreaterThan(0);
      const narrow = {
        scope: ALL_TENANTS,
        tenant: TENANTS[0],
        role: ROLES[1],
        mode: "enforce",
      } as const;
      expect((await rawTotals(narrow, range.from, range.to)).decisions).toBeGreaterThan(0);
    },
  );

  it.each(WINDOWS)("keeps a $name window inside the viewer's tenants", async (window) => {
    const range = window.range();
    const own = await rawTotals({ scope: ALL_TENANTS, tenant: TENANTS[0] }, range.from, range.to);
    expect(own.decisions).toBeGreaterThan(0);
    // No tenant named: a viewer of the first tenant reads its totals only.
    expect(await rollupTotals({ scope: tenantsScope([TENANTS[0]]) }, range)).toEqual(own);
    // Naming a tenant outside the scope reads nothing, and so does a viewer of no tenant.
    const outside = { scope: tenantsScope([TENANTS[0]]), tenant: TENANTS[1] };
    expect((await rollupTotals(outside, range)).decisions).toBe(0);
    expect((await rollupTotals({ scope: tenantsScope([]) }, range)).decisions).toBe(0);
  });

  it.each(WINDOWS)(
    "reads a $name window's sums through rollupSource as the raw decisions give them",
    async (window) => {
      const range = window.range();
      for (const filter of FILTERS) {
        const params = new SqlParams();
        const source = rollupSource(params, filter, range);
        // Only an hour window mixes tables: its whole days (here 4) from rollup_day.
        expect(source.includes("rollup_day")).toBe(window.granularity !== "minute");
        expect(source.includes("rollup_hour")).toBe(window.granularity === "hour");
        const { rows } = await getPool().query<Totals>(
          `SELECT ${ROLLUP_TOTALS} FROM ${source} AS r`,
          params.values,
        );
        expect(rows[0], JSON.stringify(filter)).toEqual(
          await rawTotals(filter, range.from, range.to),
        );
      }
    },
  );

  it("needs minute buckets for a window that does not start and end on the hour", async () => {
    const range = WINDOWS[0].range();
    const filter = { scope: ALL_TENANTS, tenant: TENANTS[0] };
    const raw = await rawTotals(filter, range.from, range.to);
    // On hour buckets the same conditions keep the hours that start inside the window, 11:00
    // and 12:00: 10:17-11:00 is lost and 12:43-13:00 counted.
    const byHour = await rollupTotals(filter, range, "rollup_hour");
    const wholeHours = await rawTotals(
      filter,
      new Date(anchor + 11 * HOUR),
      new Date(anchor + 13 * HOUR),
    );
    expect(byHour).toEqual(wholeHours);
    expect(byHour.decisions).not.toBe(raw.decisions);
  });

  it.each(WINDOWS)(
    "groups a $name window into chart buckets as the raw timestamps fall",
    async (window) => {
      const range = window.range();
      const filter = { scope: ALL_TENANTS, tenant: TENANTS[1], mode: "observe" } as const;
      const params = new SqlParams();
      const where = rollupConditions(params, filter, range);
      const fromRollups = await getPool().query<{ bucket: Date; decisions: number }>(
        `SELECT bucket AS "bucket", sum(decisions) AS "decisions"
           FROM ${rollupTable(range.granularity)} ${whereClause(where)}
          GROUP BY 1 ORDER BY 1`,
        params.values,
      );
      const fromRaw = await getPool().query<{ bucket: Date; decisions: number }>(
        `SELECT date_bin($4::interval, ts, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS "bucket",
                count(*) AS "decisions"
           FROM decisions
          WHERE ts >= $1 AND ts < $2 AND tenant_id = $3 AND mode = 'observe'
          GROUP BY 1 ORDER BY 1`,
        [range.from, range.to, filter.tenant, `${range.bucketMs / 1000} seconds`],
      );
      expect(fromRollups.rows.length).toBeGreaterThan(1);
      expect(fromRollups.rows).toEqual(fromRaw.rows);
    },
  );
});

describe("views' queries on the helper", () => {
  it.each(WINDOWS)("overview totals of a $name window and its previous period", async (window) => {
    const range = window.range();
    for (const filter of FILTERS) {
      const { current, previous } = await sumOverviewTotals(filter, range);
      const raw = await rawTotals(filter, range.from, range.to);
      const rawPrevious = await rawTotals(filter, range.previous.from, range.previous.to);
      expect(current, JSON.stringify(filter)).toMatchObject(raw);
      expect(previous, JSON.stringify(filter)).toMatchObject(rawPrevious);
    }
  });

  it.each(WINDOWS)("rollout cells of a $name window add up to its decisions", async (window) => {
    const range = window.range();
    for (const filter of FILTERS) {
      const cells = await sumCohortCells(filter, range);
      const raw = await rawTotals(filter, range.from, range.to);
      const sum = (key: keyof Totals) => cells.reduce((total, cell) => total + cell[key], 0);
      expect(
        {
          decisions: sum("decisions"),
          droppedTokens: sum("droppedTokens"),
          offeredTools: sum("offeredTools"),
          selectedTools: sum("selectedTools"),
          harmfulDrops: sum("harmfulDrops"),
        },
        JSON.stringify(filter),
      ).toEqual(raw);
    }
  });

  it.each(WINDOWS)(
    "rollout cells of a $name window are first seen at the minute of their first decision",
    async (window) => {
      const range = window.range();
      for (const filter of FILTERS) {
        const cells = await sumCohortCells(filter, range);
        const { rows: raw } = await getPool().query<{ key: string; firstSeen: Date }>(
          `SELECT mode || '/' || config_version AS "key",
                  date_trunc('minute', min(ts)) AS "firstSeen"
             FROM decisions
            WHERE ts >= $1 AND ts < $2 AND mode <> 'off'
              AND ($3::text IS NULL OR tenant_id = $3) AND ($4::text IS NULL OR role = $4)
              AND ($5::text IS NULL OR mode = $5)
            GROUP BY mode, config_version`,
          [range.from, range.to, filter.tenant ?? null, filter.role ?? null, filter.mode ?? null],
        );
        const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : 1);
        expect(
          cells
            .map((cell) => ({
              key: `${cell.mode}/${cell.configVersion}`,
              firstSeen: cell.firstSeen,
            }))
            .sort(byKey),
          JSON.stringify(filter),
        ).toEqual(raw.sort(byKey));
      }
    },
  );

  it.each(WINDOWS)("tool usage of a $name window, on whole hours", async (window) => {
    const range = window.range();
    const hours = toHourWindow(range);
    for (const filter of FILTERS.filter((candidate) => candidate.tenant !== undefined)) {
      const rows = sumToolUsagePerTool(await sumContextTaxByTenantTool(filter, range));
      const { rows: raw } = await getPool().query<{
        tool: string;
        offered: number;
        dropped: number;
      }>(
        `SELECT o.tool AS "tool", count(*) AS "offered",
                count(*) FILTER (WHERE o.tool <> ALL(${selectedOf("d")})) AS "dropped"
           FROM decisions d CROSS JOIN LATERAL unnest(${offeredOf("d")}) AS o(tool)
          WHERE d.ts >= $1 AND d.ts < $2 AND d.tenant_id = $3
            AND ($4::text IS NULL OR d.role = $4) AND ($5::text IS NULL OR d.mode = $5)
          GROUP BY o.tool`,
        [hours.from, hours.to, filter.tenant, filter.role ?? null, filter.mode ?? null],
      );
      const byName = (a: { tool: string }, b: { tool: string }) => (a.tool < b.tool ? -1 : 1);
      expect(
        rows.map(({ tool, offered, dropped }) => ({ tool, offered, dropped })).sort(byName),
        JSON.stringify(filter),
      ).toEqual(raw.sort(byName));
    }
  });

  it.each(WINDOWS)(
    "counts the context tax's day lines of a $name window, and reads the newest alone",
    async (window) => {
      const range = window.range();
      const hours = toHourWindow(range);
      const LINES = 5;
      for (const filter of FILTERS) {
        const label = JSON.stringify(filter);
        const { rows: raw } = await getPool().query<{ day: Date; lines: number }>(
          `SELECT date_trunc('day', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS "day",
                  count(DISTINCT (tenant_id, role))::int AS "lines"
             FROM decisions
            WHERE ts >= $1 AND ts < $2
              AND ($3::text IS NULL OR tenant_id = $3) AND ($4::text IS NULL OR role = $4)
              AND ($5::text IS NULL OR mode = $5)
            GROUP BY 1 ORDER BY 1 DESC`,
          [hours.from, hours.to, filter.tenant ?? null, filter.role ?? null, filter.mode ?? null],
        );
        const total = raw.reduce((sum, day) => sum + day.lines, 0);
        let needed: Date | null = null;
        for (let i = 0, seen = 0; i < raw.length && needed === null; i++) {
          seen += raw[i]?.lines ?? 0;
          if (seen >= LINES) needed = raw[i]?.day ?? null;
        }
        const counted = await countContextTaxDayLines(filter, range, LINES);
        expect(counted, label).toEqual({
          total,
          firstDay: total > LINES ? needed : null,
        });
        const estimates = await sumContextTaxByTenantTool(filter, range);
        const all = await sumContextTaxByDay(filter, range, estimates);
        expect(all.length, label).toBe(total);
        if (counted.firstDay === null) continue;
        const from = new Date(Math.max(counted.firstDay.getTime(), range.from.getTime()));
        const newest = await sumContextTaxByDay(filter, { from, to: range.to }, estimates);
        const keys = (rows: typeof all) =>
          rows.map(({ day, tenant, role, offers, unusedOffers }) => ({
            day,
            tenant,
            role,
            offers,
            unusedOffers,
          }));
        expect(newest.length, label).toBeGreaterThanOrEqual(LINES);
        expect(keys(newest), label).toEqual(keys(all).slice(0, newest.length));
      }
    },
  );

  it.each(WINDOWS)(
    "chart and breakdown rows of a $name window add up to its decisions",
    async (window) => {
      const range = window.range();
      for (const filter of FILTERS) {
        const raw = await rawTotals(filter, range.from, range.to);
        const total = (rows: readonly { decisions: number }[]) =>
          rows.reduce((sum, row) => sum + row.decisions, 0);
        const label = JSON.stringify(filter);
        expect(total(await sumMetricsByBucket(filter, range, "tenant", 1)), label).toBe(
          raw.decisions,
        );
        expect(total(await sumMetricsByBucket(filter, range, "role")), label).toBe(raw.decisions);
        expect(total(await sumMetricsByTenantRole(filter, range)), label).toBe(raw.decisions);
        expect(total(await sumCohortSeries(filter, range, { by: "mode" })), label).toBe(
          raw.decisions,
        );
        const versions = ["v1", ""];
        const { rows: byVersion } = await getPool().query<{ decisions: number }>(
          `SELECT count(*) AS "decisions" FROM decisions
          WHERE ts >= $1 AND ts < $2 AND config_version = ANY($3::text[]) AND mode = 'observe'
            AND ($4::text IS NULL OR tenant_id = $4) AND ($5::text IS NULL OR role = $5)`,
          [range.from, range.to, versions, filter.tenant ?? null, filter.role ?? null],
        );
        const series = await sumCohortSeries(filter, range, {
          by: "config",
          versions,
          mode: "observe",
        });
        // The split's mode takes the place of the filter's.
        expect(total(series), label).toBe(byVersion[0]?.decisions);
        expect(total(series)).toBeGreaterThan(0);
      }
    },
  );

  it.each(WINDOWS)("harmful drops of a $name window, per tool and as examples", async (window) => {
    const range = window.range();
    const hours = toHourWindow(range);
    const filter = { scope: ALL_TENANTS, tenant: TENANTS[0] };
    const tools = await sumHarmfulDropsByTool(filter, range, TOOLS.length);
    const { rows: raw } = await getPool().query<{
      tool: string;
      harmfulDrops: number;
      lastHarmfulHour: Date;
    }>(
      `SELECT h.tool AS "tool", count(*) AS "harmfulDrops",
              max(date_trunc('hour', d.ts, 'UTC')) AS "lastHarmfulHour"
         FROM ${DECISIONS_WITH_OUTCOMES} d CROSS JOIN LATERAL unnest(d.harmful_tools) AS h(tool)
        WHERE d.ts >= $1 AND d.ts < $2 AND d.tenant_id = $3 AND d.mode = 'observe'
        GROUP BY h.tool`,
      [hours.from, hours.to, filter.tenant],
    );
    const byName = (a: { tool: string }, b: { tool: string }) => (a.tool < b.tool ? -1 : 1);
    // Every tool's count and last hour, whether that hour lies in a whole day of the window
    // (read from the day rollup, then refined to the hour) or in its hours before or after.
    expect([...tools].sort(byName)).toEqual(raw.sort(byName));
    const first = tools[0];
    if (!first) throw new Error("the traffic has no harmful drop in observe traffic");
    const scope = { ...filter, mode: "observe" } as const;
    const harmfulHours = await listHarmfulDropHours(scope, range, first.tool, 2);
    expect(harmfulHours[0]).toEqual(first.lastHarmfulHour);
    const examples = await listHarmfulDropExamples(
      scope,
      hours,
      harmfulHours.map((hour) => ({ tool: first.tool, hour })),
      2,
    );
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const { rows } = await getPool().query<{ harmful: boolean }>(
        `SELECT $4 = ANY(harmful_tools) AND mode = 'observe' AS "harmful" FROM ${DECISIONS_WITH_OUTCOMES} d
          WHERE tenant_id = $1 AND run_id = $2 AND iteration = $3`,
        [example.tenantId, example.runId, example.iteration, first.tool],
      );
      expect(rows).toEqual([{ harmful: true }]);
      expect(example.tenantId).toBe(filter.tenant);
    }
  });
});
