"use client";

/**
 * Two cohorts overlaid per metric, with a dashed marker where a mode or config version first
 * appeared. Only draws what `prepareCohortSeries` decided on the server.
 */
import { Line, ReferenceLine } from "recharts";
import { formatCompact, formatDecimal } from "@/lib/dashboard/format";
import type { ChangeMarker } from "@/lib/rollouts/config-versions";
import { formatRate } from "@/lib/rollouts/format";
import type { CohortChart, PreparedCohortSeries } from "@/lib/rollouts/series";
import { TimeSeriesChart, type TooltipContent, TooltipTable } from "../charts/time-series-chart";
import { SERIES_COLORS } from "../overview/series-colors";
import styles from "./rollouts.module.css";

const COLORS = { a: SERIES_COLORS[0], b: SERIES_COLORS[1] } as const;
const MODE_MARKER = "var(--warn)";
const CONFIG_MARKER = "var(--muted)";

function formatValue(kind: CohortChart["kind"], value: number): string {
  return kind === "rate" ? formatRate(value) : formatDecimal(value, 1);
}

/** Markers that fall in the same bucket share one line. */
function groupMarkers(markers: readonly ChangeMarker[]) {
  const groups = new Map<number, ChangeMarker[]>();
  for (const marker of markers) groups.set(marker.t, [...(groups.get(marker.t) ?? []), marker]);
  return [...groups.entries()].map(([t, list]) => ({
    t,
    label: list.map((marker) => marker.value).join(" · "),
    hasMode: list.some((marker) => marker.kind === "mode"),
  }));
}

function CohortTooltip({
  active,
  payload,
  label,
  kind,
  labels,
}: TooltipContent & {
  kind: CohortChart["kind"];
  labels: { a: string; b: string };
}) {
  if (!active || !payload || typeof label !== "number") return null;
  const rows = payload.flatMap((entry) => {
    const side: "a" | "b" | null = entry.dataKey === "a" ? "a" : entry.dataKey === "b" ? "b" : null;
    if (!side || typeof entry.value !== "number") return [];
    return [{ side, value: entry.value }];
  });
  if (rows.length === 0) return null;
  return (
    <TooltipTable
      title={new Date(label).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}
      rows={rows.map(({ side, value }) => ({
        key: side,
        color: COLORS[side],
        label: labels[side],
        value: formatValue(kind, value),
      }))}
    />
  );
}

function CohortLineChart({
  chart,
  prepared,
}: {
  chart: CohortChart;
  prepared: PreparedCohortSeries;
}) {
  const markers = groupMarkers(prepared.markers);
  const showDots = chart.points.length <= 60 || chart.counts.a + chart.counts.b <= 60;
  return (
    <TimeSeriesChart
      title={chart.title}
      testId={`chart-${chart.metric}`}
      data={chart.points}
      granularity={prepared.granularity}
      marginTop={18}
      yTickFormatter={(value) =>
        chart.kind === "rate" ? `${formatCompact(value * 100)}%` : formatCompact(value)
      }
      tooltip={(content) => (
        <CohortTooltip {...content} kind={chart.kind} labels={prepared.labels} />
      )}
    >
      {markers.map((marker, index) => (
        <ReferenceLine
          key={marker.t}
          x={marker.t}
          stroke={marker.hasMode ? MODE_MARKER : CONFIG_MARKER}
          strokeDasharray="4 3"
          ifOverflow="extendDomain"
          className="change-marker"
          label={{
            value: marker.label,
            position: "insideTopLeft",
            // Alternate heights so labels of nearby markers do not overlap.
            offset: 4 + (index % 2) * 14,
            fontSize: 11,
            fill: "var(--muted)",
          }}
        />
      ))}
      {(["a", "b"] as const).map((side) => (
        <Line
          key={side}
          dataKey={side}
          name={prepared.labels[side]}
          type="linear"
          stroke={COLORS[side]}
          strokeWidth={2}
          dot={showDots}
          isAnimationActive={false}
          connectNulls={false}
        />
      ))}
    </TimeSeriesChart>
  );
}

export function CohortCharts({
  prepared,
  title,
}: {
  prepared: PreparedCohortSeries;
  title: string;
}) {
  return (
    <section aria-label={title}>
      <div className={styles.cohortLegend}>
        {(["a", "b"] as const).map((side) => (
          <span key={side}>
            <span className="swatch" style={{ background: COLORS[side] }} />
            {prepared.labels[side]}
          </span>
        ))}
        <span className="muted">
          A missing point means the cohort had no decisions (or no outcomes) in that bucket.
        </span>
      </div>
      <div className="chart-grid">
        {prepared.charts.map((chart) => (
          <CohortLineChart key={chart.metric} chart={chart} prepared={prepared} />
        ))}
      </div>
    </section>
  );
}
