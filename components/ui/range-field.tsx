"use client";

/**
 * The time-range filter: presets, or a custom range typed in the viewer's local time and
 * sent as UTC ISO instants (`from`, `to`).
 */
import { useState } from "react";
import { useIsClient } from "./use-is-client";

export interface RangeOption {
  value: string;
  label: string;
}

/** ISO instant → the `YYYY-MM-DDTHH:mm` a datetime-local input shows, in local time. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** datetime-local value (local time) → ISO instant, or "" when empty. */
function fromLocalInput(value: string): string {
  if (!value) return "";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString();
}

export function RangeField({
  value,
  options,
  from,
  to,
}: {
  value: string;
  options: readonly RangeOption[];
  from: string | undefined;
  to: string | undefined;
}) {
  const isClient = useIsClient();
  const [range, setRange] = useState(value);
  const [fromIso, setFromIso] = useState(from ?? "");
  const [toIso, setToIso] = useState(to ?? "");
  const custom = range === "custom";

  return (
    <>
      <label className="field">
        <span>Time range</span>
        <select name="range" value={range} onChange={(event) => setRange(event.target.value)}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
          <option value="custom">Custom…</option>
        </select>
      </label>
      {custom ? (
        <>
          <input type="hidden" name="from" value={fromIso} />
          <input type="hidden" name="to" value={toIso} />
          {isClient ? (
            <>
              <label className="field">
                <span>From (local time)</span>
                <input
                  type="datetime-local"
                  defaultValue={toLocalInput(from)}
                  onChange={(event) => setFromIso(fromLocalInput(event.target.value))}
                  required
                />
              </label>
              <label className="field">
                <span>To (local time)</span>
                <input
                  type="datetime-local"
                  defaultValue={toLocalInput(to)}
                  onChange={(event) => setToIso(fromLocalInput(event.target.value))}
                  required
                />
              </label>
            </>
          ) : null}
        </>
      ) : null}
    </>
  );
}
