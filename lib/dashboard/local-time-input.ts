/**
 * `datetime-local` inputs: a form shows an instant in the browser's own time and sends it as a
 * UTC ISO instant (the time-range filter, an alert rule's mute, a backtest's custom window).
 * Pure; run in the browser that typed the value.
 */

/**
 * A `datetime-local` input's value ("2026-03-01T14:30", the browser's own time) as an ISO
 * instant, read in the browser that typed it; null when it is not a valid local time.
 */
export function localInputToIso(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** An ISO instant as a `datetime-local` value in the browser's own time (for a form's default). */
export function isoToLocalInput(iso: string | null | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(
    date.getHours(),
  )}:${pad(date.getMinutes())}`;
}
