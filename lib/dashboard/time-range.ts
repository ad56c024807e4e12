/**
 * Time ranges of the dashboard, snapped to the bucket grid of the rollups.
 *
 * Rollups resolve time to UTC minutes and hours, so a range is always a whole number of
 * buckets: the KPI totals, the chart and the previous-period comparison then cover exactly the
 * same buckets, and the totals equal the sum of the chart. A preset ends with the bucket that
 * contains `now` (still filling); the previous period is the same number of buckets just before.
 */
import { MAX_CUSTOM_RANGE_DAYS, type RangePreset } from "@/lib/schemas/dashboard";

export type Granularity = "minute" | "hour" | "day";

export const GRANULARITY_MS: Record<Granularity, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

const PRESETS: Record<RangePreset, { granularity: Granularity; buckets: number; label: string }> = {
  "1h": { granularity: "minute", buckets: 60, label: "Last hour" },
  "24h": { granularity: "hour", buckets: 24, label: "Last 24 hours" },
  "7d": { granularity: "hour", buckets: 168, label: "Last 7 days" },
  "30d": { granularity: "day", buckets: 30, label: "Last 30 days" },
};

export interface Period {
  /** Inclusive, on the bucket grid. */
  from: Date;
  /** Exclusive, on the bucket grid. */
  to: Date;
}

export interface TimeRange extends Period {
  preset: RangePreset | "custom";
  granularity: Granularity;
  bucketMs: number;
  bucketCount: number;
  /** The same number of buckets immediately before `from`. */
  previous: Period;
  label: string;
  /** True when a custom range was asked for but was unusable, and a preset was used instead. */
  fellBack: boolean;
}

export interface RangeInput {
  range: RangePreset | "custom" | "all";
  from?: string | undefined;
  to?: string | undefined;
}

/** Bucket size for a span: minutes up to 6 hours, hours up to 8 days, days beyond. */
export function chooseGranularity(spanMs: number): Granularity {
  if (spanMs <= 6 * GRANULARITY_MS.hour) return "minute";
  if (spanMs <= 8 * GRANULARITY_MS.day) return "hour";
  return "day";
}

/** Start of the UTC bucket containing `ms`. */
export function floorToBucket(ms: number, granularity: Granularity): number {
  const size = GRANULARITY_MS[granularity];
  return Math.floor(ms / size) * size;
}

/** Smallest bucket boundary at or after `ms`. */
export function ceilToBucket(ms: number, granularity: Granularity): number {
  const size = GRANULARITY_MS[granularity];
  return Math.ceil(ms / size) * size;
}

function build(
  preset: RangePreset | "custom",
  granularity: Granularity,
  fromMs: number,
  toMs: number,
  label: string,
  fellBack: boolean,
): TimeRange {
  const bucketMs = GRANULARITY_MS[granularity];
  const span = toMs - fromMs;
  return {
    preset,
    granularity,
    bucketMs,
    bucketCount: Math.round(span / bucketMs),
    from: new Date(fromMs),
    to: new Date(toMs),
    previous: { from: new Date(fromMs - span), to: new Date(fromMs) },
    label,
    fellBack,
  };
}

function presetRange(preset: RangePreset, now: Date, fellBack = false): TimeRange {
  const { granularity, buckets, label } = PRESETS[preset];
  const size = GRANULARITY_MS[granularity];
  const to = floorToBucket(now.getTime(), granularity) + size;
  return build(preset, granularity, to - buckets * size, to, label, fellBack);
}

/**
 * Resolves the range filter against `now`. `all` (the runs page's default) has no window and
 * resolves to null; every other choice resolves to a range, which the overloads say, so a page
 * without `all` gets a `TimeRange`. A custom range must have `from` before `to` and span at
 * most a year; otherwise the 24-hour preset is used and `fellBack` is set (its `preset` is then
 * `24h`, the value the range field shows).
 */
export function resolveTimeRange(
  input: RangeInput & { range: Exclude<RangeInput["range"], "all"> },
  now: Date,
): TimeRange;
export function resolveTimeRange(input: RangeInput, now: Date): TimeRange | null;
export function resolveTimeRange(input: RangeInput, now: Date): TimeRange | null {
  if (input.range === "all") return null;
  if (input.range !== "custom") return presetRange(input.range, now);
  const fromMs = input.from ? Date.parse(input.from) : Number.NaN;
  const toMs = input.to ? Date.parse(input.to) : Number.NaN;
  if (
    !Number.isFinite(fromMs) ||
    !Number.isFinite(toMs) ||
    toMs <= fromMs ||
    toMs - fromMs > MAX_CUSTOM_RANGE_DAYS * GRANULARITY_MS.day
  ) {
    return presetRange("24h", now, true);
  }
  const granularity = chooseGranularity(toMs - fromMs);
  const from = floorToBucket(fromMs, granularity);
  const to = Math.max(ceilToBucket(toMs, granularity), from + GRANULARITY_MS[granularity]);
  return build("custom", granularity, from, to, "Custom range", false);
}

/** What a page says after its range, in brackets, when a custom range fell back to 24 hours. */
export function describeFallback(range: Pick<TimeRange, "fellBack">): string {
  return range.fellBack ? " (the custom range was incomplete, so the last 24 hours are shown)" : "";
}

/** Start of every bucket of the range, in order. */
export function listBucketStarts(range: Pick<TimeRange, "from" | "to" | "bucketMs">): number[] {
  const starts: number[] = [];
  for (let t = range.from.getTime(); t < range.to.getTime(); t += range.bucketMs) starts.push(t);
  return starts;
}

/** Words for the bucket size, e.g. in a chart caption. */
export function describeGranularity(granularity: Granularity): string {
  if (granularity === "minute") return "per minute";
  if (granularity === "hour") return "per hour";
  return "per day (UTC)";
}
