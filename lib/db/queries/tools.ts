import "server-only";
import { ceilToBucket, floorToBucket, type Period } from "@/lib/dashboard/time-range";
/**
 * Tools reads: per-tool totals from `tool_rollup_hour` only, bounded by a bucket range. The
 * rollup resolves time to UTC hours, so a window is widened to whole hours.
 */
import { getPool } from "@/lib/db/client";
import type { RoutingMode } from "@/lib/schemas/events";
import type { ToolUsageRow } from "@/lib/tools/types";
import { SqlParams, whereClause } from "./sql";

export interface ToolFilter {
  tenant?: string | undefined;
  role?: string | undefined;
  mode?: RoutingMode | undefined;
}

/** Most tools a table lists (agents rarely offer more than a few hundred). */
const MAX_TOOLS = 2_000;

/** The window on the hour grid of `tool_rollup_hour`. */
export function toHourWindow(window: Period): Period {
  return {
    from: new Date(floorToBucket(window.from.getTime(), "hour")),
    to: new Date(ceilToBucket(window.to.getTime(), "hour")),
  };
}

function conditions(params: SqlParams, filter: ToolFilter, window: Period): string[] {
  const hours = toHourWindow(window);
  const list = [`bucket >= ${params.add(hours.from)}`, `bucket < ${params.add(hours.to)}`];
  if (filter.tenant) list.push(`tenant_id = ${params.add(filter.tenant)}`);
  if (filter.role) list.push(`role = ${params.add(filter.role)}`);
  if (filter.mode) list.push(`mode = ${params.add(filter.mode)}`);
  return list;
}

/** Per tool: offered, selected, dropped, called, harmful drops and tokens saved by dropping it. */
export async function sumToolUsage(filter: ToolFilter, window: Period): Promise<ToolUsageRow[]> {
  const params = new SqlParams();
  const where = conditions(params, filter, window);
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
  filter: ToolFilter,
  window: Period,
  tool: string,
  limit = 4,
): Promise<Date[]> {
  const params = new SqlParams();
  const where = conditions(params, filter, window);
  where.push(`tool = ${params.add(tool)}`, "harmful_drops > 0");
  const { rows } = await getPool().query<{ hour: Date }>(
    `SELECT bucket AS "hour" FROM tool_rollup_hour ${whereClause(where)}
      GROUP BY bucket ORDER BY bucket DESC LIMIT ${params.add(limit)}`,
    params.values,
  );
  return rows.map((row) => row.hour);
}
