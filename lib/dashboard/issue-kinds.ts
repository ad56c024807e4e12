/**
 * The kinds of issue a decision (and so its run) can carry, in the order every view lists them.
 * One table drives the run trace's badges and its links to iterations with issues, the count
 * columns of the runs and breakdown tables, the runs page's filters, and the SQL that finds
 * decisions and runs with issues.
 */

export const ISSUE_KINDS = [
  {
    key: "reinstatement",
    /** Badge text and link title. */
    label: "reinstatement",
    tone: "warn",
    /** The per-row count in `runs`, rollups and the tables (`MetricTotals`, `RunRow`). */
    count: "reinstatements",
    countLabel: "Reinstatements",
    countDescription: "Forced tools put back after a stage dropped them",
    /** SQL: a row of `decisions` has this issue. */
    decisionPredicate: "reinstatements > 0",
    /** SQL: a row of `runs` has this issue at least once. */
    runPredicate: "reinstatements > 0",
    /** The runs page's filter (a URL flag) that finds runs with it. */
    runsFilter: "warnings",
  },
  {
    key: "emptyPalette",
    label: "empty palette",
    tone: "warn",
    count: "emptyPaletteWarnings",
    countLabel: "Empty palettes",
    countDescription: undefined,
    decisionPredicate: "empty_palette_warnings > 0",
    runPredicate: "empty_palette_warnings > 0",
    runsFilter: "warnings",
  },
  {
    key: "stageError",
    label: "stage error",
    tone: "error",
    count: "stageErrors",
    countLabel: "Stage errors",
    countDescription: undefined,
    decisionPredicate: "stage_errors > 0",
    runPredicate: "stage_errors > 0",
    runsFilter: "warnings",
  },
  {
    key: "harmfulDrop",
    label: "harmful drop",
    tone: "error",
    count: "harmfulDrops",
    countLabel: "Harmful drops",
    countDescription: "Tools the model called that the narrowing had dropped",
    decisionPredicate: "cardinality(harmful_tools) > 0",
    runPredicate: "harmful_drops > 0",
    runsFilter: "harmful",
  },
] as const;

export type IssueKind = (typeof ISSUE_KINDS)[number];
export type IssueKey = IssueKind["key"];
export type IssueCountField = IssueKind["count"];
export type IssueTone = IssueKind["tone"];
export type RunsIssueFilter = IssueKind["runsFilter"];

/** Which kinds of issue one decision (or iteration) has. */
export type IssueFlags = Record<IssueKey, boolean>;

/** Per-row issue counts, as the runs and breakdown tables show them. */
export type IssueCounts = Record<IssueCountField, number>;

/** The kinds flagged in `flags`, in table order. */
export function flaggedIssueKinds(flags: IssueFlags): IssueKind[] {
  return ISSUE_KINDS.filter((kind) => flags[kind.key]);
}

export function hasAnyIssue(flags: IssueFlags): boolean {
  return ISSUE_KINDS.some((kind) => flags[kind.key]);
}

/** "reinstatement, harmful drop": the flagged kinds' labels. */
export function describeIssues(flags: IssueFlags): string {
  return flaggedIssueKinds(flags)
    .map((kind) => kind.label)
    .join(", ");
}

/** The strongest tone among the flagged kinds: an error outweighs a warning. */
export function issueTone(flags: IssueFlags): IssueTone {
  return flaggedIssueKinds(flags).some((kind) => kind.tone === "error") ? "error" : "warn";
}

/** SQL: a `decisions` row has at least one issue. */
export const DECISION_HAS_ISSUES = `(${ISSUE_KINDS.map((kind) => kind.decisionPredicate).join(" OR ")})`;

/** SQL: a `runs` row has an issue that the runs page's `filter` flag looks for. */
export function runHasIssuesFor(filter: RunsIssueFilter): string {
  const predicates = ISSUE_KINDS.filter((kind) => kind.runsFilter === filter).map(
    (kind) => kind.runPredicate,
  );
  return predicates.length === 1 ? (predicates[0] as string) : `(${predicates.join(" OR ")})`;
}
