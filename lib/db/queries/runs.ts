/**
 * Runs reads: the `runs` summary table only (one row per run, kept current on ingest).
 *
 * Paging is by key: a page starts after (or ends before) the key of a row in the chosen order,
 * and every order is a row of columns in one direction — (sort column, tenant_id, run_id), or
 * (tenant_id, run_id) and (run_id, tenant_id) — with an index of its own, scanned forwards or
 * backwards. So every page of every order reads its own rows and no others, however many runs
 * there are and however deep the page; the deepest page is the last one read backwards. Counts
 * stop at a cap (`countRunsUpTo`), for the same reason.
 */
import "server-only";
import type { TenantScope } from "@/lib/auth/scope";
import { runHasIssuesFor } from "@/lib/dashboard/issue-kinds";
import {
  RUN_SORT_VALUE_TYPES,
  type RunKey,
  type RunsPosition,
} from "@/lib/dashboard/runs-position";
import type { Period } from "@/lib/dashboard/time-range";
import type { RunRow } from "@/lib/dashboard/types";
import { getPool } from "@/lib/db/client";
import {
  RUN_ID_BYTES,
  RUN_SORT_COLUMNS,
  runOrderColumns,
  runSortValueSql,
} from "@/lib/db/queries/runs-order";
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

/** Most rows a count reads: past it the list says "more than" (`countRunsUpTo`). */
export const RUN_COUNT_CAP = 10_000;

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
    conditions.push(`${RUN_ID_BYTES} LIKE ${params.add(likePrefix(filter.runIdPrefix))}`);
  }
  if (filter.withWarnings) conditions.push(runHasIssuesFor("warnings"));
  if (filter.withHarmfulDrops) conditions.push(runHasIssuesFor("harmful"));
  return conditions;
}

/**
 * Counters that stay zero for most runs. Their indexes hold only the runs where they are not
 * (`WHERE column > 0`), so ingest updates them only for those runs; the runs at zero come, in
 * the same order, from the primary key (tenant_id, run_id). Counts are never negative.
 */
const SPARSE_SORTS: ReadonlySet<RunSortKey> = new Set([
  "reinstatements",
  "emptyPaletteWarnings",
  "stageErrors",
  "harmfulDrops",
]);

/**
 * A part of an order that one index returns in order: its condition on the sort column (none
 * for a whole order), its columns first to last (as SQL on `runs r`), and whether its rows'
 * sort value is zero (the runs at zero of a sparse counter, ordered by tenant and run id alone).
 */
interface Segment {
  where: string | null;
  columns: string[];
  atZero: boolean;
}

/** The parts of an order, each read from one index; their rows merged in the order's order. */
function segmentsOf(sort: RunSortKey): Segment[] {
  const columns = runOrderColumns(sort);
  if (!SPARSE_SORTS.has(sort)) return [{ where: null, columns, atZero: false }];
  const column = `r.${RUN_SORT_COLUMNS[sort]}`;
  return [
    { where: `${column} > 0`, columns, atZero: false },
    { where: `${column} = 0`, columns: runOrderColumns("tenant"), atZero: true },
  ];
}

/** The order's columns as the aliases of `RUN_COLUMNS`, to merge segments by. */
function orderAliases(sort: RunSortKey): string[] {
  if (sort === "tenant") return ['"tenantId"', '"runId"'];
  if (sort === "runId") return ['"runId" COLLATE "C"', '"tenantId"'];
  return [`"${sort}"`, '"tenantId"', '"runId"'];
}

function direction(order: RunsOrder, reversed: boolean): "ASC" | "DESC" {
  return (order.dir === "asc") !== reversed ? "ASC" : "DESC";
}

/**
 * The segment's rows after `key` in `order` (before it, with `reversed`), `key`'s own row too
 * with `inclusive`: one row comparison, which the segment's index answers as a range. "FALSE"
 * when none of the segment's rows can be, "" when all can.
 */
function keyCondition(
  params: SqlParams,
  order: RunsOrder,
  segment: Segment,
  key: RunKey,
  { reversed = false, inclusive = false } = {},
): string {
  const after = direction(order, reversed) === "ASC";
  const operator = `${after ? ">" : "<"}${inclusive ? "=" : ""}`;
  if (segment.atZero && BigInt(key.value) !== 0n) {
    // The key is not among the runs at zero: they all come before it (or all after it).
    return after === BigInt(key.value) > 0n ? "FALSE" : "";
  }
  const runId = params.add(key.runId);
  const keyValues: Record<string, string> = {
    "r.tenant_id": params.add(key.tenantId),
    "r.run_id": runId,
    [RUN_ID_BYTES]: runId,
  };
  const values = segment.columns.map(
    (column) =>
      keyValues[column] ?? `${params.add(key.value)}::${RUN_SORT_VALUE_TYPES[order.sort]}`,
  );
  return `(${segment.columns.join(", ")}) ${operator} (${values.join(", ")})`;
}

/**
 * One `SELECT` per segment of the order, each with the filter, its own condition and, with
 * `from`, its part of the key condition; `select` writes the statement from its WHERE clause
 * and its segment.
 */
function segmentQueries(
  params: SqlParams,
  filter: RunsFilter,
  order: RunsOrder,
  select: (where: string, segment: Segment) => string,
  from?: { key: RunKey; reversed?: boolean; inclusive?: boolean },
): string[] {
  const queries: string[] = [];
  for (const segment of segmentsOf(order.sort)) {
    // Decided first: a segment left out must not leave parameters behind.
    const condition = from ? keyCondition(params, order, segment, from.key, from) : "";
    if (condition === "FALSE") continue;
    const conditions = conditionsFor(params, filter);
    if (segment.where) conditions.push(segment.where);
    if (condition) conditions.push(condition);
    queries.push(select(whereClause(conditions), segment));
  }
  return queries;
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

/** Up to `limit` rows from `from` on (or back from it, `reversed`), with each row's key. */
async function readRuns(
  filter: RunsFilter,
  order: RunsOrder,
  limit: number,
  { from, reversed = false }: { from?: RunKey | undefined; reversed?: boolean } = {},
): Promise<{ row: RunRow; key: RunKey }[]> {
  const params = new SqlParams();
  const dir = direction(order, reversed);
  const limitParam = params.add(limit);
  const queries = segmentQueries(
    params,
    filter,
    order,
    (where, segment) =>
      `SELECT ${RUN_COLUMNS}, ${runSortValueSql(order.sort)} AS "sortValue" FROM runs r ${where}
        ORDER BY ${segment.columns.map((column) => `${column} ${dir}`).join(", ")}
        LIMIT ${limitParam}`,
    from && { key: from, reversed },
  );
  const merged =
    queries.length === 1
      ? (queries[0] as string)
      : `SELECT * FROM (${queries.map((query) => `(${query})`).join(" UNION ALL ")}) merged
          ORDER BY ${orderAliases(order.sort)
            .map((alias) => `${alias} ${dir}`)
            .join(", ")}
          LIMIT ${limitParam}`;
  const { rows } = await getPool().query<RawRunRow & { sortValue: string }>(merged, params.values);
  return rows.map(({ sortValue, ...row }) => ({
    row: toRunRow(row),
    key: { value: sortValue, tenantId: row.tenantId, runId: row.runId },
  }));
}

export interface RunsPage {
  rows: RunRow[];
  /** The keys of the first and last rows shown (null when there are none). */
  firstKey: RunKey | null;
  lastKey: RunKey | null;
  hasPrevious: boolean;
  hasNext: boolean;
  /** Where the page ended up: a page before the first row becomes the first page. */
  position: RunsPosition;
}

/**
 * One page of runs at `position` in `order`. A page reached backwards that runs into the
 * start of the list is shown as the first page, full, rather than as the few rows left.
 */
export async function listRunsPage(
  filter: RunsFilter,
  order: RunsOrder,
  position: RunsPosition,
  size: number,
): Promise<RunsPage> {
  const backwards = position.kind === "before" || position.kind === "last";
  const from = position.kind === "after" || position.kind === "before" ? position.key : undefined;
  const read = await readRuns(filter, order, size + 1, { from, reversed: backwards });
  const more = read.length > size;
  const shown = read.slice(0, size);
  if (position.kind === "before" && !more) {
    return listRunsPage(filter, order, { kind: "first" }, size);
  }
  if (position.kind === "after" && shown.length === 0) {
    // Nothing after the key any more (the runs after it were pruned): the last page instead.
    return listRunsPage(filter, order, { kind: "last" }, size);
  }
  if (backwards) shown.reverse();
  return {
    rows: shown.map((item) => item.row),
    firstKey: shown[0]?.key ?? null,
    lastKey: shown.at(-1)?.key ?? null,
    hasPrevious: backwards ? more : position.kind === "after",
    hasNext: backwards ? position.kind === "before" : more,
    position,
  };
}

/**
 * How many runs match the filter, reading at most `cap` + 1 of them: exact up to `cap`, and
 * `cap` + 1 for "more than `cap`". With `upTo`, only the runs up to that key in `order`
 * (`inclusive` of it or not): a page's distance from the start.
 */
export async function countRunsUpTo(
  filter: RunsFilter,
  cap: number,
  upTo?: { order: RunsOrder; key: RunKey; inclusive: boolean },
): Promise<number> {
  const params = new SqlParams();
  const limit = params.add(cap + 1);
  const select = (where: string) => `SELECT 1 FROM runs r ${where} LIMIT ${limit}`;
  const queries = upTo
    ? segmentQueries(params, filter, upTo.order, select, {
        key: upTo.key,
        reversed: true,
        inclusive: upTo.inclusive,
      })
    : [select(whereClause(conditionsFor(params, filter)))];
  if (queries.length === 0) return 0;
  const { rows } = await getPool().query<{ count: number }>(
    `SELECT count(*) AS count FROM (${queries.map((query) => `(${query})`).join(" UNION ALL ")}) capped`,
    params.values,
  );
  return Math.min(rows[0]?.count ?? 0, cap + 1);
}

/**
 * How many matching runs come before a page in its order, or null when more than
 * `RUN_COUNT_CAP` do (the count stops there). `total` is the capped count of all of them.
 */
export async function countRunsBefore(
  filter: RunsFilter,
  order: RunsOrder,
  page: RunsPage,
  total: number,
): Promise<number | null> {
  const { position, rows } = page;
  if (position.kind === "first") return 0;
  if (position.kind === "last") return total <= RUN_COUNT_CAP ? total - rows.length : null;
  const inclusive = position.kind === "after";
  const upTo = await countRunsUpTo(filter, RUN_COUNT_CAP, { order, key: position.key, inclusive });
  if (upTo > RUN_COUNT_CAP) return null;
  return inclusive ? upTo : upTo - rows.length;
}

/**
 * Every matching run in order, in batches (the CSV download), stopping after `max` rows; each
 * batch starts after the last key of the one before.
 */
export async function* listRunsInBatches(
  filter: RunsFilter,
  order: RunsOrder,
  { batchSize = 5_000, max = 100_000 } = {},
): AsyncGenerator<RunRow[]> {
  let from: RunKey | undefined;
  for (let read = 0; read < max; ) {
    const limit = Math.min(batchSize, max - read);
    const batch = await readRuns(filter, order, limit, { from });
    if (batch.length > 0) yield batch.map((item) => item.row);
    if (batch.length < limit) return;
    read += batch.length;
    from = batch.at(-1)?.key;
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
 * `runs_run_id_tenant_id_idx`.
 */
export async function listTenantsOfRun(runId: string, scope: TenantScope): Promise<string[]> {
  const params = new SqlParams();
  const conditions = [`${RUN_ID_BYTES} = ${params.add(runId)}`, ...scopeConditions(params, scope)];
  const { rows } = await getPool().query<{ tenantId: string }>(
    `SELECT tenant_id AS "tenantId" FROM runs r ${whereClause(conditions)} ORDER BY tenant_id LIMIT 50`,
    params.values,
  );
  return rows.map((row) => row.tenantId);
}
