import type { KpiTile } from "@/lib/dashboard/kpis";

/** The overview's KPI tiles; a rise in a warning or error count is marked as bad. */
export function KpiTiles({ tiles, previousLabel }: { tiles: KpiTile[]; previousLabel: string }) {
  return (
    <section aria-label="Key figures">
      <ul className="kpi-grid">
        {tiles.map((tile) => (
          <li key={tile.id} className="panel kpi" data-testid={`kpi-${tile.id}`}>
            <div className="kpi-label">{tile.label}</div>
            <div className="kpi-value" data-testid={`kpi-${tile.id}-value`} title={tile.exact}>
              {tile.display}
            </div>
            <ul className="kpi-changes" title={`${previousLabel}: ${tile.previousDisplay}`}>
              {tile.changes.map((change) => (
                <li
                  key={change.label ?? "change"}
                  className={`kpi-change trend-${change.trend}${
                    tile.sentiment === "bad" && change.trend === "up" ? " is-bad" : ""
                  }${tile.sentiment === "bad" && change.trend === "down" ? " is-good" : ""}`}
                >
                  <span aria-hidden="true">
                    {change.trend === "up" ? "▲ " : change.trend === "down" ? "▼ " : ""}
                  </span>
                  {change.label ? `${change.label} ` : ""}
                  {change.text}
                </li>
              ))}
            </ul>
            <div className="kpi-previous muted">
              {previousLabel}: {tile.previousDisplay}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
