/**
 * The dashboard's URL state (SPEC §5): every filter, sort and page lives in `searchParams` and
 * is parsed here. Each schema states its rules and defaults once; two readers use it:
 *
 * - pages (`parseSearchParams`): a malformed parameter falls back to its default instead of
 *   failing the page, so a hand-edited or outdated link still opens something sensible;
 * - exports and APIs (`readSearchParams`): a malformed parameter is refused with a message
 *   naming it and the rule it broke (400).
 */
import { z } from "zod";
import { LIMITS, STORED_MODES } from "@/lib/schemas/events";

/** Presets of the time-range filter; `custom` reads `from` and `to`. */
export const RANGE_PRESETS = ["1h", "24h", "7d", "30d"] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** Auto-refresh intervals of the live mode, in seconds. Absent means off. */
export const LIVE_INTERVALS = ["15", "60"] as const;
export type LiveInterval = (typeof LIVE_INTERVALS)[number];

export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/**
 * Each sortable column of a table with the direction it sorts in until the URL says otherwise
 * (`dir`). One such table per view, beside its sort keys, is the only home of its defaults.
 */
export type SortDirections<K extends string> = Readonly<Record<K, SortDirection>>;

/** A view's default directions: the `ascending` columns A→Z, every other one largest first. */
export function sortDirections<K extends string>(
  keys: readonly K[],
  ascending: readonly K[],
): SortDirections<K> {
  return Object.fromEntries(
    keys.map((key) => [key, ascending.includes(key) ? "asc" : "desc"]),
  ) as Record<K, SortDirection>;
}

/** The direction a table is sorted in: the URL's `dir`, or the sorted column's default. */
export function sortDirectionOf<K extends string>(
  search: { sort: K; dir?: SortDirection | undefined },
  directions: SortDirections<K>,
): SortDirection {
  return search.dir ?? directions[search.sort];
}

/** Longest custom range the overview accepts (a year of day buckets). */
export const MAX_CUSTOM_RANGE_DAYS = 366;

/**
 * Instants a URL may name: PostgreSQL stores timestamps from 4713 BC, JavaScript dates reach
 * ±275,760 years, and a range's previous period reaches one range further back; this window
 * keeps every derived instant valid in both.
 */
export const EARLIEST_INSTANT = "1970-01-01T00:00:00Z";
export const LATEST_INSTANT = "9999-12-31T23:59:59Z";
const EARLIEST_MS = Date.parse(EARLIEST_INSTANT);
const LATEST_MS = Date.parse(LATEST_INSTANT);

/** Raw `searchParams` as Next.js hands them to a page. */
export type RawSearchParams = Record<string, string | string[] | undefined>;

/** First value of a repeated parameter; an empty string counts as absent. */
function firstValue(value: unknown): unknown {
  const single = Array.isArray(value) ? value[0] : value;
  return single === "" ? undefined : single;
}

/** A query parameter: first value, trimmed, absent when empty. */
export function param<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => {
    const single = firstValue(value);
    return typeof single === "string" ? single.trim() || undefined : single;
  }, schema);
}

export const instant = z
  .string()
  .max(40, "at most 40 characters")
  .refine((value) => {
    const ms = Date.parse(value);
    return Number.isFinite(ms) && ms >= EARLIEST_MS && ms <= LATEST_MS;
  }, `expected an ISO-8601 date and time from ${EARLIEST_INSTANT} to ${LATEST_INSTANT}`);

/**
 * Text matched against stored values. PostgreSQL text cannot hold NUL, so no stored tenant,
 * role, run id or tool name contains one (and a query carrying one would fail).
 */
export const text = (max: number) =>
  z
    .string({
      error: (issue) => (issue.input === undefined ? "required" : "expected text"),
    })
    .max(max, `at most ${max} characters`)
    .refine((value) => !value.includes("\0"), "must not contain NUL (%00)");

export const optionalText = (max: number) => param(text(max).optional());
export const tenantParam = optionalText(100);
export const roleParam = optionalText(LIMITS.label);
const FLAG_VALUES = { "1": true, true: true, on: true, "0": false, false: false, off: false };
const flag = param(
  z
    .enum(Object.keys(FLAG_VALUES) as [keyof typeof FLAG_VALUES])
    .optional()
    .transform((value) => (value === undefined ? false : FLAG_VALUES[value])),
);
const live = param(z.enum(LIVE_INTERVALS).optional());
/** A stored decision's mode: observe, enforce, or off (derived from an unrouted agent's spans). */
export const mode = param(z.enum(STORED_MODES).optional());
export const direction = param(z.enum(SORT_DIRECTIONS).optional());

/** The bounds of a custom range (read when `range` is `custom`). */
export const customRangeFields = {
  from: param(instant.optional()),
  to: param(instant.optional()),
};

/**
 * The filters of a rollup view: a preset or custom window (default `defaultRange`), a tenant,
 * a role and a mode.
 */
export function rollupFilterFields<const Default extends RangePreset>(defaultRange: Default) {
  return {
    range: param(z.enum([...RANGE_PRESETS, "custom"])).default(defaultRange),
    ...customRangeFields,
    tenant: tenantParam,
    role: roleParam,
    mode,
  };
}

/** Columns the overview's tenant × role breakdown can be sorted by. */
export const BREAKDOWN_SORT_KEYS = [
  "tenant",
  "role",
  "decisions",
  "droppedTokens",
  "meanOffered",
  "meanSelected",
  "reinstatements",
  "emptyPaletteWarnings",
  "stageErrors",
  "harmfulDrops",
] as const;
export type BreakdownSortKey = (typeof BREAKDOWN_SORT_KEYS)[number];
/** Tenant and role sort A→Z by default, numbers largest first. */
export const BREAKDOWN_SORT_DIRECTIONS = sortDirections(BREAKDOWN_SORT_KEYS, ["tenant", "role"]);

export const SPLIT_KEYS = ["tenant", "role"] as const;

/** Breakdown lines shown unless all are asked for (`lines=all`). */
export const BREAKDOWN_TOP_LINES = 25;
export const BREAKDOWN_LINE_CHOICES = ["top", "all"] as const;

/** `/` — the overview. */
export const overviewSearchSchema = z.object({
  ...rollupFilterFields("24h"),
  split: param(z.enum(SPLIT_KEYS)).default("tenant"),
  sort: param(z.enum(BREAKDOWN_SORT_KEYS)).default("decisions"),
  dir: direction,
  /** The breakdown's first `BREAKDOWN_TOP_LINES` lines in the chosen order, or all of them. */
  lines: param(z.enum(BREAKDOWN_LINE_CHOICES)).default("top"),
  live,
});
export type OverviewSearch = z.infer<typeof overviewSearchSchema>;

/** Columns the runs table can be sorted by (each maps to one `runs` column). */
export const RUN_SORT_KEYS = [
  "lastSeen",
  "firstSeen",
  "runId",
  "tenant",
  "decisions",
  "droppedTokens",
  "reinstatements",
  "emptyPaletteWarnings",
  "stageErrors",
  "harmfulDrops",
] as const;
export type RunSortKey = (typeof RUN_SORT_KEYS)[number];
/** Run id and tenant sort A→Z by default, numbers and times largest first. */
export const RUN_SORT_DIRECTIONS = sortDirections(RUN_SORT_KEYS, ["runId", "tenant"]);

export const RUN_PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_RUN_PAGE_SIZE = 50;
/** Longest key of a runs page a URL may carry: base64url of a sort key, a value and a run's identity. */
const RUN_KEY_LENGTH = 2_000;
/** Deepest page a URL may ask for; deeper requests are clamped. */
export const MAX_PAGE = 100_000;

const page = param(z.coerce.number().int().min(1).max(MAX_PAGE)).default(1);

/** `/runs` — the runs browser. `range` defaults to all time. */
export const runsSearchSchema = z.object({
  range: param(z.enum(["all", ...RANGE_PRESETS, "custom"])).default("all"),
  ...customRangeFields,
  tenant: tenantParam,
  role: roleParam,
  mode,
  q: optionalText(LIMITS.runId),
  warnings: flag,
  harmful: flag,
  sort: param(z.enum(RUN_SORT_KEYS)).default("lastSeen"),
  dir: direction,
  /** The page starts after this row's key (`lib/dashboard/runs-position.ts`). */
  after: optionalText(RUN_KEY_LENGTH),
  /** The page ends before this row's key. */
  before: optionalText(RUN_KEY_LENGTH),
  /** The page is the last one of the order. */
  last: flag,
  size: param(
    z.coerce
      .number()
      .refine(
        (value) => (RUN_PAGE_SIZES as readonly number[]).includes(value),
        `expected one of ${RUN_PAGE_SIZES.join(", ")}`,
      ),
  ).default(DEFAULT_RUN_PAGE_SIZE),
  live,
});
export type RunsSearch = z.infer<typeof runsSearchSchema>;

/** Iterations shown per page of a run trace. */
export const TRACE_PAGE_SIZE = 25;

/** `/runs/[runId]` — one run's decision trace. */
export const runTraceSearchSchema = z.object({
  tenant: tenantParam,
  page,
  issues: flag,
  /**
   * Opened from a backtest's example: that backtest's id and the iteration to replay with its
   * candidate, shown beside the recorded stages.
   */
  backtest: optionalText(100),
  iteration: param(z.coerce.number().int().min(0).max(LIMITS.count).optional()),
});
export type RunTraceSearch = z.infer<typeof runTraceSearchSchema>;

/**
 * Most rows one CSV download writes (stated in its `X-Routelens-Row-Limit` header; see
 * `lib/dashboard/export-route.ts`): the runs, breakdown and tools downloads.
 */
export const EXPORT_ROW_LIMIT = 100_000;
/** Most rows of one run's iterations download. */
export const RUN_EXPORT_ROW_LIMIT = 20_000;

/** `/api/export/run` — one run's iterations as CSV. */
export const runExportSearchSchema = z.object({
  tenant: param(text(100)),
  runId: param(text(LIMITS.runId)),
});
export type RunExportSearch = z.infer<typeof runExportSearchSchema>;

/** A run id as it can be stored (the path segment of `/runs/[runId]`, once decoded). */
export const runIdSchema = text(LIMITS.runId).min(1, "must not be empty");

type SearchInput = RawSearchParams | URLSearchParams;

/**
 * Parameters renamed since links were shared (old name → new name). An old link still opens the
 * same view; when both names are present the new one wins.
 */
export const RENAMED_PARAMETERS: Readonly<Record<string, string>> = { cmode: "compareMode" };

/**
 * A plain record under the current parameter names; a repeated parameter becomes a list, as in
 * the `searchParams` of a page.
 */
function toRecord(raw: SearchInput): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  if (raw instanceof URLSearchParams) {
    for (const key of new Set(raw.keys())) {
      const values = raw.getAll(key);
      record[key] = values.length === 1 ? values[0] : values;
    }
  } else {
    Object.assign(record, raw);
  }
  for (const [old, current] of Object.entries(RENAMED_PARAMETERS)) {
    if (!(old in record)) continue;
    if (record[current] === undefined) record[current] = record[old];
    delete record[old];
  }
  return record;
}

/**
 * Parses a page's `searchParams`; never throws. A parameter that breaks its rule is cleared,
 * so it takes its default (every field of these schemas has one or is optional).
 */
export function parseSearchParams<T extends z.ZodType>(schema: T, raw: SearchInput): z.infer<T> {
  const record = toRecord(raw);
  const result = schema.safeParse(record);
  if (result.success) return result.data;
  const cleared = { ...record };
  for (const issue of result.error.issues) {
    const key = issue.path[0];
    if (typeof key === "string") cleared[key] = undefined;
  }
  const retried = schema.safeParse(cleared);
  return retried.success ? retried.data : schema.parse({});
}

export type SearchReadResult<T> = { ok: true; data: T } | { ok: false; message: string };

/** Parses an export's or API's query strictly: the first broken rule of each parameter. */
export function readSearchParams<T extends z.ZodType>(
  schema: T,
  raw: SearchInput,
): SearchReadResult<z.infer<T>> {
  const result = schema.safeParse(toRecord(raw));
  if (result.success) return { ok: true, data: result.data };
  const byParameter = new Map<string, string>();
  for (const issue of result.error.issues) {
    const name = issue.path.map(String).join(".") || "query";
    if (!byParameter.has(name)) byParameter.set(name, issue.message);
  }
  const parts = [...byParameter].map(([name, message]) => `${name}: ${message}`);
  return { ok: false, message: `Invalid query parameter ${parts.join("; ")}` };
}
