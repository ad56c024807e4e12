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
import { type RollupFilter, rollupConditions, toHourWindow, toolRollupSource } from "./rollup";
import { SqlParams, whereClause } from "./sql";

/** Most (day, tenant, role) lines of the daily totals. */
const MAX_DAY_LINES = 5_000;

/** An offer: a decision that put the tool in front of the model (`selected` in enforce). */
const OFFERS = "CASE WHEN mode = 'enforce' THEN selected ELSE offered END";
/** Most (tenant, tool) lines one window reads. */
const MAX_TENANT_TOOLS = 20_000;

/**
 * Per tenant and tool: offers, calls, unused offers, and the estimated tokens of one offer —
 * the definition's size, else the window's dropped tokens per drop, else null. One pass over
 * the window's rollup rows, joined to the sizes after summing (an estimate is the same for
 * every hour of a tenant). `sumContextTaxPerTool` (lib/tools) adds the tenants up per tool.
 */
export async function sumContextTaxByTenantTool(
  filter: RollupFilter,
  period: Period,
): Promise<ContextTaxTenantToolRow[]> {
  const params = new SqlParams();
  const source = toolRollupSource(params, filter, period);
  const { rows } = await getPool().query<ContextTaxTenantToolRow>(
    `SELECT g.tenant_id AS "tenant", g.tool AS "tool", g.offers AS "offers", g.calls AS "calls",
            g.unused AS "unusedOffers", s.tokens AS "definitionTokens",
            coalesce(s.tokens::float8, g.dropped_tokens / nullif(g.dropped, 0)) AS "tokens"
       FROM (SELECT tenant_id, tool, sum(${OFFERS}) AS offers, sum(called) AS calls,
                    sum(unused_offers) AS unused, sum(dropped) AS dropped,
                    sum(dropped_tokens) AS dropped_tokens
               FROM ${source} AS t
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
 * in, so the rollup rows are read in one parallel pass and joined to a small hash table).
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
  const offers = `CASE WHEN r.mode = 'enforce' THEN r.selected ELSE r.offered END`;
  const { rows } = await getPool().query<ContextTaxDayRow>(
    `SELECT date_bin('1 day', r.bucket, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS "day",
            r.tenant_id AS "tenant", r.role AS "role",
            sum(${offers}) AS "offers", sum(r.unused_offers) AS "unusedOffers",
            coalesce(sum(${offers} * e.tokens), 0) AS "offeredTokens",
            coalesce(sum(r.unused_offers * e.tokens), 0) AS "unusedTokens"
       FROM ${source} AS r
       LEFT JOIN unnest(${tenants}::text[], ${tools}::text[], ${tokens}::float8[])
              AS e(tenant_id, tool, tokens)
         ON e.tenant_id = r.tenant_id AND e.tool = r.tool
      GROUP BY 1, 2, 3
      ORDER BY 1 DESC, 2, 3
      LIMIT ${params.add(MAX_DAY_LINES)}`,
    params.values,
  );
  return rows;
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
