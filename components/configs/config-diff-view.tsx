import type { ConfigChange, ConfigDiff } from "@/lib/configs/config-diff";
import styles from "./configs.module.css";

function Change({ change }: { change: ConfigChange }) {
  switch (change.kind) {
    case "names":
      return (
        <>
          {change.subject !== null ? (
            <span className={styles.subject}>{change.subject}: </span>
          ) : null}
          {change.added.length > 0 ? (
            <span className={styles.added}>+ {change.added.join(", ")}</span>
          ) : null}
          {change.added.length > 0 && change.removed.length > 0 ? " " : null}
          {change.removed.length > 0 ? (
            <span className={styles.removed}>− {change.removed.join(", ")}</span>
          ) : null}
        </>
      );
    case "subject-added":
      return (
        <>
          <span className={styles.added}>+ {change.subject}</span>
          {change.detail ? <span className="muted small"> ({change.detail})</span> : null}
        </>
      );
    case "subject-removed":
      return (
        <>
          <span className={styles.removed}>− {change.subject}</span>
          {change.detail ? <span className="muted small"> ({change.detail})</span> : null}
        </>
      );
    case "value": {
      const name = [change.subject, change.field].filter((part) => part !== null).join(".");
      return (
        <>
          {name ? <span className={styles.subject}>{name}: </span> : null}
          <span className={styles.removed}>{change.before}</span> →{" "}
          <span className={styles.added}>{change.after}</span>
        </>
      );
    }
  }
}

/** A structural diff between two config versions, one line per change, grouped by section. */
export function ConfigDiffView({ diff, testId }: { diff: ConfigDiff; testId?: string }) {
  if (diff.length === 0) {
    return (
      <p className="muted small" data-testid={testId}>
        No change.
      </p>
    );
  }
  return (
    <ul className={styles.diff} data-testid={testId}>
      {diff.flatMap((section) =>
        section.changes.map((change, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: changes of a section have no id and never move.
          <li key={`${section.field}-${index}`}>
            <span className={styles.diffLabel}>{section.label}</span>
            <Change change={change} />
          </li>
        )),
      )}
    </ul>
  );
}
