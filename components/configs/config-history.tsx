import Link from "next/link";
import { LocalTime } from "@/components/ui/local-time";
import type { ConfigDiff } from "@/lib/configs/config-diff";
import { backtestConfigHref, configHref, versionRolloutsHref } from "@/lib/configs/links";
import { ConfigDiffView } from "./config-diff-view";
import styles from "./configs.module.css";

/** One version in the history, as the page passes it (instants as ISO strings). */
export interface ConfigHistoryRow {
  revision: number;
  configVersion: string;
  previousVersion: string | null;
  savedAt: string;
  authorKind: string;
  authorName: string;
  note: string | null;
  diff: ConfigDiff;
  /** Decisions recorded with this version exist: the rollouts view has something to show. */
  hasTraffic: boolean;
}

const AUTHOR_KIND: Record<string, string> = { user: "", key: "API key · ", system: "" };

/** A tenant's config versions, newest first, each with what changed since the one before. */
export function ConfigHistory({
  tenant,
  rows,
  currentRevision,
}: {
  tenant: string;
  rows: readonly ConfigHistoryRow[];
  currentRevision: number | null;
}) {
  return (
    <ol className={styles.history} data-testid="config-history">
      {rows.map((row) => (
        <li
          key={row.revision}
          id={`revision-${row.revision}`}
          className={styles.historyEntry}
          data-testid="config-history-entry"
        >
          <div className={styles.historyHead}>
            <strong>Revision {row.revision}</strong>
            <Link className="mono small" href={configHref(tenant, row.configVersion)}>
              {row.configVersion}
            </Link>
            {row.revision === currentRevision ? (
              <span className="badge badge-ok">current</span>
            ) : null}
            <span className="small">
              <LocalTime iso={row.savedAt} style="short" /> · {AUTHOR_KIND[row.authorKind] ?? ""}
              {row.authorName}
            </span>
            <span className="small">
              {row.hasTraffic ? (
                <>
                  <Link href={versionRolloutsHref(tenant, row.configVersion, row.previousVersion)}>
                    Rollouts
                  </Link>{" "}
                  ·{" "}
                </>
              ) : null}
              <Link href={backtestConfigHref(tenant, row.configVersion)}>Backtest this config</Link>
            </span>
          </div>
          {row.note ? <p className="small">{row.note}</p> : null}
          {row.previousVersion === null ? (
            <p className="muted small">First stored version.</p>
          ) : (
            <ConfigDiffView diff={row.diff} />
          )}
        </li>
      ))}
    </ol>
  );
}
