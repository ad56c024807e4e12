/**
 * Time series of two cohorts overlaid: per bucket of the window, each cohort's harmful-drop
 * rate, zero-tool-call rate and mean dropped tokens per decision.
 *
 * Gaps versus zeros: a rate or mean needs a denominator. A bucket in which a cohort had no
 * decisions (or no outcomes, for the outcome rates) has no value, so it is null and the line
 * breaks there; it is not 0. Buckets that have not started yet are null too.
 */
import { listBucketStarts, type TimeRange } from "@/lib/dashboard/time-range";
import type { ChangeMarker } from "./config-versions";
import type { CohortBucketRow } from "./types";

export const COHORT_SERIES_METRICS = ["harmfulDropRate", "zeroCallRate", "droppedTokens"] as const;
export type CohortSeriesMetric = (typeof COHORT_SERIES_METRICS)[number];

export interface CohortSeriesPoint {
  t: number;
  a: number | null;
  b: number | null;
}

export interface CohortChart {
  metric: CohortSeriesMetric;
  title: string;
  kind: "rate" | "mean";
  points: CohortSeriesPoint[];
  /** Buckets with a value, per cohort. */
  counts: { a: number; b: number };
}

export interface PreparedCohortSeries {
  labels: { a: string; b: string };
  charts: CohortChart[];
  markers: ChangeMarker[];
  bucketMs: number;
  granularity: TimeRange["granularity"];
}

const CHARTS: { metric: CohortSeriesMetric; title: string; kind: "rate" | "mean" }[] = [
  { metric: "harmfulDropRate", title: "Harmful-drop rate", kind: "rate" },
  { metric: "zeroCallRate", title: "Zero-tool-call rate", kind: "rate" },
  { metric: "droppedTokens", title: "Dropped tokens per decision", kind: "mean" },
];

interface Cell {
  decisions: number;
  droppedTokens: number;
  outcomes: number;
  harmfulDecisions: number;
  zeroCallOutcomes: number;
}

function bucketValue(metric: CohortSeriesMetric, cell: Cell | undefined): number | null {
  if (!cell) return null;
  if (metric === "droppedTokens") {
    return cell.decisions > 0 ? cell.droppedTokens / cell.decisions : null;
  }
  if (cell.outcomes === 0) return null;
  return (
    (metric === "harmfulDropRate" ? cell.harmfulDecisions : cell.zeroCallOutcomes) / cell.outcomes
  );
}

/**
 * Builds the charts from (bucket, key) rows; `keys.a` and `keys.b` say which key is which
 * cohort (rows of other keys are ignored). Markers outside the window are dropped.
 */
export function prepareCohortSeries(
  rows: readonly CohortBucketRow[],
  cohorts: { a: { key: string; label: string }; b: { key: string; label: string } },
  range: Pick<TimeRange, "from" | "to" | "bucketMs" | "granularity">,
  now: Date,
  markers: readonly ChangeMarker[] = [],
): PreparedCohortSeries {
  const cells = { a: new Map<number, Cell>(), b: new Map<number, Cell>() };
  for (const row of rows) {
    const side = row.key === cohorts.a.key ? "a" : row.key === cohorts.b.key ? "b" : null;
    if (!side) continue;
    const t = row.bucket.getTime();
    const cell = cells[side].get(t) ?? {
      decisions: 0,
      droppedTokens: 0,
      outcomes: 0,
      harmfulDecisions: 0,
      zeroCallOutcomes: 0,
    };
    cell.decisions += row.decisions;
    cell.droppedTokens += row.droppedTokens;
    cell.outcomes += row.outcomes;
    cell.harmfulDecisions += row.harmfulDecisions;
    cell.zeroCallOutcomes += row.zeroCallOutcomes;
    cells[side].set(t, cell);
  }
  const starts = listBucketStarts(range);
  const nowMs = now.getTime();
  const charts = CHARTS.map(({ metric, title, kind }) => {
    const counts = { a: 0, b: 0 };
    const points = starts.map((t) => {
      const started = t <= nowMs;
      const a = started ? bucketValue(metric, cells.a.get(t)) : null;
      const b = started ? bucketValue(metric, cells.b.get(t)) : null;
      if (a !== null) counts.a += 1;
      if (b !== null) counts.b += 1;
      return { t, a, b };
    });
    return { metric, title, kind, points, counts };
  });
  const from = range.from.getTime();
  const to = range.to.getTime();
  return {
    labels: { a: cohorts.a.label, b: cohorts.b.label },
    charts,
    markers: markers.filter((marker) => marker.t >= from && marker.t < to),
    bucketMs: range.bucketMs,
    granularity: range.granularity,
  };
}
