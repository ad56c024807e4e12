/**
 * Number formatting with one fixed locale, so text rendered on the server and re-rendered in
 * the browser is identical (no hydration mismatch) whatever the viewer's locale.
 */

const LOCALE = "en-US";

const countFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const compactFormat = new Intl.NumberFormat(LOCALE, {
  notation: "compact",
  maximumFractionDigits: 1,
});
const decimalFormats = new Map<number, Intl.NumberFormat>();
const percentFormat = new Intl.NumberFormat(LOCALE, {
  style: "percent",
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** 1234567 → "1,234,567". */
export function formatCount(value: number): string {
  return countFormat.format(value);
}

/** 1234567 → "1.2M" (axis ticks). */
export function formatCompact(value: number): string {
  return compactFormat.format(value);
}

/** 3.14159, 1 → "3.1". */
export function formatDecimal(value: number, decimals: number): string {
  let format = decimalFormats.get(decimals);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    decimalFormats.set(decimals, format);
  }
  return format.format(value);
}

/** 12 → "+12", -3 → "−3" (a real minus sign), 0 → "0". */
export function formatSignedCount(value: number): string {
  if (value === 0) return "0";
  return `${value > 0 ? "+" : "−"}${countFormat.format(Math.abs(value))}`;
}

/** 0.0421 → "+4.2%", -0.5 → "−50.0%". */
export function formatSignedPercent(fraction: number): string {
  if (fraction === 0) return "0.0%";
  return `${fraction > 0 ? "+" : "−"}${percentFormat.format(Math.abs(fraction))}`;
}

/** A UTC instant as "2026-01-31 12:00:00 UTC": the exact time shown on hover. */
export function formatUtc(iso: string | Date): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  if (Number.isNaN(date.getTime())) return "invalid date";
  return `${date
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d{3}Z$/, "")} UTC`;
}
