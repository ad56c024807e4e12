/**
 * Rollout reads. Totals come from the rollups only (README, "Storage design"): `rollup_minute`,
 * `rollup_hour` or `rollup_day` for windows of minute, hour or day buckets (the cells through
 * `rollupSource`), always bounded by a bucket range (the bucket index, or the primary key's
 * (tenant_id, role) prefix when a tenant is chosen). The only
 * raw read is the harmful-drop examples: a few decisions, found through `decisions_ts_idx` inside
 * the one hour that `tool_rollup_hour` says holds a harmful drop of the tool.
 *
 * Rollouts compare routed traffic: decisions in mode `off` (derived from an agent that routes
 * nothing, SPEC §8) narrow nothing, so they are left out of every cohort and only counted
 * (`countUnroutedDecisions`) for the page to say so.
 */
import "server-only";
import type { Period } from "@/lib/dashboard/time-range";
import { getPool } from "@/lib/db/client";
import type {
  CohortBucketRow,
  CohortCell,
  HarmfulDropExample,
  ToolHarmRow,
} from "@/lib/rollouts/types";
import type { StoredMode } from "@/lib/schemas/events";
import {
  filterConditions,
  type RollupFilter,
  type RollupWindow,
  rollupConditions,
  rollupSource,
  rollupSourceHasDays,
  rollupTable,
  toolRollupDays,
} from "./rollup";
import { SqlParams, whereClause } from "./sql";
import { sumPerTool } from "./tools";

/** Leaves out decisions of unrouted agents (mode `off`): they have nothing to compare. */
const ROUTED_ONLY = "mode <> 'off'";

/** Longest list of (mode, config version) cells a window returns. */
const MAX_CELLS = 1_000;

const SUM_COLUMNS = `
  sum(decisions) AS "decisions",
  sum(dropped_tokens) AS "droppedTokens",
  sum(dropped_tokens_sq) AS "droppedTokensSq",
  sum(offered_tools) AS "offeredTools",
  sum(offered_tools_sq) AS "offeredToolsSq",
  sum(selected_tools) AS "selectedTools",
  sum(selected_tools_sq) AS "selectedToolsSq",
  sum(decisions_reinstated) AS "decisionsReinstated",
  sum(decisions_empty_palette) AS "decisionsEmptyPalette",
  sum(decisions_stage_error) AS "decisionsStageError",
  sum(outcomes) AS "outcomes",
  sum(harmful_decisions) AS "harmfulDecisions",
  sum(harmful_drops) AS "harmfulDrops",
  sum(zero_call_outcomes) AS "zeroCallOutcomes"`;

/**
 * The window's sums per (mode, config version), each with its first-seen minute: the first
 * bucket read (`rollupSource`: whole days of an hour window come from `rollup_day`), refined
 * to the minute — a first day to its first hour in `rollup_hour`, a first hour to its first
 * minute in `rollup_minute`. Every cohort of the page is a sum of these cells.
 */
export async function sumCohortCells(
  filter: RollupFilter,
  period: RollupWindow,
): Promise<CohortCell[]> {
  const params = new SqlParams();
  const source = rollupSource(params, filter, period);
  const byDay = rollupSourceHasDays(period);
  const refine = period.granularity !== "minute";
  const hourFilter = byDay ? filterConditions(params, filter, "h.") : [];
  const minuteFilter = refine ? filterConditions(params, filter, "m.") : [];
  const and = (conditions: string[]) => conditions.map((condition) => `AND ${condition}`).join(" ");
  // The first hour of the cell: its first bucket, or the first hour of its first day.
  const firstHour = byDay ? "coalesce(fh.first_hour, c.first_bucket)" : "c.first_bucket";
  const { rows } = await getPool().query<CohortCell>(
    `WITH cells AS (
       SELECT mode, config_version, min(bucket) AS first_bucket, max(bucket) AS last_bucket,
              ${SUM_COLUMNS}
         FROM ${source} AS r
        WHERE ${ROUTED_ONLY}
        GROUP BY mode, config_version
        ORDER BY min(bucket), mode, config_version
        LIMIT ${params.add(MAX_CELLS)}
     )
     SELECT c.mode AS "mode", c.config_version AS "configVersion",
            ${refine ? `coalesce(f.first_minute, ${firstHour})` : "c.first_bucket"} AS "firstSeen",
            c.last_bucket AS "lastBucket",
            c."decisions", c."droppedTokens", c."droppedTokensSq", c."offeredTools",
            c."offeredToolsSq", c."selectedTools", c."selectedToolsSq", c."decisionsReinstated",
            c."decisionsEmptyPalette", c."decisionsStageError", c."outcomes",
            c."harmfulDecisions", c."harmfulDrops", c."zeroCallOutcomes"
       FROM cells c
       ${
         byDay
           ? `LEFT JOIN LATERAL (
                SELECT min(h.bucket) AS first_hour FROM rollup_hour h
                 WHERE h.bucket >= c.first_bucket
                   AND h.bucket < c.first_bucket + INTERVAL '1 day'
                   AND h.mode = c.mode AND h.config_version = c.config_version
                   ${and(hourFilter)}
              ) fh ON true`
           : ""
       }
       ${
         refine
           ? `LEFT JOIN LATERAL (
                SELECT min(m.bucket) AS first_minute FROM rollup_minute m
                 WHERE m.bucket >= ${firstHour}
                   AND m.bucket < ${firstHour} + INTERVAL '1 hour'
                   AND m.mode = c.mode AND m.config_version = c.config_version
                   ${and(minuteFilter)}
              ) f ON true`
           : ""
       }
      ORDER BY 3, 1, 2`,
    params.values,
  );
  return rows;
}

/**
 * Per chart bucket, the series measures of each mode (`split: "mode"`) or of the given config
 * versions (`split: "config"`, optionally within one mode).
 */
export async function sumCohortSeries(
  filter: RollupFilter,
  period: RollupWindow,
  split:
    | { by: "mode" }
    | { by: "config"; versions: readonly string[]; mode?: StoredMode | undefined },
): Promise<CohortBucketRow[]> {
  const params = new SqlParams();
  const table = rollupTable(period.granularity);
  const scope = split.by === "config" && split.mode ? { ...filter, mode: split.mode } : filter;
  const where = [...rollupConditions(params, scope, period), ROUTED_ONLY];
  let key = "mode";
  if (split.by === "config") {
    key = "config_version";
    where.push(`config_version = ANY(${params.add(split.versions)}::text[])`);
  }
  const { rows } = await getPool().query<CohortBucketRow>(
    `SELECT bucket AS "bucket", ${key} AS "key",
            sum(decisions) AS "decisions", sum(dropped_tokens) AS "droppedTokens",
            sum(outcomes) AS "outcomes", sum(harmful_decisions) AS "harmfulDecisions",
            sum(zero_call_outcomes) AS "zeroCallOutcomes"
       FROM ${table} ${whereClause(where)}
      GROUP BY 1, 2
      ORDER BY 1, 2`,
    params.values,
  );
  return rows;
}

/** Decisions in mode `off` (unrouted agents) in the window, which the cohorts leave out. */
export async function countUnroutedDecisions(
  filter: Omit<RollupFilter, "mode">,
  period: RollupWindow,
): Promise<number> {
  const params = new SqlParams();
  const where = rollupConditions(params, { ...filter, mode: "off" }, period);
  const { rows } = await getPool().query<{ decisions: number | null }>(
    `SELECT sum(decisions) AS decisions FROM ${rollupTable(period.granularity)} ${whereClause(where)}`,
    params.values,
  );
  return rows[0]?.decisions ?? 0;
}

/**
 * The tools harmfully dropped in observe traffic in the window, most harmful first, each with
 * the last hour of the window in which it was (the window is widened to whole hours). Only the
 * rollup rows with a harmful drop are read, the whole days from `tool_rollup_day`; where a
 * tool's last such row is a day, its hour comes from `tool_rollup_hour` (`lastHarmfulHours`).
 */
export async function sumHarmfulDropsByTool(
  filter: Omit<RollupFilter, "mode">,
  period: Period,
  limit = 10,
): Promise<ToolHarmRow[]> {
  const observe: RollupFilter = { ...filter, mode: "observe" };
  const tools = await sumPerTool<{ tool: string; harmfulDrops: number; lastBucket: Date }>(
    observe,
    period,
    {
      sums: `sum(harmful_drops) AS "harmfulDrops", max(bucket) AS "lastBucket"`,
      where: "harmful_drops > 0",
      orderBy: "2 DESC, 1",
      limit,
    },
  );
  const days = toolRollupDays(period);
  const isDay = (bucket: Date) => days !== null && bucket >= days.from && bucket < days.to;
  const hours = await lastHarmfulHours(
    observe,
    tools.filter((row) => isDay(row.lastBucket)),
  );
  return tools.map(({ tool, harmfulDrops, lastBucket }) => ({
    tool,
    harmfulDrops,
    lastHarmfulHour: hours.get(tool) ?? lastBucket,
  }));
}

/**
 * Per tool, the last hour of the given UTC day in which it was dropped harmfully, from the
 * day's rows of `tool_rollup_hour` that have a harmful drop (a partial index of its own).
 */
async function lastHarmfulHours(
  filter: RollupFilter,
  days: readonly { tool: string; lastBucket: Date }[],
): Promise<Map<string, Date>> {
  if (days.length === 0) return new Map();
  const params = new SqlParams();
  const tools = params.add(days.map((day) => day.tool));
  const starts = params.add(days.map((day) => day.lastBucket));
  const conditions = filterConditions(params, filter, "h.");
  const { rows } = await getPool().query<{ tool: string; hour: Date | null }>(
    `SELECT t.tool AS "tool",
            (SELECT max(h.bucket) FROM tool_rollup_hour h
              WHERE h.tool = t.tool AND h.harmful_drops > 0
                AND h.bucket >= t.day AND h.bucket < t.day + INTERVAL '1 day'
                ${conditions.map((condition) => `AND ${condition}`).join(" ")}) AS "hour"
       FROM unnest(${tools}::text[], ${starts}::timestamptz[]) AS t(tool, day)`,
    params.values,
  );
  return new Map(rows.flatMap((row) => (row.hour ? [[row.tool, row.hour] as const] : [])));
}

/**
 * Up to `perTarget` decisions in which each target tool was a harmful drop, newest first, looked
 * up only inside the target's hour: the hour's decisions with any harmful drop come from
 * `decision_outcomes_harmful_ts_idx` (a tool is harmful in about one decision of a thousand, so
 * the whole hour would be read for three), each with its decision by the decision's primary
 * key, and the tool, tenant, role and mode are checked on those rows. `OFFSET 0` keeps the
 * planner from intersecting the hour with the tenant's whole index range.
 */
export async function listHarmfulDropExamples(
  filter: RollupFilter,
  period: Period,
  targets: readonly { tool: string; hour: Date }[],
  perTarget = 3,
): Promise<HarmfulDropExample[]> {
  if (targets.length === 0) return [];
  const params = new SqlParams();
  const tools = params.add(targets.map((target) => target.tool));
  const hours = params.add(targets.map((target) => target.hour));
  const from = params.add(period.from);
  const to = params.add(period.to);
  const outer = [
    "c.harmful_tools @> ARRAY[t.tool]::text[]",
    ...filterConditions(params, filter, "c."),
  ];
  const { rows } = await getPool().query<Omit<HarmfulDropExample, "ts"> & { ts: Date }>(
    `SELECT t.tool AS "tool", e.tenant_id AS "tenantId", e.run_id AS "runId",
            e.iteration AS "iteration", e.ts AS "ts"
       FROM unnest(${tools}::text[], ${hours}::timestamptz[]) WITH ORDINALITY AS t(tool, hour, position)
      CROSS JOIN LATERAL (
        SELECT c.tenant_id, c.run_id, c.iteration, c.ts
          FROM (SELECT d.tenant_id, d.run_id, d.iteration, d.ts, d.role, d.mode, j.harmful_tools
                  FROM decision_outcomes j
                  JOIN decisions d
                    ON d.tenant_id = j.tenant_id AND d.id = j.decision_id AND d.ts = j.ts
                 WHERE j.ts >= greatest(t.hour, ${from}::timestamptz)
                   AND j.ts < least(t.hour + INTERVAL '1 hour', ${to}::timestamptz)
                   AND j.harmful_tools <> '{}'::text[]
                 ORDER BY j.ts DESC
                OFFSET 0) c
         WHERE ${outer.join(" AND ")}
         LIMIT ${params.add(perTarget)}
      ) e
      ORDER BY t.position, e.ts DESC`,
    params.values,
  );
  return rows.map((row) => ({ ...row, ts: row.ts.toISOString() }));
}
