/**
 * The context tax (SPEC §8): what offering each tool costs in tokens, and how much of that went
 * to calls where the model did not call it. Read from the per-tool rollups (offers, calls and
 * `unused_offers` per tool, by UTC day in `tool_rollup_day` and by hour in `tool_rollup_hour`,
 * see `toolRollupSource`) and `tool_sizes` (each tool's estimated definition size per tenant),
 * bounded by whole hours like every per-tool read; LLM calls without a tool list come from
 * `otel_call_rollup_hour`.
 *
 * Tokens per offer are estimated per (tenant, tool): the definition's size when a definition
 * was seen, otherwise the dropped-token estimate recorded per drop in the window (`dropped_tokens`
 * / `dropped`, what routed agents send), otherwise none.
 */
import "server-only";
import type { Period } from "@/lib/dashboard/time-range";
import { getPool } from "@/lib/db/client";
import type { ContextTaxDayRow, ContextTaxTenantToolRow } from "@/lib/tools/types";
import {
  type RollupFilter,
  rollupConditions,
  rollupSource,
  toHourWindow,
  toolRollupSource,
} from "./rollup";
import { SqlParams, whereClause } from "./sql";

/** Most (day, tenant, role) lines of the daily totals. */
const MAX_DAY_LINES = 5_000;

/** An offer: a decision that put the tool in front of the model (`selected` in enforce). */
const OFFERS = "CASE WHEN mode = 'enforce' THEN selected ELSE offered END";
/** Most (tenant, tool) lines one window reads. */
const MAX_TENANT_TOOLS = 20_000;

/**
 * The sums per (tenant, tool) both tables of the tools page are made of, over rollup rows `t`.
 * Summed as float8: exact up to 2^53 (the page reads them as JavaScript numbers anyway). A
 * bigint sum keeps a separately allocated 128-bit state per group; PostgreSQL counts that
 * memory for the groups it expects (ten times the real number here) and then sorts every row
 * instead of hashing them: the per-day cells of a day of the 10M benchmark set took 193 ms
 * that way, 76 ms with float8 sums.
 */
const TENANT_TOOL_MEASURES: Record<string, string> = {
  offers: OFFERS,
  calls: "called",
  unused: "unused_offers",
  dropped: "dropped",
  dropped_tokens: "dropped_tokens",
  offered: "offered",
  selected: "selected",
  harmful_drops: "harmful_drops",
};
const TENANT_TOOL_SUMS = Object.entries(TENANT_TOOL_MEASURES)
  .map(([name, column]) => `sum((${column})::float8) AS ${name}`)
  .join(", ");
/** The same measures summed again from rows that already hold them (finer groups). */
const TENANT_TOOL_RESUMS = Object.keys(TENANT_TOOL_MEASURES)
  .map((name) => `sum(${name}) AS ${name}`)
  .join(", ");

/**
 * The columns of a `ContextTaxTenantToolRow` from sums `g` (TENANT_TOOL_SUMS per tenant and
 * tool) joined to the tenant's `tool_sizes` row `s`: the estimate of one offer is the
 * definition's size, else the window's dropped tokens per drop, else null.
 */
const TENANT_TOOL_COLUMNS = `g.tenant_id AS "tenant", g.tool AS "tool", g.offers AS "offers",
       g.calls AS "calls", g.unused AS "unusedOffers", s.tokens AS "definitionTokens",
       coalesce(s.tokens::float8, g.dropped_tokens / nullif(g.dropped, 0)) AS "tokens",
       g.offered AS "offered", g.selected AS "selected", g.dropped AS "dropped",
       g.harmful_drops AS "harmfulDrops", g.dropped_tokens AS "droppedTokens"`;

/** The UTC day of a rollup row's bucket (an hour, or a day's midnight). */
const UTC_DAY = "date_bin('1 day', bucket, TIMESTAMPTZ '2000-01-01 00:00:00+00')";

/**
 * Per tenant and tool: offers, calls, unused offers, and the estimated tokens of one offer —
 * the definition's size, else the window's dropped tokens per drop, else null — with the
 * usage the tools table shows (offered, selected, dropped, harmful drops, dropped tokens).
 * One pass over the window's rollup rows, joined to the sizes after summing (an estimate is
 * the same for every hour of a tenant). `sumContextTaxPerTool` and `sumToolUsagePerTool`
 * (lib/tools) add the tenants up per tool.
 */
export async function sumContextTaxByTenantTool(
  filter: RollupFilter,
  period: Period,
): Promise<ContextTaxTenantToolRow[]> {
  const params = new SqlParams();
  const source = toolRollupSource(params, filter, period);
  const { rows } = await getPool().query<ContextTaxTenantToolRow>(
    `SELECT ${TENANT_TOOL_COLUMNS}
       FROM (SELECT tenant_id, tool, ${TENANT_TOOL_SUMS} FROM ${source} AS t
              GROUP BY tenant_id, tool) g
       LEFT JOIN tool_sizes s ON s.tenant_id = g.tenant_id AND s.tool = g.tool
      ORDER BY g.tenant_id, g.tool
      LIMIT ${params.add(MAX_TENANT_TOOLS)}`,
    params.values,
  );
  return rows;
}

/**
 * Per UTC day, tenant and role: offers, unused offers and their estimated tokens, with the
 * per-(tenant, tool) estimates `sumContextTaxByTenantTool` found for the same window (passed
 * in). The rollup rows are first summed per (day, tenant, role, tool), a few thousand cells
 * for tens of thousands of hourly rows, and only those cells are joined to the estimates.
 */
export async function sumContextTaxByDay(
  filter: RollupFilter,
  period: Period,
  estimates: readonly Pick<ContextTaxTenantToolRow, "tenant" | "tool" | "tokens">[],
): Promise<ContextTaxDayRow[]> {
  const params = new SqlParams();
  const source = toolRollupSource(params, filter, period);
  const tenants = params.add(estimates.map((estimate) => estimate.tenant));
  const tools = params.add(estimates.map((estimate) => estimate.tool));
  const tokens = params.add(estimates.map((estimate) => estimate.tokens));
  const { rows } = await getPool().query<ContextTaxDayRow>(
    `WITH cells AS (
       SELECT ${UTC_DAY} AS day, r.tenant_id, r.role, r.tool, sum(${OFFERS}) AS offers,
              sum(r.unused_offers) AS unused_offers
         FROM ${source} AS r
        GROUP BY 1, 2, 3, 4
     )
     SELECT c.day AS "day", c.tenant_id AS "tenant", c.role AS "role",
            sum(c.offers) AS "offers", sum(c.unused_offers) AS "unusedOffers",
            coalesce(sum(c.offers * e.tokens), 0) AS "offeredTokens",
            coalesce(sum(c.unused_offers * e.tokens), 0) AS "unusedTokens"
       FROM cells c
       LEFT JOIN unnest(${tenants}::text[], ${tools}::text[], ${tokens}::float8[])
              AS e(tenant_id, tool, tokens)
         ON e.tenant_id = c.tenant_id AND e.tool = c.tool
      GROUP BY 1, 2, 3
      ORDER BY 1 DESC, 2, 3
      LIMIT ${params.add(MAX_DAY_LINES)}`,
    params.values,
  );
  return rows;
}

/**
 * `sumContextTaxByTenantTool` and `sumContextTaxByDay` of the whole window in one pass over
 * its rollup rows, for when the daily totals need every day anyway (windows of a few days):
 * the rows are summed per (day, tenant, role, tool) once, a few thousand cells for tens of
 * thousands of hourly rows, and both results are summed from those cells. The estimates the
 * daily totals use are those of every (tenant, tool) of the window.
 */
export async function sumContextTaxWithDays(
  filter: RollupFilter,
  period: Period,
): Promise<{ tenantTools: ContextTaxTenantToolRow[]; days: ContextTaxDayRow[] }> {
  const params = new SqlParams();
  const source = toolRollupSource(params, filter, period);
  const { rows } = await getPool().query<{
    tenantTools: ContextTaxTenantToolRow[] | null;
    days: (Omit<ContextTaxDayRow, "day"> & { day: string })[] | null;
  }>(
    `WITH cells AS MATERIALIZED (
       SELECT ${UTC_DAY} AS day, tenant_id, role, tool, ${TENANT_TOOL_SUMS}
         FROM ${source} AS t
        GROUP BY 1, 2, 3, 4
     ), tenant_tools AS MATERIALIZED (
       SELECT ${TENANT_TOOL_COLUMNS}
         FROM (SELECT tenant_id, tool, ${TENANT_TOOL_RESUMS} FROM cells GROUP BY tenant_id, tool) g
         LEFT JOIN tool_sizes s ON s.tenant_id = g.tenant_id AND s.tool = g.tool
     ), days AS (
       SELECT c.day AS "day", c.tenant_id AS "tenant", c.role AS "role",
              sum(c.offers) AS "offers", sum(c.unused) AS "unusedOffers",
              coalesce(sum(c.offers * e."tokens"), 0) AS "offeredTokens",
              coalesce(sum(c.unused * e."tokens"), 0) AS "unusedTokens"
         FROM cells c
         LEFT JOIN tenant_tools e ON e."tenant" = c.tenant_id AND e."tool" = c.tool
        GROUP BY 1, 2, 3
        ORDER BY 1 DESC, 2, 3
        LIMIT ${params.add(MAX_DAY_LINES)}
     )
     SELECT (SELECT json_agg(l ORDER BY l."tenant", l."tool")
               FROM (SELECT * FROM tenant_tools ORDER BY "tenant", "tool"
                      LIMIT ${params.add(MAX_TENANT_TOOLS)}) l) AS "tenantTools",
            (SELECT json_agg(d ORDER BY d."day" DESC, d."tenant", d."role") FROM days d) AS "days"`,
    params.values,
  );
  const row = rows[0];
  return {
    tenantTools: row?.tenantTools ?? [],
    days: (row?.days ?? []).map((day) => ({ ...day, day: new Date(day.day) })),
  };
}

/**
 * How many (UTC day, tenant, role) lines the window's daily totals have, and the first day
 * that the newest `lines` of them need (null when the window holds no more than `lines`), so
 * the tools page reads the per-tool rows of those days only. Counted in the decision rollups
 * (`rollupSource`, a few thousand rows for 30 days): every per-tool row comes from a decision
 * of its day, tenant and role, so a line of the per-tool totals is a line there. A line whose
 * decisions offered no tool at all is counted but has no per-tool rows; the page then reads
 * the whole window when the days found give fewer lines than it shows.
 */
export async function countContextTaxDayLines(
  filter: RollupFilter,
  period: Period,
  lines: number,
): Promise<{ total: number; firstDay: Date | null }> {
  const params = new SqlParams();
  const source = rollupSource(params, filter, { ...toHourWindow(period), granularity: "hour" });
  const { rows } = await getPool().query<{ day: Date; lines: number }>(
    `SELECT day AS "day", count(*)::int AS "lines"
       FROM (SELECT DISTINCT ${UTC_DAY} AS day, tenant_id, role
               FROM ${source} AS r) AS d
      GROUP BY day
      ORDER BY day DESC`,
    params.values,
  );
  let total = 0;
  let firstDay: Date | null = null;
  for (const row of rows) {
    total += row.lines;
    if (firstDay === null && total >= lines) firstDay = row.day;
  }
  return { total, firstDay: firstDay && total > lines ? firstDay : null };
}

/**
 * LLM calls in the window that carried no tool list (recorded without their inputs), for the
 * filter's tenants and role. They have no mode: a filter on one is ignored.
 */
export async function countCallsWithoutTools(
  filter: RollupFilter,
  period: Period,
): Promise<number> {
  const params = new SqlParams();
  const where = rollupConditions(params, { ...filter, mode: undefined }, toHourWindow(period));
  const { rows } = await getPool().query<{ calls: number | null }>(
    `SELECT sum(calls_without_tools) AS "calls" FROM otel_call_rollup_hour ${whereClause(where)}`,
    params.values,
  );
  return rows[0]?.calls ?? 0;
}
