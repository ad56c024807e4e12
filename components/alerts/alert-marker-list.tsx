import Link from "next/link";
import type { PreparedAlertMarkers } from "@/lib/alerts/chart-markers";
import { ruleHref } from "@/lib/alerts/rule-view";
import { LocalTime } from "../ui/local-time";

/** The alert markers of the charts as text (exact times), with links to their rules. */
export function AlertMarkerList({ alerts }: { alerts: PreparedAlertMarkers }) {
  const firingBefore = alerts.spans.filter(
    (span) => span.open && !alerts.markers.some((marker) => marker.ruleId === span.ruleId),
  );
  if (alerts.markers.length === 0 && firingBefore.length === 0) return null;
  return (
    <ul
      className="plain-list small alert-markers"
      data-testid="alert-markers"
      aria-label="Alerts in this window"
    >
      {firingBefore.map((span) => (
        <li key={`open:${span.ruleId}`} data-kind="firing">
          <span className="alert-swatch alert-swatch-firing" aria-hidden="true" />
          <Link href={ruleHref(span.ruleId)}>{span.ruleName}</Link>{" "}
          <span className="muted">firing since before this window</span>
        </li>
      ))}
      {alerts.markers.map((marker) => (
        <li key={`${marker.ruleId}:${marker.at}`} data-kind={marker.kind}>
          <span className={`alert-swatch alert-swatch-${marker.kind}`} aria-hidden="true" />
          <LocalTime iso={marker.at} style="short" />{" "}
          <Link href={ruleHref(marker.ruleId)}>{marker.ruleName}</Link>{" "}
          <span className="muted">{marker.kind}</span>
        </li>
      ))}
    </ul>
  );
}
