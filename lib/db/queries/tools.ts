/**
 * Tools reads: per-tool totals from `tool_rollup_hour` only, bounded by a bucket range. The
 * rollup resolves time to UTC hours, so a window is widened to whole hours (`toHourWindow`).
 */
import "server-only";
import type { Period } from "@/lib/dashboard/time-range";
import { getPool } from "@/lib/db/client";
import type { ToolUsageRow } from "@/lib/tools/types";
import { type RollupFilter, rollupConditions, toHourWindow } from "./rollup";
import { SqlParams, whereClause } from "./sql";

/** Most tools a table lists (agents rarely offer more than a few hundred). */
const MAX_TOOLS = 2_000;

/** Per tool: offered, selected, dropped, called, harmful drops and tokens saved by dropping it. */
export async function sumToolUsage(filter: RollupFilter, window: Period): Promise<ToolUsageRow[]> {
  const params = new SqlParams();
  const where = rollupConditions(params, filter, toHourWindow(window));
  const { rows } = await getPool().query<ToolUsageRow>(
    `SELECT tool AS "tool", sum(offered) AS "offered", sum(selected) AS "selected",
            sum(dropped) AS "dropped", sum(called) AS "called",
            sum(harmful_drops) AS "harmfulDrops", sum(dropped_tokens) AS "droppedTokens"
       FROM tool_rollup_hour ${whereClause(where)}
      GROUP BY tool
      ORDER BY sum(offered) DESC, tool
      LIMIT ${params.add(MAX_TOOLS)}`,
    params.values,
  );
  return rows;
}

/** The latest hours in which `tool` was dropped harmfully (where to look for examples). */
export async function listHarmfulDropHours(
  filter: RollupFilter,
  window: Period,
  tool: string,
  limit = 4,
): Promise<Date[]> {
  const params = new SqlParams();
  const where = rollupConditions(params, filter, toHourWindow(window));
  where.push(`tool = ${params.add(tool)}`, "harmful_drops > 0");
  const { rows } = await getPool().query<{ hour: Date }>(
    `SELECT bucket AS "hour" FROM tool_rollup_hour ${whereClause(where)}
      GROUP BY bucket ORDER BY bucket DESC LIMIT ${params.add(limit)}`,
    params.values,
  );
  return rows.map((row) => row.hour);
}
