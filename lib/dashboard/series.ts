/**
 * Time-series preparation for the overview charts: one point per bucket of the range, one
 * series per tenant (or role), capped so a chart stays legible.
 *
 * Gaps versus zeros: a bucket that has started (its start is at or before `now`) and has no
 * rollup row truly had no events, so it is 0. A bucket that has not started yet (a custom range
 * reaching into the future) has no data at all, so it is null and the line stops there.
 */
import { listBucketStarts, type TimeRange } from "./time-range";
import { type BucketMetricRow, SERIES_METRICS, type SeriesMetric } from "./types";

/** Series drawn before the rest are folded into "other". */
export const MAX_SERIES = 8;

export const OTHER_SERIES_LABEL = "other";

export interface SeriesInfo {
  /** Safe chart data key (`s0`, `s1`, …): labels are untrusted and may contain dots. */
  id: string;
  /** The tenant or role, or "other". */
  label: string;
  isOther: boolean;
  /** Position in the shared palette, stable across the three charts. */
  colorIndex: number;
}

/** One chart row: the bucket start (ms since epoch) and a value per series id. */
export type SeriesPoint = { t: number } & Record<string, number | null>;

export interface PreparedSeries {
  series: SeriesInfo[];
  /** Per metric, one point per bucket of the range. */
  points: Record<SeriesMetric, SeriesPoint[]>;
  /** Per metric and series id, the sum over the range. */
  totals: Record<SeriesMetric, Record<string, number>>;
  bucketMs: number;
  granularity: TimeRange["granularity"];
}

const keyOf = (key: string | null) => (key === null ? "\u0000other" : `k:${key}`);

/**
 * Orders the split keys by decisions (most first, then by name), keeps `maxSeries` of them and
 * folds the rest, and any row already folded by the query (`key === null`), into "other".
 */
export function rankSeries(rows: readonly BucketMetricRow[], maxSeries = MAX_SERIES): SeriesInfo[] {
  const decisionsByKey = new Map<string, { label: string; decisions: number }>();
  let hasOther = false;
  for (const row of rows) {
    if (row.key === null) {
      hasOther = true;
      continue;
    }
    const entry = decisionsByKey.get(row.key) ?? { label: row.key, decisions: 0 };
    entry.decisions += row.decisions;
    decisionsByKey.set(row.key, entry);
  }
  const ranked = [...decisionsByKey.values()].sort(
    (a, b) => b.decisions - a.decisions || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0),
  );
  const kept = ranked.slice(0, maxSeries);
  if (ranked.length > maxSeries) hasOther = true;
  const series: SeriesInfo[] = kept.map((entry, index) => ({
    id: `s${index}`,
    label: entry.label,
    isOther: false,
    colorIndex: index,
  }));
  if (hasOther) {
    series.push({
      id: `s${kept.length}`,
      label: OTHER_SERIES_LABEL,
      isOther: true,
      colorIndex: kept.length,
    });
  }
  return series;
}

/** Builds the three charts' data from (bucket, key) rows over `range`, as of `now`. */
export function prepareTimeSeries(
  rows: readonly BucketMetricRow[],
  range: Pick<TimeRange, "from" | "to" | "bucketMs" | "granularity">,
  now: Date,
  maxSeries = MAX_SERIES,
): PreparedSeries {
  const series = rankSeries(rows, maxSeries);
  const idByKey = new Map<string, string>();
  for (const info of series) {
    if (!info.isOther) idByKey.set(keyOf(info.label), info.id);
  }
  const otherId = series.find((info) => info.isOther)?.id;

  // bucket start → series id → metric sums
  const cells = new Map<number, Map<string, Record<SeriesMetric, number>>>();
  for (const row of rows) {
    const id = idByKey.get(keyOf(row.key)) ?? otherId;
    if (id === undefined) continue;
    const t = row.bucket.getTime();
    let bucket = cells.get(t);
    if (!bucket) {
      bucket = new Map();
      cells.set(t, bucket);
    }
    const cell = bucket.get(id) ?? { droppedTokens: 0, reinstatements: 0, emptyPaletteWarnings: 0 };
    for (const metric of SERIES_METRICS) cell[metric] += row[metric];
    bucket.set(id, cell);
  }

  const starts = listBucketStarts(range);
  const nowMs = now.getTime();
  const points = {} as Record<SeriesMetric, SeriesPoint[]>;
  const totals = {} as Record<SeriesMetric, Record<string, number>>;
  for (const metric of SERIES_METRICS) {
    const metricTotals: Record<string, number> = {};
    for (const info of series) metricTotals[info.id] = 0;
    points[metric] = starts.map((t) => {
      const point: SeriesPoint = { t } as SeriesPoint;
      const started = t <= nowMs;
      const bucket = cells.get(t);
      for (const info of series) {
        if (!started) {
          point[info.id] = null;
          continue;
        }
        const value = bucket?.get(info.id)?.[metric] ?? 0;
        point[info.id] = value;
        metricTotals[info.id] = (metricTotals[info.id] ?? 0) + value;
      }
      return point;
    });
    totals[metric] = metricTotals;
  }
  return { series, points, totals, bucketMs: range.bucketMs, granularity: range.granularity };
}

/**
 * `PreparedSeries` as the server sends it to the browser: the bucket starts once, and per
 * metric one column of values per series, in the order of `series`. A point object per bucket
 * names every series id again: on the 7-day overview (168 buckets, 9 series, 3 metrics) those
 * points were 60 of the page's 134 kB.
 */
export interface PackedSeries extends Omit<PreparedSeries, "points"> {
  starts: number[];
  columns: Record<SeriesMetric, (number | null)[][]>;
}

export function packSeries({ points, ...rest }: PreparedSeries): PackedSeries {
  const columns = {} as PackedSeries["columns"];
  for (const metric of SERIES_METRICS) {
    columns[metric] = rest.series.map((info) =>
      points[metric].map((point) => point[info.id] ?? null),
    );
  }
  return { ...rest, starts: points[SERIES_METRICS[0]].map((point) => point.t), columns };
}

/** The points `packSeries` folded into columns, as the charts draw them. */
export function unpackSeries({ starts, columns, ...rest }: PackedSeries): PreparedSeries {
  const points = {} as PreparedSeries["points"];
  for (const metric of SERIES_METRICS) {
    points[metric] = starts.map((t, index) => {
      const point: SeriesPoint = { t } as SeriesPoint;
      rest.series.forEach((info, position) => {
        point[info.id] = columns[metric][position]?.[index] ?? null;
      });
      return point;
    });
  }
  return { ...rest, points };
}
