/**
 * Number formatting of the rollout comparisons, on the dashboard's fixed locale (identical on
 * the server and in the browser).
 */
import { formatDecimal } from "@/lib/dashboard/format";

const MINUS = "−";

function signed(value: number, text: (magnitude: number) => string): string {
  const magnitude = text(Math.abs(value));
  if (magnitude === text(0)) return magnitude;
  return `${value > 0 ? "+" : MINUS}${magnitude}`;
}

/** 0.066667 → "6.67%". Rates keep two decimals so "0.95%" never rounds up to the 1% threshold. */
export function formatRate(fraction: number): string {
  return `${formatDecimal(fraction * 100, 2)}%`;
}

/** A difference of rates in percentage points: 0.05 → "+5.00 pp". */
export function formatRateDifference(fraction: number): string {
  return `${signed(fraction, (m) => formatDecimal(m * 100, 2))} pp`;
}

/** 0.25 → "+25.0%", −0.5 → "−50.0%". */
export function formatRelative(fraction: number): string {
  return `${signed(fraction, (m) => formatDecimal(m * 100, 1))}%`;
}

/** A mean with `decimals` digits. */
export function formatMean(value: number, decimals: number): string {
  const text = formatDecimal(Math.abs(value), decimals);
  return value < 0 && text !== formatDecimal(0, decimals) ? `${MINUS}${text}` : text;
}

/** A difference of means with an explicit sign. */
export function formatMeanDifference(value: number, decimals: number): string {
  return signed(value, (m) => formatDecimal(m, decimals));
}

/** "[a, b]" for interval limits already formatted. */
export function formatBracket(lower: string, upper: string): string {
  return `[${lower}, ${upper}]`;
}
