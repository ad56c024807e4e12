/**
 * Alert markers on the overview charts (SPEC §9): where matching rules fired and resolved, and
 * the spans they were firing. Pure: the charts only draw what this decides. Times are snapped
 * to the chart's bucket starts, the x values the charts plot, and kept inside the chart's span.
 */
import { floorToBucket, type Granularity } from "@/lib/dashboard/time-range";

/** A stored transition of a rule matching the chart's filters. */
export interface AlertTransition {
  ruleId: string;
  ruleName: string;
  /** firing or resolved. */
  kind: string;
  /** The evaluated minute of the transition. */
  minute: Date;
}

/** A transition inside the window, at its bucket. */
export interface AlertMarker {
  /** Bucket start (ms), the chart's x. */
  t: number;
  kind: "firing" | "resolved";
  ruleId: string;
  ruleName: string;
  /** The exact minute, for the text list. */
  at: string;
}

/** A span a rule was firing, clipped to the window (`x2` is the last bucket when still firing). */
export interface AlertSpan {
  ruleId: string;
  ruleName: string;
  x1: number;
  x2: number;
  /** Still firing at the end of the window. */
  open: boolean;
}

/** Markers that fall in the same bucket share one line and one label. */
export interface AlertMarkerGroup {
  t: number;
  label: string;
  hasFiring: boolean;
  /** In the last third of the chart: its label goes to the line's left, inside the chart. */
  nearEnd: boolean;
}

export interface PreparedAlertMarkers {
  markers: AlertMarker[];
  spans: AlertSpan[];
  groups: AlertMarkerGroup[];
}

export const NO_ALERT_MARKERS: PreparedAlertMarkers = { markers: [], spans: [], groups: [] };

/**
 * The markers and firing spans of `transitions` (each rule's transitions in the window and its
 * last one before it) over a window of buckets from `from` (inclusive) to `to` (exclusive).
 * Spans end at the resolution, or at the last bucket already started by `now`.
 */
export function prepareAlertMarkers(
  transitions: readonly AlertTransition[],
  window: { from: Date; to: Date; granularity: Granularity; bucketMs: number },
  now: Date,
): PreparedAlertMarkers {
  const first = window.from.getTime();
  const last = window.to.getTime() - window.bucketMs;
  if (last < first) return NO_ALERT_MARKERS;
  const lastStarted = Math.min(last, floorToBucket(now.getTime(), window.granularity));
  const snap = (ms: number) =>
    Math.min(last, Math.max(first, floorToBucket(ms, window.granularity)));

  const byRule = new Map<string, AlertTransition[]>();
  for (const transition of transitions) {
    if (transition.kind !== "firing" && transition.kind !== "resolved") continue;
    const list = byRule.get(transition.ruleId) ?? [];
    list.push(transition);
    byRule.set(transition.ruleId, list);
  }

  const markers: AlertMarker[] = [];
  const spans: AlertSpan[] = [];
  for (const [ruleId, list] of byRule) {
    list.sort((a, b) => a.minute.getTime() - b.minute.getTime());
    let firingSince: number | null = null;
    let ruleName = list[0]?.ruleName ?? ruleId;
    for (const transition of list) {
      ruleName = transition.ruleName;
      const ms = transition.minute.getTime();
      const inside = ms >= first && ms < window.to.getTime();
      if (inside) {
        markers.push({
          t: snap(ms),
          kind: transition.kind as AlertMarker["kind"],
          ruleId,
          ruleName,
          at: transition.minute.toISOString(),
        });
      }
      if (transition.kind === "firing") {
        firingSince ??= ms;
      } else if (firingSince !== null) {
        if (ms >= first) {
          spans.push({ ruleId, ruleName, x1: snap(firingSince), x2: snap(ms), open: false });
        }
        firingSince = null;
      }
    }
    if (firingSince !== null && firingSince <= lastStarted + window.bucketMs) {
      spans.push({
        ruleId,
        ruleName,
        x1: snap(firingSince),
        x2: Math.max(snap(firingSince), lastStarted),
        open: true,
      });
    }
  }
  markers.sort(
    (a, b) => a.t - b.t || a.at.localeCompare(b.at) || a.ruleName.localeCompare(b.ruleName),
  );
  spans.sort((a, b) => a.x1 - b.x1 || a.ruleName.localeCompare(b.ruleName));
  return { markers, spans, groups: groupMarkers(markers, first + ((last - first) * 2) / 3) };
}

function groupMarkers(markers: readonly AlertMarker[], endThird: number): AlertMarkerGroup[] {
  const groups = new Map<number, AlertMarker[]>();
  for (const marker of markers) groups.set(marker.t, [...(groups.get(marker.t) ?? []), marker]);
  return [...groups.entries()].map(([t, list]) => ({
    t,
    label: list.map((marker) => `${marker.ruleName} ${marker.kind}`).join(" · "),
    hasFiring: list.some((marker) => marker.kind === "firing"),
    nearEnd: t > endThird,
  }));
}
