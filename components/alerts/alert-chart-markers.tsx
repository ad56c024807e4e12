/**
 * Alert markers inside a time-series chart: a shaded area where a rule was firing and a line
 * at each firing (red) or resolution (green). Drawn from `prepareAlertMarkers`; the charts' text
 * list of the same markers is `AlertMarkerList`.
 */
import { ReferenceArea, ReferenceLine } from "recharts";
import type { PreparedAlertMarkers } from "@/lib/alerts/chart-markers";

const FIRING = "var(--error)";
const RESOLVED = "var(--good)";

/** The chart children for `alerts` (a list, so recharts sees each element directly). */
export function alertMarkerElements(alerts: PreparedAlertMarkers) {
  return [
    ...alerts.spans.map((span) => (
      <ReferenceArea
        key={`span:${span.ruleId}:${span.x1}`}
        x1={span.x1}
        x2={span.x2}
        fill={FIRING}
        fillOpacity={0.08}
        stroke="none"
        ifOverflow="hidden"
        className="alert-span"
      />
    )),
    ...alerts.groups.map((group, index) => (
      <ReferenceLine
        key={`marker:${group.t}`}
        x={group.t}
        stroke={group.hasFiring ? FIRING : RESOLVED}
        strokeDasharray="4 3"
        ifOverflow="extendDomain"
        className="alert-marker"
        label={{
          value: group.label,
          position: group.nearEnd ? "insideTopRight" : "insideTopLeft",
          offset: 4 + (index % 2) * 14,
          fontSize: 11,
          fill: "var(--muted)",
        }}
      />
    )),
  ];
}
