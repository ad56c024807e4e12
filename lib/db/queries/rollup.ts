/**
 * What every rollup read shares: the filter a view narrows its rollups by, the rollup table
 * that holds a window's buckets, the SQL of a chart bucket and the WHERE conditions with their
 * parameters. The overview, rollouts and tools queries build on these, so a filter or a table
 * added here reaches every view the same way.
 *
 * Tables (README, "Storage design"): `rollup_minute`, `rollup_hour` and `rollup_day` per
 * (tenant, role, mode, config version, bucket), `tool_rollup_hour` and `tool_rollup_day` per
 * tool and hour or UTC day. Every read is bounded by a bucket range, so it uses the table's
 * bucket index, or its primary key's (tenant_id, role) prefix when a tenant is chosen.
 */
import "server-only";
import type { TenantScope } from "@/lib/auth/scope";
import {
  ceilToBucket,
  floorToBucket,
  type Granularity,
  type Period,
} from "@/lib/dashboard/time-range";
import type { StoredMode } from "@/lib/schemas/events";
import { type SqlParams, scopeConditions } from "./sql";

/**
 * The tenant, role and mode a view is narrowed to; an absent field means all — of the
 * tenants in `scope`, the viewer's.
 */
export interface RollupFilter {
  scope: TenantScope;
  tenant?: string | undefined;
  role?: string | undefined;
  mode?: StoredMode | undefined;
}

/** A window on the bucket grid and the size of the buckets it is charted in. */
export type RollupWindow = Period & { granularity: Granularity };

export type RollupTable = "rollup_minute" | "rollup_hour" | "rollup_day";

const ROLLUP_TABLES: Record<Granularity, RollupTable> = {
  minute: "rollup_minute",
  hour: "rollup_hour",
  day: "rollup_day",
};

/**
 * The table holding a granularity's buckets: minute windows (ranges of up to 6 hours, see
 * `chooseGranularity`) read `rollup_minute`, hour windows `rollup_hour`, day windows (whole
 * UTC days, as `resolveTimeRange` snaps them) `rollup_day`. A row's bucket is then the chart's
 * bucket.
 */
export function rollupTable(granularity: Granularity): RollupTable {
  return ROLLUP_TABLES[granularity];
}

/** The scope's tenants, then `tenant_id = $n`, `role = $n`, `mode = $n` for the fields set. */
export function filterConditions(params: SqlParams, filter: RollupFilter, alias = ""): string[] {
  const conditions = scopeConditions(params, filter.scope, alias);
  if (filter.tenant) conditions.push(`${alias}tenant_id = ${params.add(filter.tenant)}`);
  if (filter.role) conditions.push(`${alias}role = ${params.add(filter.role)}`);
  if (filter.mode) conditions.push(`${alias}mode = ${params.add(filter.mode)}`);
  return conditions;
}

/** The buckets in `period` (from inclusive, to exclusive), then the filter's conditions. */
export function rollupConditions(
  params: SqlParams,
  filter: RollupFilter,
  period: Period,
  alias = "",
): string[] {
  return [
    `${alias}bucket >= ${params.add(period.from)}`,
    `${alias}bucket < ${params.add(period.to)}`,
    ...filterConditions(params, filter, alias),
  ];
}

/**
 * A window widened to whole UTC hours, the grid of `tool_rollup_hour`: the hour holding `from`
 * up to the end of the hour holding the last instant before `to`.
 */
export function toHourWindow(period: Period): Period {
  return {
    from: new Date(floorToBucket(period.from.getTime(), "hour")),
    to: new Date(ceilToBucket(period.to.getTime(), "hour")),
  };
}

/** The rollup filter a view's URL state describes (its tenant, role and mode fields). */
export function rollupFilterOf(
  search: Omit<RollupFilter, "scope">,
  scope: TenantScope,
): RollupFilter {
  return { scope, tenant: search.tenant, role: search.role, mode: search.mode };
}

/** The columns `tool_rollup_hour` and `tool_rollup_day` share, in the order both declare them. */
const TOOL_ROLLUP_COLUMNS = `tenant_id, role, mode, bucket, tool, offered, selected, dropped,
       called, harmful_drops, dropped_tokens, unused_offers`;

/** The columns `rollup_minute`, `rollup_hour` and `rollup_day` share. */
const ROLLUP_COLUMNS = `tenant_id, role, mode, config_version, bucket, decisions, dropped_tokens,
       dropped_tokens_sq, offered_tools, offered_tools_sq, selected_tools, selected_tools_sq,
       reinstatements, empty_palette_warnings, stage_errors, decisions_reinstated,
       decisions_empty_palette, decisions_stage_error, outcomes, harmful_decisions, harmful_drops,
       zero_call_outcomes`;

/** The whole UTC days inside a window on the hour grid, or null when it holds none. */
function wholeDaysIn(hours: Period): Period | null {
  const firstDay = ceilToBucket(hours.from.getTime(), "day");
  const endOfDays = floorToBucket(hours.to.getTime(), "day");
  return firstDay < endOfDays ? { from: new Date(firstDay), to: new Date(endOfDays) } : null;
}

/**
 * The whole UTC days inside a window widened to whole hours (`toHourWindow`): the buckets
 * `toolRollupSource` reads from `tool_rollup_day`, or null when the window holds no whole day.
 */
export function toolRollupDays(period: Period): Period | null {
  return wholeDaysIn(toHourWindow(period));
}

/**
 * Rows of an hourly table and its daily twin covering `hours` (a window on the hour grid), as
 * a subquery: the day table for the whole UTC days inside it, the hour table for the hours
 * before the first and after the last of them. The two tables are kept in the same
 * transaction at ingest and hold the same sums, so they read alike.
 */
function hoursAndDays(
  params: SqlParams,
  tables: { hour: string; day: string },
  columns: string,
  hours: Period,
  conditions: readonly string[],
): string {
  const branch = (table: string, from: Date, to: Date) =>
    `SELECT ${columns} FROM ${table}
      WHERE ${[`bucket >= ${params.add(from)}`, `bucket < ${params.add(to)}`, ...conditions].join(" AND ")}`;
  const days = wholeDaysIn(hours);
  if (days === null) return `(${branch(tables.hour, hours.from, hours.to)})`;
  const branches = [branch(tables.day, days.from, days.to)];
  if (hours.from < days.from) branches.push(branch(tables.hour, hours.from, days.from));
  if (days.to < hours.to) branches.push(branch(tables.hour, days.to, hours.to));
  return `(${branches.join("\n     UNION ALL\n     ")})`;
}

/**
 * The per-tool rollup rows of a window widened to whole hours (`toHourWindow`), as a subquery
 * to read `FROM (…) AS alias`: `tool_rollup_day` rows for the whole UTC days inside it
 * (`toolRollupDays`) and `tool_rollup_hour` rows for the hours at either end, so a 30-day
 * window sums about 30 rows per (tenant, role, mode, tool) instead of 720. The filter's
 * conditions, and `where` (a condition on the rollup columns), apply to every branch. A row's
 * `bucket` is an hour, or a day's midnight for the rows of the days.
 */
export function toolRollupSource(
  params: SqlParams,
  filter: RollupFilter,
  period: Period,
  where?: string,
): string {
  const conditions = [...filterConditions(params, filter), ...(where ? [where] : [])];
  const tables = { hour: "tool_rollup_hour", day: "tool_rollup_day" };
  return hoursAndDays(params, tables, TOOL_ROLLUP_COLUMNS, toHourWindow(period), conditions);
}

/**
 * The decision rollup rows of a window, as a subquery to read `FROM (…) AS alias`, for sums
 * that do not need the chart's buckets (totals, breakdowns, rollout cells): minute and day
 * windows read their own table (`rollupTable`); an hour window reads `rollup_day` for the
 * whole UTC days inside it and `rollup_hour` for the hours at either end, so 7 days sum about
 * 8 rows per (tenant, role, mode, config version) instead of 168. A row's `bucket` is then a
 * minute, an hour, or a day's midnight.
 */
export function rollupSource(
  params: SqlParams,
  filter: RollupFilter,
  window: RollupWindow,
): string {
  const conditions = filterConditions(params, filter);
  if (window.granularity !== "hour") {
    const where = [
      `bucket >= ${params.add(window.from)}`,
      `bucket < ${params.add(window.to)}`,
      ...conditions,
    ];
    return `(SELECT ${ROLLUP_COLUMNS} FROM ${rollupTable(window.granularity)}
      WHERE ${where.join(" AND ")})`;
  }
  const tables = { hour: "rollup_hour", day: "rollup_day" };
  return hoursAndDays(params, tables, ROLLUP_COLUMNS, window, conditions);
}

/** Whether `rollupSource` of the window may return day rows (whose first hour is unknown). */
export function rollupSourceHasDays(window: RollupWindow): boolean {
  return (
    window.granularity === "day" || (window.granularity === "hour" && wholeDaysIn(window) !== null)
  );
}
