/**
 * The rollups of a benchmark data set filled straight from its raw rows in SQL (what ingest
 * keeps one batch at a time), shared by the benchmarks that load millions of decisions
 * without going through the API. Rows are written in bucket order, as ingest writes them
 * while time passes: a window's rows then share pages, as in a real database (hashed groups
 * come out in no order, which spread one day's per-tool rows over a third of the table).
 */
import { DECISIONS_WITH_OUTCOMES } from "@/lib/ingest/decision-outcomes";

const ROLLUP_COLUMNS = `tenant_id, role, mode, config_version, bucket, decisions, dropped_tokens,
  dropped_tokens_sq, offered_tools, offered_tools_sq, selected_tools, selected_tools_sq,
  reinstatements, empty_palette_warnings, stage_errors, decisions_reinstated,
  decisions_empty_palette, decisions_stage_error, outcomes, harmful_decisions, harmful_drops,
  zero_call_outcomes`;

/**
 * rollup_minute from the decisions `where` picks (every decision by default), read from
 * `source` (the decisions with their outcomes; bounded by time when `where` is).
 */
export const insertRollupMinute = (where = "", source = DECISIONS_WITH_OUTCOMES) => `
INSERT INTO rollup_minute (${ROLLUP_COLUMNS})
SELECT tenant_id, role, mode, config_version, date_trunc('minute', ts), count(*),
       sum(dropped_tokens), sum(dropped_tokens::float8 ^ 2),
       sum(offered_count), sum(offered_count::float8 ^ 2),
       sum(selected_count), sum(selected_count::float8 ^ 2),
       sum(reinstatements), sum(empty_palette_warnings), sum(stage_errors),
       count(*) FILTER (WHERE reinstatements > 0), count(*) FILTER (WHERE empty_palette_warnings > 0),
       count(*) FILTER (WHERE stage_errors > 0), count(*) FILTER (WHERE has_outcome),
       count(*) FILTER (WHERE has_outcome AND cardinality(harmful_tools) > 0),
       coalesce(sum(cardinality(harmful_tools)), 0),
       count(*) FILTER (WHERE has_outcome AND cardinality(called) = 0)
  FROM ${source} AS decisions ${where} GROUP BY 1, 2, 3, 4, 5 ORDER BY 5`;

export const INSERT_ROLLUP_MINUTE = insertRollupMinute();

/** Sums a coarser rollup's rows from a finer one's, `bucket` being the coarser bucket. */
const sumRollupRows = (table: string, bucket: string, source: string, where: string) => `
INSERT INTO ${table} (${ROLLUP_COLUMNS})
SELECT tenant_id, role, mode, config_version, ${bucket}, sum(decisions),
       sum(dropped_tokens), sum(dropped_tokens_sq), sum(offered_tools), sum(offered_tools_sq),
       sum(selected_tools), sum(selected_tools_sq), sum(reinstatements),
       sum(empty_palette_warnings), sum(stage_errors), sum(decisions_reinstated),
       sum(decisions_empty_palette), sum(decisions_stage_error), sum(outcomes),
       sum(harmful_decisions), sum(harmful_drops), sum(zero_call_outcomes)
  FROM ${source} ${where} GROUP BY 1, 2, 3, 4, 5 ORDER BY 5`;

/** rollup_hour from the rows of rollup_minute `where` picks (all of them by default). */
export const insertRollupHour = (where = "") =>
  sumRollupRows("rollup_hour", "date_trunc('hour', bucket)", "rollup_minute", where);

export const INSERT_ROLLUP_HOUR = insertRollupHour();

/** rollup_day from the rows of rollup_hour `where` picks (all of them by default). */
export const insertRollupDay = (where = "") =>
  sumRollupRows(
    "rollup_day",
    "date_bin('1 day', bucket, TIMESTAMPTZ '2000-01-01 00:00:00+00')",
    "rollup_hour",
    where,
  );

export const INSERT_ROLLUP_DAY = insertRollupDay();
