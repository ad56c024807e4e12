/**
 * The dashboard's URL state (SPEC §5): every filter, sort and page lives in `searchParams` and
 * is parsed here. A malformed parameter falls back to its default instead of failing the page,
 * so a hand-edited or outdated link still opens something sensible.
 */
import { z } from "zod";
import { ROUTING_MODES } from "@/lib/schemas/events";

/** Presets of the time-range filter; `custom` reads `from` and `to`. */
export const RANGE_PRESETS = ["1h", "24h", "7d", "30d"] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** Auto-refresh intervals of the live mode, in seconds. Absent means off. */
export const LIVE_INTERVALS = ["15", "60"] as const;
export type LiveInterval = (typeof LIVE_INTERVALS)[number];

export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** Longest custom range the overview accepts (a year of day buckets). */
export const MAX_CUSTOM_RANGE_DAYS = 366;

/** Raw `searchParams` as Next.js hands them to a page. */
export type RawSearchParams = Record<string, string | string[] | undefined>;

/** First value of a repeated parameter; an empty string counts as absent. */
function firstValue(value: unknown): unknown {
  const single = Array.isArray(value) ? value[0] : value;
  return single === "" ? undefined : single;
}

/** A query parameter: first value, trimmed, absent when empty, default when invalid. */
export function param<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => {
    const single = firstValue(value);
    return typeof single === "string" ? single.trim() || undefined : single;
  }, schema);
}

export const instant = z
  .string()
  .max(40)
  .refine((value) => Number.isFinite(Date.parse(value)), "expected an ISO-8601 date and time");

export const optionalText = (max: number) => param(z.string().max(max).optional().catch(undefined));
const flag = param(
  z
    .enum(["1", "true", "on"])
    .optional()
    .catch(undefined)
    .transform((value) => value !== undefined),
);
const live = param(z.enum(LIVE_INTERVALS).optional().catch(undefined));
export const mode = param(z.enum(ROUTING_MODES).optional().catch(undefined));
const direction = param(z.enum(SORT_DIRECTIONS).optional().catch(undefined));

const rangeFields = {
  from: param(instant.optional().catch(undefined)),
  to: param(instant.optional().catch(undefined)),
};

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

export const SPLIT_KEYS = ["tenant", "role"] as const;
export type SplitKey = (typeof SPLIT_KEYS)[number];

/** `/` — the overview. */
export const overviewSearchSchema = z.object({
  range: param(z.enum([...RANGE_PRESETS, "custom"]).catch("24h")).default("24h"),
  ...rangeFields,
  tenant: optionalText(100),
  role: optionalText(200),
  mode,
  split: param(z.enum(SPLIT_KEYS).catch("tenant")).default("tenant"),
  sort: param(z.enum(BREAKDOWN_SORT_KEYS).catch("decisions")).default("decisions"),
  dir: direction,
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
  "maxIteration",
  "droppedTokens",
  "reinstatements",
  "emptyPaletteWarnings",
  "stageErrors",
  "harmfulDrops",
] as const;
export type RunSortKey = (typeof RUN_SORT_KEYS)[number];

export const RUN_PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_RUN_PAGE_SIZE = 50;
/** Deepest page a URL may ask for; deeper requests are clamped. */
export const MAX_PAGE = 100_000;

const page = param(z.coerce.number().int().min(1).max(MAX_PAGE).catch(1)).default(1);

/** `/runs` — the runs browser. `range` defaults to all time. */
export const runsSearchSchema = z.object({
  range: param(z.enum(["all", ...RANGE_PRESETS, "custom"]).catch("all")).default("all"),
  ...rangeFields,
  tenant: optionalText(100),
  role: optionalText(200),
  mode,
  q: optionalText(200),
  warnings: flag,
  harmful: flag,
  sort: param(z.enum(RUN_SORT_KEYS).catch("lastSeen")).default("lastSeen"),
  dir: direction,
  page,
  size: param(
    z.coerce
      .number()
      .refine((value) => (RUN_PAGE_SIZES as readonly number[]).includes(value))
      .catch(DEFAULT_RUN_PAGE_SIZE),
  ).default(DEFAULT_RUN_PAGE_SIZE),
  live,
});
export type RunsSearch = z.infer<typeof runsSearchSchema>;

/** Iterations shown per page of a run trace. */
export const TRACE_PAGE_SIZE = 25;

/** `/runs/[runId]` — one run's decision trace. */
export const runTraceSearchSchema = z.object({
  tenant: optionalText(100),
  page,
  issues: flag,
});
export type RunTraceSearch = z.infer<typeof runTraceSearchSchema>;

/** Parses raw `searchParams` with one of the schemas above; never throws. */
export function parseSearchParams<T extends z.ZodType>(
  schema: T,
  raw: RawSearchParams | URLSearchParams,
): z.infer<T> {
  const record: Record<string, unknown> =
    raw instanceof URLSearchParams ? Object.fromEntries(raw.entries()) : raw;
  const result = schema.safeParse(record);
  if (result.success) return result.data;
  // Every field carries a `.catch`, so this only happens if a schema above is changed carelessly.
  return schema.parse({});
}

/** `/api/export/run` — one run's iterations as CSV. */
export const runExportSearchSchema = z.object({
  tenant: z.string().min(1).max(100),
  runId: z.string().min(1).max(200),
});
