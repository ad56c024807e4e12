"use client";

/**
 * The overview's three time series. Only draws what it is given: buckets, zero-fill and
 * series were decided by `prepareTimeSeries` on the server. The legend (shared by the three
 * charts, which use the same series and colours) toggles series on and off.
 */
import { useState } from "react";
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { formatCompact, formatCount } from "@/lib/dashboard/format";
import type { PreparedSeries, SeriesInfo, SeriesPoint } from "@/lib/dashboard/series";
import type { Granularity } from "@/lib/dashboard/time-range";
import type { SeriesMetric } from "@/lib/dashboard/types";
import { timeAxisProps } from "../charts/time-axis";
import { useIsClient } from "../ui/use-is-client";
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

interface TooltipEntry {
  dataKey?: unknown;
  value?: unknown;
}

function ChartTooltip({
  active,
  payload,
  label,
  series,
  bucketMs,
  granularity,
  unit,
}: {
  active?: boolean;
  payload?: readonly TooltipEntry[];
  label?: unknown;
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
    <div className="chart-tooltip">
      <div className="chart-tooltip-title">{describeBucket(label, bucketMs, granularity)}</div>
      <table>
        <tbody>
          {lines.map(({ info, value }) => (
            <tr key={info.id}>
              <th scope="row">
                <span
                  className="swatch"
                  style={{ background: seriesColor(info.colorIndex, info.isOther) }}
                />
                {info.label}
              </th>
              <td className="num">{formatCount(value)}</td>
            </tr>
          ))}
          {lines.length > 1 ? (
            <tr className="chart-tooltip-total">
              <th scope="row">total</th>
              <td className="num">{formatCount(total)}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      <div className="muted">{unit}</div>
    </div>
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
}: {
  title: string;
  unit: string;
  points: SeriesPoint[];
  totals: Record<string, number>;
  series: SeriesInfo[];
  hidden: ReadonlySet<string>;
  bucketMs: number;
  granularity: Granularity;
}) {
  const isClient = useIsClient();
  const sum = series
    .filter((info) => !hidden.has(info.id))
    .reduce((acc, info) => acc + (totals[info.id] ?? 0), 0);
  return (
    <figure className="panel chart-panel">
      <figcaption>
        <span className="chart-title">{title}</span>
        <span className="muted"> · {formatCount(sum)} shown</span>
      </figcaption>
      <div className="chart-frame">
        {isClient ? (
          <LineChart
            responsive
            data={points}
            style={{ width: "100%", height: "100%" }}
            margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
            accessibilityLayer
          >
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--grid)" />
            <XAxis {...timeAxisProps(granularity)} />
            <YAxis
              tickFormatter={(value: number) => formatCompact(value)}
              allowDecimals={false}
              width={48}
              stroke="var(--muted)"
              fontSize={12}
            />
            <Tooltip
              content={(props) => (
                <ChartTooltip
                  active={props.active}
                  payload={props.payload as readonly TooltipEntry[]}
                  label={props.label}
                  series={series}
                  bucketMs={bucketMs}
                  granularity={granularity}
                  unit={unit}
                />
              )}
            />
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
          </LineChart>
        ) : null}
      </div>
    </figure>
  );
}

export function OverviewCharts({
  prepared,
  splitLabel,
}: {
  prepared: PreparedSeries;
  splitLabel: string;
}) {
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
          />
        ))}
      </div>
    </section>
  );
}
