import type { ChangeMarker } from "@/lib/rollouts/config-versions";
import { LocalTime } from "../ui/local-time";
import styles from "./rollouts.module.css";

/** The change markers of the charts, as text (exact times). */
export function MarkerList({ markers }: { markers: readonly ChangeMarker[] }) {
  if (markers.length === 0) {
    return (
      <p className="muted small" data-testid="change-markers">
        No mode or config change inside this window.
      </p>
    );
  }
  return (
    <ul className={styles.markers} data-testid="change-markers" aria-label="Changes in this window">
      {markers.map((marker) => (
        <li
          key={`${marker.kind}:${marker.value}`}
          data-kind={marker.kind}
          className={marker.kind === "mode" ? styles.markerMode : styles.markerConfig}
        >
          <span className={styles.markerSwatch} aria-hidden="true" />
          <LocalTime iso={marker.at} />{" "}
          <span className="muted">
            {marker.kind === "mode" ? (
              <>
                mode <strong>{marker.value}</strong> first seen
              </>
            ) : (
              <>
                config <code>{marker.value}</code> first seen
              </>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}
