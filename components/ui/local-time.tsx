"use client";

import { formatUtc } from "@/lib/dashboard/format";
import { useIsClient } from "./use-is-client";

export type LocalTimeStyle = "datetime" | "short" | "time" | "date";

/** "short" in two parts, so a narrow table cell can put the time under the date. */
const SHORT_DATE: Intl.DateTimeFormatOptions = { month: "short", day: "numeric" };
const SHORT_TIME: Intl.DateTimeFormatOptions = {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
};

const FORMATS: Record<LocalTimeStyle, Intl.DateTimeFormatOptions> = {
  datetime: {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  },
  short: { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" },
  time: { hour: "2-digit", minute: "2-digit", second: "2-digit" },
  date: { year: "numeric", month: "short", day: "numeric" },
};

/**
 * An instant in the viewer's time zone, with the exact UTC time in its title. The server
 * (and hydration) render the UTC text; the browser then switches to local time. The "short"
 * style may wrap between its date and its time, never inside either.
 */
export function LocalTime({ iso, style = "datetime" }: { iso: string; style?: LocalTimeStyle }) {
  const isClient = useIsClient();
  const date = new Date(iso);
  const utc = formatUtc(date);
  if (Number.isNaN(date.getTime())) return <span>{iso}</span>;
  if (isClient && style === "short") {
    return (
      <time dateTime={date.toISOString()} title={utc} className="time-wrap">
        <span>{date.toLocaleDateString(undefined, SHORT_DATE)},</span>{" "}
        <span>{date.toLocaleTimeString(undefined, SHORT_TIME)}</span>
      </time>
    );
  }
  const text = isClient ? date.toLocaleString(undefined, FORMATS[style]) : utc;
  return (
    <time dateTime={date.toISOString()} title={utc}>
      {text}
    </time>
  );
}
