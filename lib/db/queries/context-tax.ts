/**
 * The context tax (SPEC §8): what offering each tool costs in tokens, and how much of that went
 * to calls where the model did not call it. Read from `tool_rollup_hour` (offers, calls and
 * `unused_offers` per tool and hour) and `tool_sizes` (each tool's estimated definition size per
 * tenant), bounded by whole hours like every per-tool read; LLM calls without a tool list come
 * from `otel_call_rollup_hour`.
 *
 * Tokens per offer are estimated per (tenant, tool): the definition's size when a definition
 * was seen, otherwise the dropped-token estimate recorded per drop in the window (`dropped_tokens`
 * / `dropped`, what routed agents send), otherwise none.
 */
import "server-only";
import type { Period } from "@/lib/dashboard/time-range";
import { getPool } from "@/lib/db/client";
import type { ContextTaxDayRow, ContextTaxRow } from "@/lib/tools/types";
import { type RollupFilter, rollupConditions, toHourWindow } from "./rollup";
import { SqlParams, whereClause } from "./sql";

/** Most tools the table lists, as on the tools table. */
const MAX_TOOLS = 2_000;
/** Most (day, tenant, role) lines of the daily totals. */
const MAX_DAY_LINES = 5_000;

/**
 * The window's per-(tenant, role, hour, tool) offers with the estimated tokens of one offer:
 * `r` (rollup rows; an offer is `offered` in observe and off, `selected` in enforce) and `e`
 * (per tenant and tool: `definition_tokens`, and `tokens`, the estimate used).
 */
function estimatedOffers(params: SqlParams, filter: RollupFilter, period: Period): string {
  const where = rollupConditions(params, filter, toHourWindow(period));
  return `WITH r AS (
       SELECT tenant_id, role, bucket, tool,
              CASE WHEN mode = 'enforce' THEN selected ELSE offered END AS offers,
              called, unused_offers, dropped, dropped_tokens
         FROM tool_rollup_hour ${whereClause(where)}
     ),
     e AS (
       SELECT r.tenant_id, r.tool, s.tokens AS definition_tokens,
              coalesce(s.tokens::float8, sum(r.dropped_tokens) / nullif(sum(r.dropped), 0)) AS tokens
         FROM r LEFT JOIN tool_sizes s ON s.tenant_id = r.tenant_id AND s.tool = r.tool
        GROUP BY r.tenant_id, r.tool, s.tokens
     )`;
}

/** Per tool: offers, calls, unused offers and their estimated tokens. */
export async function sumContextTaxByTool(
  filter: RollupFilter,
  period: Period,
): Promise<ContextTaxRow[]> {
  const params = new SqlParams();
  const cte = estimatedOffers(params, filter, period);
  const { rows } = await getPool().query<ContextTaxRow>(
    `${cte}
     SELECT r.tool AS "tool", sum(r.offers) AS "offers", sum(r.called) AS "calls",
            sum(r.unused_offers) AS "unusedOffers",
            coalesce(sum(r.offers) FILTER (WHERE e.tokens IS NOT NULL), 0) AS "estimatedOffers",
            coalesce(sum(r.offers) FILTER (WHERE e.definition_tokens IS NOT NULL), 0)
              AS "definitionOffers",
            coalesce(sum(r.offers * e.tokens), 0) AS "offeredTokens",
            coalesce(sum(r.unused_offers * e.tokens), 0) AS "unusedTokens"
       FROM r JOIN e ON e.tenant_id = r.tenant_id AND e.tool = r.tool
      GROUP BY r.tool
      ORDER BY "unusedTokens" DESC, r.tool
      LIMIT ${params.add(MAX_TOOLS)}`,
    params.values,
  );
  return rows;
}

/** Per UTC day, tenant and role: offers, unused offers and their estimated tokens. */
export async function sumContextTaxByDay(
  filter: RollupFilter,
  period: Period,
): Promise<ContextTaxDayRow[]> {
  const params = new SqlParams();
  const cte = estimatedOffers(params, filter, period);
  const { rows } = await getPool().query<ContextTaxDayRow>(
    `${cte}
     SELECT date_bin('1 day', r.bucket, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS "day",
            r.tenant_id AS "tenant", r.role AS "role",
            sum(r.offers) AS "offers", sum(r.unused_offers) AS "unusedOffers",
            coalesce(sum(r.offers * e.tokens), 0) AS "offeredTokens",
            coalesce(sum(r.unused_offers * e.tokens), 0) AS "unusedTokens"
       FROM r JOIN e ON e.tenant_id = r.tenant_id AND e.tool = r.tool
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
