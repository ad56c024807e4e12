/**
 * "Rollups equal raw sums": recomputes every integer measure of `rollup_minute`,
 * `rollup_hour`, `rollup_day`, `tool_rollup_hour`, `tool_rollup_day` and `runs` for one
 * tenant from its raw decisions, and lists each row where the stored aggregate and the
 * recomputation differ (empty when they agree). The float measures (sums of squares, per-tool
 * token shares) are left out: they are sums of doubles, whose last digits depend on the order
 * of addition.
 */
import type pg from "pg";
import { DECISIONS_WITH_OUTCOMES } from "@/lib/ingest/decision-outcomes";
import { offeredOf, selectedOf } from "@/lib/ingest/palettes";

const BUCKET_ROLLUP_MEASURES = `
  count(*)::bigint AS decisions,
  sum(dropped_tokens)::bigint AS dropped_tokens,
  sum(offered_count)::bigint AS offered_tools,
  sum(selected_count)::bigint AS selected_tools,
  sum(reinstatements)::bigint AS reinstatements,
  sum(empty_palette_warnings)::bigint AS empty_palette_warnings,
  sum(stage_errors)::bigint AS stage_errors,
  count(*) FILTER (WHERE reinstatements > 0)::bigint AS decisions_reinstated,
  count(*) FILTER (WHERE empty_palette_warnings > 0)::bigint AS decisions_empty_palette,
  count(*) FILTER (WHERE stage_errors > 0)::bigint AS decisions_stage_error,
  count(*) FILTER (WHERE has_outcome)::bigint AS outcomes,
  count(*) FILTER (WHERE has_outcome AND cardinality(harmful_tools) > 0)::bigint AS harmful_decisions,
  sum(cardinality(harmful_tools))::bigint AS harmful_drops,
  count(*) FILTER (WHERE has_outcome AND cardinality(called) = 0)::bigint AS zero_call_outcomes`;

const STORED_ROLLUP_MEASURES = `decisions, dropped_tokens, offered_tools, selected_tools,
  reinstatements, empty_palette_warnings, stage_errors, decisions_reinstated,
  decisions_empty_palette, decisions_stage_error, outcomes, harmful_decisions, harmful_drops,
  zero_call_outcomes`;

const ROLLUP_UNITS = { rollup_minute: "minute", rollup_hour: "hour", rollup_day: "day" } as const;

function rollupQuery(table: keyof typeof ROLLUP_UNITS): string {
  const unit = ROLLUP_UNITS[table];
  return `
    SELECT role, mode, config_version, date_trunc('${unit}', ts AT TIME ZONE 'UTC') AS bucket,
           ${BUCKET_ROLLUP_MEASURES}
      FROM ${DECISIONS_WITH_OUTCOMES} AS decisions WHERE tenant_id = $1 GROUP BY 1, 2, 3, 4`;
}

const STORED = (table: string) =>
  `SELECT role, mode, config_version, bucket AT TIME ZONE 'UTC' AS bucket, ${STORED_ROLLUP_MEASURES}
     FROM ${table} WHERE tenant_id = $1`;

const toolsRaw = (unit: "hour" | "day") => `
  SELECT role, mode, date_trunc('${unit}', ts AT TIME ZONE 'UTC') AS bucket, tool,
         sum(offered)::bigint AS offered, sum(selected)::bigint AS selected,
         sum(dropped)::bigint AS dropped, sum(called)::bigint AS called,
         sum(harmful)::bigint AS harmful_drops, sum(unused)::bigint AS unused_offers
    FROM (
      SELECT d.role, d.mode, d.ts, t.tool, 1 AS offered, 0 AS selected, 0 AS dropped, 0 AS called, 0 AS harmful, 0 AS unused
        FROM ${DECISIONS_WITH_OUTCOMES} d, LATERAL (SELECT DISTINCT unnest(${offeredOf("d")}) AS tool) t WHERE d.tenant_id = $1
      UNION ALL
      SELECT d.role, d.mode, d.ts, t.tool, 0, 1, 0, 0, 0, 0
        FROM ${DECISIONS_WITH_OUTCOMES} d, LATERAL (SELECT DISTINCT unnest(${selectedOf("d")}) AS tool) t WHERE d.tenant_id = $1
      UNION ALL
      SELECT d.role, d.mode, d.ts, t.tool, 0, 0, 1, 0, 0, 0
        FROM ${DECISIONS_WITH_OUTCOMES} d,
             LATERAL (SELECT DISTINCT o AS tool FROM unnest(${offeredOf("d")}) AS o WHERE o <> ALL(${selectedOf("d")})) t
       WHERE d.tenant_id = $1
      UNION ALL
      SELECT d.role, d.mode, d.ts, t.tool, 0, 0, 0, 1, 0, 0
        FROM ${DECISIONS_WITH_OUTCOMES} d, LATERAL (SELECT DISTINCT unnest(d.called) AS tool) t
       WHERE d.tenant_id = $1 AND d.has_outcome
      UNION ALL
      SELECT d.role, d.mode, d.ts, t.tool, 0, 0, 0, 0, 1, 0
        FROM ${DECISIONS_WITH_OUTCOMES} d, LATERAL unnest(d.harmful_tools) AS t(tool) WHERE d.tenant_id = $1
      UNION ALL
      -- Unused offers: a tool in front of the model (selected in enforce, offered otherwise)
      -- that a decision with an outcome did not call.
      SELECT d.role, d.mode, d.ts, t.tool, 0, 0, 0, 0, 0, 1
        FROM ${DECISIONS_WITH_OUTCOMES} d,
             LATERAL (SELECT DISTINCT unnest(CASE WHEN d.mode = 'enforce' THEN ${selectedOf("d")} ELSE ${offeredOf("d")} END) AS tool) t
       WHERE d.tenant_id = $1 AND d.has_outcome AND NOT (t.tool = ANY(d.called))
    ) per_tool
   GROUP BY 1, 2, 3, 4`;

const toolsStored = (table: "tool_rollup_hour" | "tool_rollup_day") => `
  SELECT role, mode, bucket AT TIME ZONE 'UTC' AS bucket, tool, offered, selected, dropped, called,
         harmful_drops, unused_offers
    FROM ${table} WHERE tenant_id = $1`;

const RUNS_RAW = `
  SELECT run_id, min(ts) AS first_seen, max(ts) AS last_seen, count(*)::bigint AS decisions,
         max(iteration) AS max_iteration, array_agg(DISTINCT role::text ORDER BY role::text) AS roles,
         array_agg(DISTINCT mode::text ORDER BY mode::text) AS modes, sum(dropped_tokens)::bigint AS dropped_tokens,
         sum(reinstatements)::bigint AS reinstatements,
         sum(empty_palette_warnings)::bigint AS empty_palette_warnings,
         sum(stage_errors)::bigint AS stage_errors,
         sum(cardinality(harmful_tools))::bigint AS harmful_drops
    FROM ${DECISIONS_WITH_OUTCOMES} AS decisions WHERE tenant_id = $1 GROUP BY run_id`;

const RUNS_STORED = `
  SELECT run_id, first_seen, last_seen, decisions::bigint, max_iteration, roles, modes,
         dropped_tokens, reinstatements::bigint, empty_palette_warnings::bigint,
         stage_errors::bigint, harmful_drops::bigint
    FROM runs WHERE tenant_id = $1`;

async function differences(
  db: pg.Client | pg.Pool,
  label: string,
  raw: string,
  stored: string,
  tenant: string,
): Promise<string[]> {
  const { rows } = await db.query(
    `WITH raw AS (${raw}), stored AS (${stored})
     SELECT 'recomputed' AS side, * FROM (SELECT * FROM raw EXCEPT ALL SELECT * FROM stored) a
     UNION ALL
     SELECT 'stored' AS side, * FROM (SELECT * FROM stored EXCEPT ALL SELECT * FROM raw) b`,
    [tenant],
  );
  return rows.map((row) => `${label}: ${JSON.stringify(row)}`);
}

/** Every row where a rollup or the runs summary of `tenant` disagrees with its raw decisions. */
export async function rollupDifferences(
  db: pg.Client | pg.Pool,
  tenant: string,
): Promise<string[]> {
  return [
    ...(await differences(
      db,
      "rollup_minute",
      rollupQuery("rollup_minute"),
      STORED("rollup_minute"),
      tenant,
    )),
    ...(await differences(
      db,
      "rollup_hour",
      rollupQuery("rollup_hour"),
      STORED("rollup_hour"),
      tenant,
    )),
    ...(await differences(
      db,
      "rollup_day",
      rollupQuery("rollup_day"),
      STORED("rollup_day"),
      tenant,
    )),
    ...(await differences(
      db,
      "tool_rollup_hour",
      toolsRaw("hour"),
      toolsStored("tool_rollup_hour"),
      tenant,
    )),
    ...(await differences(
      db,
      "tool_rollup_day",
      toolsRaw("day"),
      toolsStored("tool_rollup_day"),
      tenant,
    )),
    ...(await differences(db, "runs", RUNS_RAW, RUNS_STORED, tenant)),
  ];
}
