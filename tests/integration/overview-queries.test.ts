/**
 * The overview's rollup reads against the raw decisions they summarise: a known set of
 * decisions goes in through the ingest API, with some exactly on and just beside the
 * boundaries of each preset's current and previous period; what the query functions return
 * must equal sums computed with SQL over the `decisions` table itself.
 */

import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ALL_TENANTS } from "@/lib/auth/scope";
import { type Period, resolveTimeRange, type TimeRange } from "@/lib/dashboard/time-range";
import type { MetricTotals } from "@/lib/dashboard/types";
import { sumMetricsByBucket, sumOverviewTotals } from "@/lib/db/queries/overview";
import type { RollupFilter } from "@/lib/db/queries/rollup";
import { DECISIONS_WITH_OUTCOMES } from "@/lib/ingest/decision-outcomes";
import { createApiKey } from "@/lib/keys";
import { RANGE_PRESETS } from "@/lib/schemas/dashboard";
import type { ToolCallOutcome, ToolRoutingDecision } from "@/lib/schemas/events";
import { decisionEvent, outcomeFor, stageRecord } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";
import { deleteTenantRows } from "../support/tenant-rows";

const baseUrl = inject("baseUrl");
const tenant = `overview-q-${Date.now()}`;
const NOW = new Date();
const RANGES = RANGE_PRESETS.map((preset) => {
  const range = resolveTimeRange({ range: preset }, NOW);
  if (!range) throw new Error(`no range for ${preset}`);
  return range;
});
let db: pg.Client;

const TOOLS = ["search_docs", "hydrate_context", "create_ticket", "send_email", "refund_order"];

/** A decision at `ms` whose measures all depend on `i`, with an outcome for some. */
function decisionAt(ms: number, i: number): (ToolRoutingDecision | ToolCallOutcome)[] {
  const offered = TOOLS.slice(0, 2 + (i % 4));
  const selected = offered.slice(0, 1 + (i % 2));
  const dropped = offered.filter((name) => !selected.includes(name));
  const reinstated = i % 3 === 0 && dropped.length > 0 ? [dropped[0] as string] : [];
  const decision = decisionEvent({
    run_id: `run-${tenant}-${i % 7}`,
    iteration: i,
    timestamp: new Date(ms).toISOString(),
    role: i % 2 === 0 ? "action" : "planner",
    mode: i % 5 === 0 ? "enforce" : "observe",
    offered,
    selected: [...selected, ...reinstated],
    dropped_tokens: 10 + ((i * 37) % 500),
    trace: [
      stageRecord({
        stage: "intent",
        action: i % 11 === 0 ? "error" : "select",
        kept: selected,
        dropped,
        reinstated,
      }),
    ],
    warnings: i % 4 === 1 ? [{ code: "empty_palette", stage: "intent" }] : [],
  });
  const sendsOutcome = i % 3 !== 2;
  // Half of the outcomes call a dropped tool: a harmful drop in observe mode.
  const called = i % 2 === 0 && dropped.length > 0 ? [dropped.at(-1) as string] : [];
  return sendsOutcome
    ? [decision, outcomeFor(decision, called, { timestamp: decision.timestamp })]
    : [decision];
}

/** Instants on and beside every boundary of every preset, and inside each period. */
function instants(): number[] {
  const times = new Set<number>();
  const now = NOW.getTime();
  for (const range of RANGES) {
    const from = range.from.getTime();
    const previousFrom = range.previous.from.getTime();
    for (const ms of [
      from,
      from + 1,
      from - 1,
      previousFrom,
      previousFrom + 1,
      previousFrom - 1,
      (from + now) / 2,
      (previousFrom + from) / 2,
      now - 1_000,
    ]) {
      times.add(Math.floor(ms));
    }
  }
  return [...times].sort((a, b) => a - b);
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
  const key = (await createApiKey(tenant)).key;
  const events = instants().flatMap((ms, i) => decisionAt(ms, i));
  const response = await postBatch(baseUrl, key, events);
  expect(response.status, await response.clone().text()).toBe(200);
});

afterAll(async () => {
  // Up to 60 days old: left in place, these rows would be part of every later prune.
  await deleteTenantRows(db, tenant);
  await db.end();
});

/** The KPI totals of decisions with `period.from <= ts < period.to`, from raw rows. */
async function rawTotals(filter: RollupFilter, period: Period): Promise<MetricTotals> {
  const { rows } = await db.query<MetricTotals>(
    `SELECT count(*)::int AS "decisions",
            coalesce(sum(dropped_tokens), 0)::int AS "droppedTokens",
            coalesce(sum(offered_count), 0)::int AS "offeredTools",
            coalesce(sum(selected_count), 0)::int AS "selectedTools",
            coalesce(sum(reinstatements), 0)::int AS "reinstatements",
            coalesce(sum(empty_palette_warnings), 0)::int AS "emptyPaletteWarnings",
            coalesce(sum(stage_errors), 0)::int AS "stageErrors",
            coalesce(sum(cardinality(harmful_tools)), 0)::int AS "harmfulDrops"
       FROM ${DECISIONS_WITH_OUTCOMES} AS decisions
      WHERE tenant_id = $1 AND ts >= $2 AND ts < $3
        AND ($4::text IS NULL OR role = $4) AND ($5::text IS NULL OR mode = $5)`,
    [filter.tenant, period.from, period.to, filter.role ?? null, filter.mode ?? null],
  );
  const [totals] = rows;
  if (!totals) throw new Error("no totals row");
  return totals;
}

const FILTERS: RollupFilter[] = [
  { scope: ALL_TENANTS, tenant },
  { scope: ALL_TENANTS, tenant, role: "planner" },
  { scope: ALL_TENANTS, tenant, mode: "enforce" },
];

describe("sumOverviewTotals against the raw decisions", () => {
  for (const range of RANGES) {
    for (const filter of FILTERS) {
      it(`${range.preset} (${range.granularity} buckets), ${JSON.stringify({ ...filter, tenant: undefined })}: current and previous period`, async () => {
        const totals = await sumOverviewTotals(filter, range);
        const current = await rawTotals(filter, range);
        const previous = await rawTotals(filter, range.previous);
        expect(totals.current).toEqual(current);
        expect(totals.previous).toEqual(previous);
        // The data set puts decisions in both periods of every preset, so neither side is a
        // trivially equal zero.
        if (filter.role === undefined && filter.mode === undefined) {
          expect(current.decisions).toBeGreaterThan(0);
          expect(previous.decisions).toBeGreaterThan(0);
          expect(previous.harmfulDrops + current.harmfulDrops).toBeGreaterThan(0);
        }
      });
    }
  }
});

describe("sumMetricsByBucket against the raw decisions", () => {
  const month = RANGES.find((range) => range.preset === "30d") as TimeRange;
  const day = RANGES.find((range) => range.preset === "24h") as TimeRange;

  for (const range of [month, day]) {
    it(`${range.preset}: one row per ${range.granularity} bucket (UTC) with the raw sums`, async () => {
      const rows = await sumMetricsByBucket({ scope: ALL_TENANTS, tenant }, range, "tenant");
      const bucketSeconds = range.bucketMs / 1_000;
      const { rows: expected } = await db.query(
        `SELECT to_timestamp(floor(extract(epoch FROM ts) / $4) * $4) AS "bucket",
                tenant_id AS "key",
                count(*)::int AS "decisions",
                sum(dropped_tokens)::int AS "droppedTokens",
                sum(reinstatements)::int AS "reinstatements",
                sum(empty_palette_warnings)::int AS "emptyPaletteWarnings"
           FROM decisions
          WHERE tenant_id = $1 AND ts >= $2 AND ts < $3
          GROUP BY 1, 2 ORDER BY 1`,
        [tenant, range.from, range.to, bucketSeconds],
      );
      expect(expected.length).toBeGreaterThan(1);
      expect(rows).toEqual(expected);
      for (const row of rows) {
        expect(row.bucket.getTime() % range.bucketMs).toBe(0);
      }
    });
  }
});
