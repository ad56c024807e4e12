"use client";

/**
 * Two cohorts overlaid per metric, with a dashed marker where a mode or config version first
 * appeared. Only draws what `prepareCohortSeries` decided on the server.
 */
import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import { formatCompact, formatDecimal } from "@/lib/dashboard/format";
import type { ChangeMarker } from "@/lib/rollouts/config-versions";
import { formatRate } from "@/lib/rollouts/format";
import type { CohortChart, PreparedCohortSeries } from "@/lib/rollouts/series";
import { timeAxisProps } from "../charts/time-axis";
import { SERIES_COLORS } from "../overview/series-colors";
import { useIsClient } from "../ui/use-is-client";
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

interface TooltipEntry {
  dataKey?: unknown;
  value?: unknown;
}

function CohortTooltip({
  active,
  payload,
  label,
  kind,
  labels,
}: {
  active?: boolean;
  payload?: readonly TooltipEntry[];
  label?: unknown;
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
    <div className="chart-tooltip">
      <div className="chart-tooltip-title">
        {new Date(label).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}
      </div>
      <table>
        <tbody>
          {rows.map(({ side, value }) => (
            <tr key={side}>
              <th scope="row">
                <span className="swatch" style={{ background: COLORS[side] }} />
                {labels[side]}
              </th>
              <td className="num">{formatValue(kind, value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CohortLineChart({
  chart,
  prepared,
}: {
  chart: CohortChart;
  prepared: PreparedCohortSeries;
}) {
  const isClient = useIsClient();
  const markers = groupMarkers(prepared.markers);
  const showDots = chart.points.length <= 60 || chart.counts.a + chart.counts.b <= 60;
  return (
    <figure className="panel chart-panel" data-testid={`chart-${chart.metric}`}>
      <figcaption>
        <span className="chart-title">{chart.title}</span>
      </figcaption>
      <div className="chart-frame">
        {isClient ? (
          <LineChart
            responsive
            data={chart.points}
            style={{ width: "100%", height: "100%" }}
            margin={{ top: 18, right: 12, bottom: 0, left: 0 }}
            accessibilityLayer
          >
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--grid)" />
            <XAxis {...timeAxisProps(prepared.granularity)} />
            <YAxis
              tickFormatter={(value: number) =>
                chart.kind === "rate" ? `${formatCompact(value * 100)}%` : formatCompact(value)
              }
              width={48}
              stroke="var(--muted)"
              fontSize={12}
            />
            <Tooltip
              content={(props) => (
                <CohortTooltip
                  active={props.active}
                  payload={props.payload as readonly TooltipEntry[]}
                  label={props.label}
                  kind={chart.kind}
                  labels={prepared.labels}
                />
              )}
            />
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
          </LineChart>
        ) : null}
      </div>
    </figure>
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
