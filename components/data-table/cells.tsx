import { formatCount } from "@/lib/dashboard/format";

/** A count that draws the eye when it is not zero (reinstatements, warnings, harmful drops). */
export function warnCount(value: number) {
  return value > 0 ? <span className="warn-count">{formatCount(value)}</span> : formatCount(value);
}
