import type { Granularity } from "@/lib/dashboard/time-range";

/** Tick labels for a time axis: day buckets are UTC days, finer buckets the viewer's time. */
export function timeTickFormatter(granularity: Granularity): (t: number) => string {
  const format = new Intl.DateTimeFormat(
    undefined,
    granularity === "day"
      ? { month: "short", day: "numeric", timeZone: "UTC" }
      : granularity === "minute"
        ? { hour: "2-digit", minute: "2-digit" }
        : { month: "short", day: "numeric", hour: "2-digit" },
  );
  return (t) => format.format(t);
}

/** Props of the x axis every time-series chart shares (points carry their time as `t`). */
export function timeAxisProps(granularity: Granularity) {
  return {
    dataKey: "t",
    type: "number",
    scale: "time",
    domain: ["dataMin", "dataMax"],
    tickFormatter: timeTickFormatter(granularity),
    minTickGap: 24,
    stroke: "var(--muted)",
    fontSize: 12,
  } as const;
}
