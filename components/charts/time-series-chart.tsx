"use client";

/**
 * The frame every time-series chart of the dashboard shares: a titled panel, a line chart
 * sized by its container, the grid, the time axis, a compact y axis and a tooltip. Each view
 * passes its lines (and reference lines) as children and draws its own tooltip body. The chart
 * renders on the client only; the server sends the empty frame, which keeps its height.
 */
import type { ReactNode } from "react";
import { CartesianGrid, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import type { Granularity } from "@/lib/dashboard/time-range";
import { useIsClient } from "../ui/use-is-client";
import { timeAxisProps } from "./time-axis";

/** One line's entry in a tooltip's payload: its data key and the value at the hovered bucket. */
export interface TooltipEntry {
  dataKey?: unknown;
  value?: unknown;
}

/** What a chart's tooltip body receives: the hovered bucket (`label`, ms) and its entries. */
export interface TooltipContent {
  active?: boolean | undefined;
  payload?: readonly TooltipEntry[] | undefined;
  label?: unknown;
}

export function TimeSeriesChart({
  title,
  note,
  testId,
  data,
  granularity,
  marginTop = 8,
  yTickFormatter,
  allowDecimals = true,
  tooltip,
  children,
}: {
  title: string;
  /** Shown after the title in the caption. */
  note?: ReactNode;
  testId?: string | undefined;
  /** One point per bucket, its time as `t` (ms). */
  data: readonly { t: number }[];
  granularity: Granularity;
  /** Room above the plot, e.g. for reference-line labels. */
  marginTop?: number;
  yTickFormatter: (value: number) => string;
  allowDecimals?: boolean;
  tooltip: (content: TooltipContent) => ReactNode;
  children: ReactNode;
}) {
  const isClient = useIsClient();
  return (
    <figure className="panel chart-panel" data-testid={testId}>
      <figcaption>
        <span className="chart-title">{title}</span>
        {note}
      </figcaption>
      <div className="chart-frame">
        {isClient ? (
          <LineChart
            responsive
            data={data}
            style={{ width: "100%", height: "100%" }}
            margin={{ top: marginTop, right: 12, bottom: 0, left: 0 }}
            accessibilityLayer
          >
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--grid)" />
            <XAxis {...timeAxisProps(granularity)} />
            <YAxis
              tickFormatter={yTickFormatter}
              allowDecimals={allowDecimals}
              width={48}
              stroke="var(--muted)"
              fontSize={12}
            />
            <Tooltip
              content={(props) =>
                tooltip({
                  active: props.active,
                  payload: props.payload as readonly TooltipEntry[] | undefined,
                  label: props.label,
                })
              }
            />
            {children}
          </LineChart>
        ) : null}
      </div>
    </figure>
  );
}

/** A tooltip body: the bucket, one row per line (swatch, label, value), an optional total. */
export function TooltipTable({
  title,
  rows,
  total,
  note,
}: {
  title: ReactNode;
  rows: readonly { key: string; color: string; label: ReactNode; value: string }[];
  /** Shown as a last "total" row. */
  total?: string | undefined;
  note?: ReactNode;
}) {
  return (
    <div className="chart-tooltip">
      <div className="chart-tooltip-title">{title}</div>
      <table>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">
                <span className="swatch" style={{ background: row.color }} />
                {row.label}
              </th>
              <td className="num">{row.value}</td>
            </tr>
          ))}
          {total !== undefined ? (
            <tr className="chart-tooltip-total">
              <th scope="row">total</th>
              <td className="num">{total}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {note}
    </div>
  );
}
