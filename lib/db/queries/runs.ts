/**
 * Runs reads: the `runs` summary table only (one row per run, kept current on ingest).
 *
 * Paging is offset-based with a deferred join: the inner query finds one page of keys
 * (`tenant_id`, `run_id`) and the outer one fetches those rows. Under the default order
 * (newest activity first) the inner query is an index-only scan of
 * `runs_last_seen_tenant_id_run_id_idx`, so a deep page costs an index walk, not a heap walk.
 * Every order ends with (tenant_id, run_id), so pages are stable.
 */
import "server-only";
import type { TenantScope } from "@/lib/auth/scope";
import { runHasIssuesFor } from "@/lib/dashboard/issue-kinds";
import type { Period } from "@/lib/dashboard/time-range";
import type { RunRow } from "@/lib/dashboard/types";
import { getPool } from "@/lib/db/client";
import type { RunSortKey, RunsSearch, SortDirection } from "@/lib/schemas/dashboard";
import type { StoredMode } from "@/lib/schemas/events";
import { likePrefix, SqlParams, scopeConditions, whereClause } from "./sql";

export interface RunsFilter {
  /** The viewer's tenants. */
  scope: TenantScope;
  /** Runs active in the period: last seen at or after `from`, first seen before `to`. */
  period?: Period | null | undefined;
  tenant?: string | undefined;
  role?: string | undefined;
  mode?: StoredMode | undefined;
  /** Run id prefix. */
  runIdPrefix?: string | undefined;
  /** Only runs with a reinstatement, an empty-palette warning or a stage error. */
  withWarnings?: boolean | undefined;
  /** Only runs with at least one harmful drop. */
  withHarmfulDrops?: boolean | undefined;
}

export interface RunsOrder {
  sort: RunSortKey;
  dir: SortDirection;
}

const SORT_COLUMNS: Record<RunSortKey, string> = {
  lastSeen: "last_seen",
  firstSeen: "first_seen",
  runId: "run_id",
  tenant: "tenant_id",
  decisions: "decisions",
  maxIteration: "max_iteration",
  droppedTokens: "dropped_tokens",
  reinstatements: "reinstatements",
  emptyPaletteWarnings: "empty_palette_warnings",
  stageErrors: "stage_errors",
  harmfulDrops: "harmful_drops",
};

/** The filter the runs page's URL describes (shared by the page and its CSV export). */
export function runsFilterOf(
  search: RunsSearch,
  period: Period | null,
  scope: TenantScope,
): RunsFilter {
  return {
    scope,
    period,
    tenant: search.tenant,
    role: search.role,
    mode: search.mode,
    runIdPrefix: search.q,
    withWarnings: search.warnings,
    withHarmfulDrops: search.harmful,
  };
}

function conditionsFor(params: SqlParams, filter: RunsFilter): string[] {
  const conditions = scopeConditions(params, filter.scope);
  if (filter.period) {
    conditions.push(`last_seen >= ${params.add(filter.period.from)}`);
    conditions.push(`first_seen < ${params.add(filter.period.to)}`);
  }
  if (filter.tenant) conditions.push(`tenant_id = ${params.add(filter.tenant)}`);
  if (filter.role) conditions.push(`roles @> ARRAY[${params.add(filter.role)}::text]`);
  if (filter.mode) conditions.push(`modes @> ARRAY[${params.add(filter.mode)}::text]`);
  if (filter.runIdPrefix) {
    conditions.push(`run_id LIKE ${params.add(likePrefix(filter.runIdPrefix))}`);
  }
  if (filter.withWarnings) conditions.push(runHasIssuesFor("warnings"));
  if (filter.withHarmfulDrops) conditions.push(runHasIssuesFor("harmful"));
  return conditions;
}

/**
 * ORDER BY for a sort: the column, then (tenant_id, run_id) the other way round, which is the
 * order of `runs_last_seen_tenant_id_run_id_idx` when sorting by last seen (either direction).
 */
function orderBy(order: RunsOrder, alias = ""): string {
  const column = `${alias}${SORT_COLUMNS[order.sort]}`;
  const tie = order.dir === "desc" ? "ASC" : "DESC";
  if (order.sort === "tenant") {
    return `${alias}tenant_id ${order.dir.toUpperCase()}, ${alias}run_id ${order.dir.toUpperCase()}`;
  }
  if (order.sort === "runId") {
    return `${alias}run_id ${order.dir.toUpperCase()}, ${alias}tenant_id ${order.dir.toUpperCase()}`;
  }
  return `${column} ${order.dir.toUpperCase()}, ${alias}tenant_id ${tie}, ${alias}run_id ${tie}`;
}

const RUN_COLUMNS = `
  r.tenant_id AS "tenantId", r.run_id AS "runId",
  r.first_seen AS "firstSeen", r.last_seen AS "lastSeen",
  r.decisions AS "decisions", r.max_iteration AS "maxIteration",
  coalesce(r.roles, '{}') AS "roles", coalesce(r.modes, '{}') AS "modes",
  r.dropped_tokens AS "droppedTokens", r.reinstatements AS "reinstatements",
  r.empty_palette_warnings AS "emptyPaletteWarnings", r.stage_errors AS "stageErrors",
  r.harmful_drops AS "harmfulDrops"`;

type RawRunRow = Omit<RunRow, "firstSeen" | "lastSeen"> & { firstSeen: Date; lastSeen: Date };

function toRunRow(row: RawRunRow): RunRow {
  return { ...row, firstSeen: row.firstSeen.toISOString(), lastSeen: row.lastSeen.toISOString() };
}

/** One page of runs in the given order. */
export async function listRuns(
  filter: RunsFilter,
  order: RunsOrder,
  page: { offset: number; limit: number },
): Promise<RunRow[]> {
  const params = new SqlParams();
  const conditions = conditionsFor(params, filter);
  const { rows } = await getPool().query<RawRunRow>(
    `SELECT ${RUN_COLUMNS}
       FROM (SELECT tenant_id, run_id FROM runs ${whereClause(conditions)}
              ORDER BY ${orderBy(order)}
             OFFSET ${params.add(page.offset)} LIMIT ${params.add(page.limit)}) k
       JOIN runs r ON r.tenant_id = k.tenant_id AND r.run_id = k.run_id
      ORDER BY ${orderBy(order, "r.")}`,
    params.values,
  );
  return rows.map(toRunRow);
}

/** How many runs match the filter. */
export async function countRuns(filter: RunsFilter): Promise<number> {
  const params = new SqlParams();
  const conditions = conditionsFor(params, filter);
  const { rows } = await getPool().query<{ count: number }>(
    `SELECT count(*) AS count FROM runs ${whereClause(conditions)}`,
    params.values,
  );
  return rows[0]?.count ?? 0;
}

/**
 * Every matching run in order, in batches (the CSV download), stopping after `max` rows.
 */
export async function* listRunsInBatches(
  filter: RunsFilter,
  order: RunsOrder,
  { batchSize = 5_000, max = 100_000 } = {},
): AsyncGenerator<RunRow[]> {
  for (let offset = 0; offset < max; offset += batchSize) {
    const rows = await listRuns(filter, order, {
      offset,
      limit: Math.min(batchSize, max - offset),
    });
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
  }
}

/** One run's summary, by primary key. */
export async function getRun(tenantId: string, runId: string): Promise<RunRow | null> {
  const { rows } = await getPool().query<RawRunRow>(
    `SELECT ${RUN_COLUMNS} FROM runs r WHERE r.tenant_id = $1 AND r.run_id = $2`,
    [tenantId, runId],
  );
  const row = rows[0];
  return row ? toRunRow(row) : null;
}

/**
 * Tenants in `scope` that have a run with this id (ids are unique per tenant only), by
 * `runs_run_id_idx`.
 */
export async function listTenantsOfRun(runId: string, scope: TenantScope): Promise<string[]> {
  const params = new SqlParams();
  const conditions = [`run_id = ${params.add(runId)}`, ...scopeConditions(params, scope)];
  const { rows } = await getPool().query<{ tenantId: string }>(
    `SELECT tenant_id AS "tenantId" FROM runs ${whereClause(conditions)} ORDER BY tenant_id LIMIT 50`,
    params.values,
  );
  return rows.map((row) => row.tenantId);
}
