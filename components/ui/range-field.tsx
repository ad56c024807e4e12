"use client";

/**
 * The time-range filter: presets, or a custom range typed in the viewer's local time and
 * sent as UTC ISO instants (`from`, `to`).
 */
import { useState } from "react";
import { isoToLocalInput, localInputToIso } from "@/lib/dashboard/local-time-input";
import { useIsClient } from "./use-is-client";

export interface RangeOption {
  value: string;
  label: string;
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
                  defaultValue={isoToLocalInput(from)}
                  onChange={(event) => setFromIso(localInputToIso(event.target.value) ?? "")}
                  required
                />
              </label>
              <label className="field">
                <span>To (local time)</span>
                <input
                  type="datetime-local"
                  defaultValue={isoToLocalInput(to)}
                  onChange={(event) => setToIso(localInputToIso(event.target.value) ?? "")}
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
