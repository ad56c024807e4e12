"use client";

/**
 * The overview's three time series. Only draws what it is given: buckets, zero-fill and
 * series were decided by `prepareTimeSeries` on the server. The legend (shared by the three
 * charts, which use the same series and colours) toggles series on and off.
 */
import { useMemo, useState } from "react";
import { Line } from "recharts";
import { NO_ALERT_MARKERS, type PreparedAlertMarkers } from "@/lib/alerts/chart-markers";
import { formatCompact, formatCount } from "@/lib/dashboard/format";
import {
  type PackedSeries,
  type SeriesInfo,
  type SeriesPoint,
  unpackSeries,
} from "@/lib/dashboard/series";
import type { Granularity } from "@/lib/dashboard/time-range";
import type { SeriesMetric } from "@/lib/dashboard/types";
import { alertMarkerElements } from "../alerts/alert-chart-markers";
import { TimeSeriesChart, type TooltipContent, TooltipTable } from "../charts/time-series-chart";
import { seriesColor } from "./series-colors";

const CHARTS: { metric: SeriesMetric; title: string; unit: string }[] = [
  { metric: "droppedTokens", title: "Estimated dropped tokens", unit: "tokens" },
  { metric: "reinstatements", title: "Forced-tool reinstatements", unit: "reinstatements" },
  { metric: "emptyPaletteWarnings", title: "Empty-palette warnings", unit: "warnings" },
];

function describeBucket(t: number, bucketMs: number, granularity: Granularity): string {
  const start = new Date(t);
  const end = new Date(t + bucketMs);
  if (granularity === "day") {
    return `${start.toLocaleDateString(undefined, { timeZone: "UTC", dateStyle: "medium" })} (UTC day)`;
  }
  const options: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };
  return `${start.toLocaleString(undefined, options)} – ${end.toLocaleTimeString(undefined, { timeStyle: "short" })}`;
}

function ChartTooltip({
  active,
  payload,
  label,
  series,
  bucketMs,
  granularity,
  unit,
}: TooltipContent & {
  series: SeriesInfo[];
  bucketMs: number;
  granularity: Granularity;
  unit: string;
}) {
  if (!active || !payload || payload.length === 0 || typeof label !== "number") return null;
  const byId = new Map(series.map((info) => [info.id, info]));
  let total = 0;
  const lines = payload.flatMap((entry) => {
    const info = byId.get(String(entry.dataKey));
    if (!info || typeof entry.value !== "number") return [];
    total += entry.value;
    return [{ info, value: entry.value }];
  });
  return (
    <TooltipTable
      title={describeBucket(label, bucketMs, granularity)}
      rows={lines.map(({ info, value }) => ({
        key: info.id,
        color: seriesColor(info.colorIndex, info.isOther),
        label: info.label,
        value: formatCount(value),
      }))}
      total={lines.length > 1 ? formatCount(total) : undefined}
      note={<div className="muted">{unit}</div>}
    />
  );
}

function MetricChart({
  title,
  unit,
  points,
  totals,
  series,
  hidden,
  bucketMs,
  granularity,
  alerts,
}: {
  title: string;
  unit: string;
  points: SeriesPoint[];
  totals: Record<string, number>;
  series: SeriesInfo[];
  hidden: ReadonlySet<string>;
  bucketMs: number;
  granularity: Granularity;
  alerts: PreparedAlertMarkers;
}) {
  const sum = series
    .filter((info) => !hidden.has(info.id))
    .reduce((acc, info) => acc + (totals[info.id] ?? 0), 0);
  return (
    <TimeSeriesChart
      title={title}
      note={<span className="muted"> · {formatCount(sum)} shown</span>}
      data={points}
      granularity={granularity}
      yTickFormatter={(value) => formatCompact(value)}
      allowDecimals={false}
      marginTop={alerts.groups.length > 0 ? 18 : 8}
      tooltip={(content) => (
        <ChartTooltip
          {...content}
          series={series}
          bucketMs={bucketMs}
          granularity={granularity}
          unit={unit}
        />
      )}
    >
      {alertMarkerElements(alerts)}
      {series.map((info) => (
        <Line
          key={info.id}
          dataKey={info.id}
          name={info.label}
          type="linear"
          stroke={seriesColor(info.colorIndex, info.isOther)}
          strokeWidth={2}
          dot={points.length <= 40}
          hide={hidden.has(info.id)}
          isAnimationActive={false}
          connectNulls={false}
        />
      ))}
    </TimeSeriesChart>
  );
}

export function OverviewCharts({
  packed,
  splitLabel,
  alerts = NO_ALERT_MARKERS,
}: {
  /** The prepared series, packed for the trip to the browser (`packSeries`). */
  packed: PackedSeries;
  splitLabel: string;
  /** Firing spans and transitions of the alert rules matching the charts' filters. */
  alerts?: PreparedAlertMarkers;
}) {
  const prepared = useMemo(() => unpackSeries(packed), [packed]);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setHidden((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <section aria-label="Time series">
      <fieldset className="legend">
        <legend className="visually-hidden">Series by {splitLabel}: press to show or hide</legend>
        {prepared.series.map((info) => {
          const shown = !hidden.has(info.id);
          return (
            <button
              key={info.id}
              type="button"
              className="legend-item"
              aria-pressed={shown}
              onClick={() => toggle(info.id)}
              title={shown ? `Hide ${info.label}` : `Show ${info.label}`}
            >
              <span
                className="swatch"
                style={{
                  background: shown ? seriesColor(info.colorIndex, info.isOther) : "transparent",
                  borderColor: seriesColor(info.colorIndex, info.isOther),
                }}
              />
              {info.isOther ? <em>{info.label}</em> : info.label}
            </button>
          );
        })}
      </fieldset>
      <div className="chart-grid">
        {CHARTS.map((chart) => (
          <MetricChart
            key={chart.metric}
            title={chart.title}
            unit={chart.unit}
            points={prepared.points[chart.metric]}
            totals={prepared.totals[chart.metric]}
            series={prepared.series}
            hidden={hidden}
            bucketMs={prepared.bucketMs}
            granularity={prepared.granularity}
            alerts={alerts}
          />
        ))}
      </div>
    </section>
  );
}
