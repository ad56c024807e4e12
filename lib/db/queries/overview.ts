/**
 * Overview reads. Rollups only, never raw decisions (README, "Storage design"): the chart's
 * minute buckets from `rollup_minute`, hour buckets from `rollup_hour`, day buckets from
 * `rollup_day`; totals and the breakdown through `rollupSource`, which reads the whole days of
 * an hour window from `rollup_day`. Every query is bounded by a bucket range, so it reads
 * `rollup_*_bucket_idx` (or the primary key when a tenant is chosen).
 */
import "server-only";
import type { TenantScope } from "@/lib/auth/scope";
import { MAX_SERIES } from "@/lib/dashboard/series";
import type { Period } from "@/lib/dashboard/time-range";
import {
  type BreakdownRow,
  type BucketMetricRow,
  type MetricTotals,
  type TenantRolePair,
  ZERO_TOTALS,
} from "@/lib/dashboard/types";
import { getPool } from "@/lib/db/client";
import {
  type RollupFilter,
  type RollupWindow,
  rollupConditions,
  rollupSource,
  rollupTable,
} from "./rollup";
import { SqlParams, scopeConditions, whereClause } from "./sql";

const TOTAL_COLUMNS = `
  sum(decisions) AS "decisions",
  sum(dropped_tokens) AS "droppedTokens",
  sum(offered_tools) AS "offeredTools",
  sum(selected_tools) AS "selectedTools",
  sum(reinstatements) AS "reinstatements",
  sum(empty_palette_warnings) AS "emptyPaletteWarnings",
  sum(stage_errors) AS "stageErrors",
  sum(harmful_drops) AS "harmfulDrops"`;

/**
 * Totals of the current period and of the previous one, in one statement; each period read
 * through `rollupSource` (whole days from `rollup_day`), so a day row never straddles the two.
 */
export async function sumOverviewTotals(
  filter: RollupFilter,
  range: RollupWindow & { previous: Period },
): Promise<{ current: MetricTotals; previous: MetricTotals }> {
  const params = new SqlParams();
  const current = rollupSource(params, filter, range);
  const previous = rollupSource(params, filter, {
    ...range.previous,
    granularity: range.granularity,
  });
  const { rows } = await getPool().query<MetricTotals & { current: boolean }>(
    `SELECT "current", ${TOTAL_COLUMNS}
       FROM (SELECT true AS "current", c.* FROM ${current} AS c
             UNION ALL
             SELECT false, p.* FROM ${previous} AS p) AS r
      GROUP BY 1`,
    params.values,
  );
  const pick = (current: boolean): MetricTotals => {
    const row = rows.find((candidate) => candidate.current === current);
    if (!row) return { ...ZERO_TOTALS };
    const { current: _ignored, ...totals } = row;
    return totals;
  };
  return { current: pick(true), previous: pick(false) };
}

/**
 * Time-series cells: per bucket and tenant (or role), the charted metrics. Keys beyond the
 * `maxSeries` with most decisions come back folded into one row per bucket with key null.
 */
export async function sumMetricsByBucket(
  filter: RollupFilter,
  range: RollupWindow,
  split: "tenant" | "role",
  maxSeries = MAX_SERIES,
): Promise<BucketMetricRow[]> {
  const params = new SqlParams();
  const table = rollupTable(range.granularity);
  const keyColumn = split === "tenant" ? "tenant_id" : "role";
  const conditions = rollupConditions(params, filter, range);
  const { rows } = await getPool().query<BucketMetricRow>(
    `WITH cells AS (
       SELECT bucket, ${keyColumn} AS key,
              sum(decisions) AS decisions, sum(dropped_tokens) AS dropped_tokens,
              sum(reinstatements) AS reinstatements,
              sum(empty_palette_warnings) AS empty_palette_warnings
         FROM ${table} ${whereClause(conditions)}
        GROUP BY 1, 2
     ), top_keys AS (
       SELECT key FROM cells GROUP BY key ORDER BY sum(decisions) DESC, key
        LIMIT ${params.add(maxSeries)}
     )
     SELECT c.bucket, t.key,
            sum(c.decisions) AS "decisions",
            sum(c.dropped_tokens) AS "droppedTokens",
            sum(c.reinstatements) AS "reinstatements",
            sum(c.empty_palette_warnings) AS "emptyPaletteWarnings"
       FROM cells c LEFT JOIN top_keys t ON t.key = c.key
      GROUP BY c.bucket, t.key
      ORDER BY c.bucket`,
    params.values,
  );
  return rows;
}

/** Totals per tenant × role over the range (the breakdown table). */
export async function sumMetricsByTenantRole(
  filter: RollupFilter,
  range: RollupWindow,
  limit = 5_000,
): Promise<BreakdownRow[]> {
  const params = new SqlParams();
  const { rows } = await getPool().query<BreakdownRow>(
    `SELECT tenant_id AS "tenant", role AS "role", ${TOTAL_COLUMNS}
       FROM ${rollupSource(params, filter, range)} AS r
      GROUP BY tenant_id, role
      ORDER BY sum(decisions) DESC
      LIMIT ${params.add(limit)}`,
    params.values,
  );
  return rows;
}

/**
 * Every (tenant, role) in `scope` that has rollups, by a loose index scan of the
 * `rollup_hour` primary key: one index probe per pair, however many rows the rollup holds.
 */
export async function listTenantRolePairs(
  scope: TenantScope,
  limit = 2_000,
): Promise<TenantRolePair[]> {
  if (!scope.all) return listScopedTenantRolePairs(scope.tenants, limit);
  const { rows } = await getPool().query<TenantRolePair>(
    `WITH RECURSIVE pairs AS (
       (SELECT tenant_id, role FROM rollup_hour ORDER BY tenant_id, role LIMIT 1)
       UNION ALL
       SELECT next.tenant_id, next.role
         FROM pairs p,
              LATERAL (SELECT r.tenant_id, r.role FROM rollup_hour r
                        WHERE (r.tenant_id, r.role) > (p.tenant_id, p.role)
                        ORDER BY r.tenant_id, r.role LIMIT 1) next
     )
     SELECT tenant_id AS "tenant", role AS "role" FROM pairs LIMIT $1`,
    [limit],
  );
  return rows;
}

/** The same for some tenants: the scan starts at each tenant's first role. */
async function listScopedTenantRolePairs(
  tenants: readonly string[],
  limit: number,
): Promise<TenantRolePair[]> {
  const { rows } = await getPool().query<TenantRolePair>(
    `WITH RECURSIVE pairs AS (
       SELECT first.tenant_id, first.role
         FROM unnest($1::text[]) AS t(id),
              LATERAL (SELECT r.tenant_id, r.role FROM rollup_hour r
                        WHERE r.tenant_id = t.id ORDER BY r.role LIMIT 1) first
       UNION ALL
       SELECT next.tenant_id, next.role
         FROM pairs p,
              LATERAL (SELECT r.tenant_id, r.role FROM rollup_hour r
                        WHERE r.tenant_id = p.tenant_id AND r.role > p.role
                        ORDER BY r.role LIMIT 1) next
     )
     SELECT tenant_id AS "tenant", role AS "role" FROM pairs ORDER BY tenant_id, role LIMIT $2`,
    [tenants, limit],
  );
  return rows;
}

/**
 * True when any decision of a tenant in `scope` has ever been stored (the overview's empty
 * state otherwise).
 */
export async function hasAnyDecisions(scope: TenantScope): Promise<boolean> {
  const params = new SqlParams();
  const where = whereClause(scopeConditions(params, scope));
  const { rows } = await getPool().query<{ exists: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM rollup_hour ${where}) AS exists`,
    params.values,
  );
  return rows[0]?.exists ?? false;
}
