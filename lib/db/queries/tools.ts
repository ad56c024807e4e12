/**
 * Tools reads: per-tool totals from `tool_rollup_day` and `tool_rollup_hour` only, bounded by a
 * bucket range. The rollups resolve time to UTC hours, so a window is widened to whole hours
 * (`toHourWindow`); its whole days are read from the day rollup (`toolRollupSource`).
 */
import "server-only";
import type { QueryResultRow } from "pg";
import type { Period } from "@/lib/dashboard/time-range";
import { getPool } from "@/lib/db/client";
import { type RollupFilter, rollupConditions, toHourWindow, toolRollupSource } from "./rollup";
import { SqlParams, whereClause } from "./sql";

/**
 * Per-tool sums over the per-tool rollups for a filter and the hours of a window: the shape
 * every per-tool read takes (`sums` are the selected aggregates over the columns of
 * `tool_rollup_hour`).
 */
export async function sumPerTool<Row extends QueryResultRow>(
  filter: RollupFilter,
  period: Period,
  query: {
    sums: string;
    /** A condition on the rollup rows summed (see `toolRollupSource`). */
    where?: string;
    orderBy: string;
    limit: number;
  },
): Promise<Row[]> {
  const params = new SqlParams();
  const { rows } = await getPool().query<Row>(
    `SELECT tool AS "tool", ${query.sums}
       FROM ${toolRollupSource(params, filter, period, query.where)} AS t
      GROUP BY tool
      ORDER BY ${query.orderBy}
      LIMIT ${params.add(query.limit)}`,
    params.values,
  );
  return rows;
}

/** The latest hours in which `tool` was dropped harmfully (where to look for examples). */
export async function listHarmfulDropHours(
  filter: RollupFilter,
  period: Period,
  tool: string,
  limit = 4,
): Promise<Date[]> {
  const params = new SqlParams();
  const where = rollupConditions(params, filter, toHourWindow(period));
  where.push(`tool = ${params.add(tool)}`, "harmful_drops > 0");
  const { rows } = await getPool().query<{ hour: Date }>(
    `SELECT bucket AS "hour" FROM tool_rollup_hour ${whereClause(where)}
      GROUP BY bucket ORDER BY bucket DESC LIMIT ${params.add(limit)}`,
    params.values,
  );
  return rows.map((row) => row.hour);
}
