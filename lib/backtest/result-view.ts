/**
 * What the backtest pages show, prepared from a stored backtest (pure: no I/O). The state and
 * its progress; the verdict on the candidate by the rule of the rollouts view; the comparison
 * of the candidate with what was recorded (and with the baseline); the same per role; the
 * per-tool table in the order asked for; what could not be replayed, in plain sentences with
 * counts; and how tokens were estimated.
 */
import { formatCount, formatDecimal, formatSignedCount } from "@/lib/dashboard/format";
import { CONFIDENCE } from "@/lib/rollouts/cohorts";
import { formatMeanDifference, formatRate, formatRateDifference } from "@/lib/rollouts/format";
import { decideVerdict, type Verdict, type VerdictWording } from "@/lib/rollouts/verdict";
import {
  BACKTEST_TOOL_SORT_DIRECTIONS,
  type BacktestToolSortKey,
} from "@/lib/schemas/backtest-pages";
import type { SortDirection } from "@/lib/schemas/dashboard";
import { wilsonInterval } from "@/lib/stats";
import {
  type ArmSums,
  type ArmsSums,
  BACKTEST_NOTES,
  type BacktestExample,
  type BacktestNote,
  type BacktestNoteCounts,
  type BacktestProgress,
  type BacktestResult,
  type BacktestState,
  type BacktestSummary,
  type BacktestToolSums,
  TOKEN_SOURCES,
  type TokenSource,
  type ToolSizeEstimate,
} from "./types";

/** The verdict's words for a backtest: replayed decisions, judged for the candidate. */
export const BACKTEST_WORDING: VerdictWording = {
  decisions: "replayed decisions",
  decision: "replayed decision",
  rateLabel: "Would-be harmful-drop rate (candidate)",
  breaker: "this config",
  noTraffic: "No recorded decisions in this window",
};

/** The verdict on one arm of a backtest, by the rollouts view's rule and threshold. */
export function backtestVerdict(arm: ArmSums, thresholdPercent: number): Verdict {
  return decideVerdict(arm, thresholdPercent, BACKTEST_WORDING);
}

// ---------------------------------------------------------------------------------------
// State and progress

export type StateTone = "ok" | "warn" | "error" | "pending";

export interface StateView {
  state: BacktestState;
  label: string;
  tone: StateTone;
  /** "1,234 of about 5,000 decisions replayed (25%)". */
  progressText: string;
  /** 0–100, or null when the total is not known yet. */
  percent: number | null;
  /** Still queued, running or cancelling: the page keeps refreshing. */
  active: boolean;
  /** Cancel is offered (queued or running). */
  cancellable: boolean;
}

const STATE_LABELS: Record<BacktestState, { label: string; tone: StateTone }> = {
  queued: { label: "Queued", tone: "pending" },
  running: { label: "Running", tone: "pending" },
  cancelling: { label: "Cancelling", tone: "warn" },
  cancelled: { label: "Cancelled", tone: "warn" },
  failed: { label: "Failed", tone: "error" },
  done: { label: "Done", tone: "ok" },
};

export function prepareState(state: BacktestState, progress: BacktestProgress): StateView {
  const { replayed, estimatedTotal } = progress;
  const percent =
    estimatedTotal > 0 ? Math.min(100, Math.floor((replayed / estimatedTotal) * 100)) : null;
  let progressText: string;
  if (state === "queued") progressText = "Waiting for the job queue to start it";
  else if (state === "done")
    progressText = `${formatCount(replayed)} ${replayed === 1 ? "decision" : "decisions"} replayed`;
  else if (estimatedTotal > 0)
    progressText = `${formatCount(replayed)} of about ${formatCount(estimatedTotal)} decisions replayed (${percent}%)`;
  else progressText = `${formatCount(replayed)} decisions replayed`;
  return {
    state,
    ...STATE_LABELS[state],
    progressText,
    percent: state === "done" ? 100 : percent,
    active: state === "queued" || state === "running" || state === "cancelling",
    cancellable: state === "queued" || state === "running",
  };
}

/** What a failed or cancelled backtest says, and what to do next; null for the others. */
export function describeEnding(
  state: BacktestState,
  progress: BacktestProgress,
  error: string | null,
): { title: string; text: string } | null {
  if (state === "failed") {
    return {
      title: "This backtest failed",
      text: `The job stopped with: ${error ?? "no message"}. Nothing of it is shown as a result. Run it again; if it fails the same way, narrow the window or the roles, and check the candidate config.`,
    };
  }
  if (state === "cancelled") {
    return {
      title: "This backtest was cancelled",
      text: `It was stopped after ${formatCount(progress.replayed)} replayed decisions, so it has no verdict: part of the window was never replayed. Run it again to get one.`,
    };
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// Arms

export type ArmKey = "recorded" | "candidate" | "baseline";

export interface ArmLabels {
  recorded: string;
  candidate: string;
  baseline: string | null;
}

/** A config version as shown: its first 12 characters. */
export function shortVersion(version: string): string {
  return version.length > 12 ? version.slice(0, 12) : version;
}

export function armLabels(result: Pick<BacktestResult, "candidateVersion" | "baselineVersion">) {
  return {
    recorded: "Recorded",
    candidate: `Candidate ${shortVersion(result.candidateVersion)}`,
    baseline:
      result.baselineVersion === null ? null : `Baseline ${shortVersion(result.baselineVersion)}`,
  } satisfies ArmLabels;
}

// ---------------------------------------------------------------------------------------
// Comparison of the arms

export interface ComparisonCell {
  value: string;
  /** Counts and the interval under the value: "4 / 60 · [2.62%, 15.93%]". */
  detail: string | null;
}

export interface ComparisonRow {
  key: string;
  metric: string;
  description: string;
  recorded: ComparisonCell;
  candidate: ComparisonCell;
  baseline: ComparisonCell | null;
  /** Candidate minus recorded. */
  vsRecorded: string;
  /** Candidate minus baseline. */
  vsBaseline: string | null;
  /** Which way is better: a lower harmful-drop rate, more tokens saved. */
  better: "lower" | "higher" | "neither";
}

interface Metric {
  key: string;
  metric: string;
  description: string;
  better: ComparisonRow["better"];
  cell(arm: ArmSums): ComparisonCell;
  difference(candidate: ArmSums, other: ArmSums): string;
}

const perDecision = (total: number, decisions: number) => (decisions > 0 ? total / decisions : 0);

function rateCell(successes: number, trials: number): ComparisonCell {
  const interval = wilsonInterval({ successes, trials }, CONFIDENCE);
  if (!interval) return { value: "—", detail: `0 / 0` };
  return {
    value: formatRate(interval.estimate),
    detail: `${formatCount(successes)} / ${formatCount(trials)} · [${formatRate(interval.lower)}, ${formatRate(interval.upper)}]`,
  };
}

function shareCell(count: number, decisions: number): ComparisonCell {
  return {
    value: formatCount(count),
    detail: decisions > 0 ? `${formatRate(count / decisions)} of decisions` : null,
  };
}

const rateDifference = (a: number, an: number, b: number, bn: number) =>
  an > 0 && bn > 0 ? formatRateDifference(a / an - b / bn) : "—";

const METRICS: readonly Metric[] = [
  {
    key: "harmfulDropRate",
    metric: "Harmful-drop rate",
    description:
      "Decisions with an outcome in which the model called a tool this config would not have bound, of the decisions with an outcome; 95% Wilson interval.",
    better: "lower",
    cell: (arm) => rateCell(arm.harmfulDecisions, arm.outcomes),
    difference: (c, o) =>
      rateDifference(c.harmfulDecisions, c.outcomes, o.harmfulDecisions, o.outcomes),
  },
  {
    key: "harmfulDrops",
    metric: "Harmful drops",
    description: "Called tools this config would not have bound (a decision can have several).",
    better: "lower",
    cell: (arm) => ({ value: formatCount(arm.harmfulDrops), detail: null }),
    difference: (c, o) => formatSignedCount(c.harmfulDrops - o.harmfulDrops),
  },
  {
    key: "tokensSavedPerDecision",
    metric: "Tokens saved per decision (est.)",
    description:
      "Estimated tokens of the offered tools this config would not have bound, per decision.",
    better: "higher",
    cell: (arm) => ({
      value: formatDecimal(perDecision(arm.tokensSaved, arm.decisions), 1),
      detail: null,
    }),
    difference: (c, o) =>
      formatMeanDifference(
        perDecision(c.tokensSaved, c.decisions) - perDecision(o.tokensSaved, o.decisions),
        1,
      ),
  },
  {
    key: "tokensSaved",
    metric: "Tokens saved in total (est.)",
    description: "The same, summed over every replayed decision.",
    better: "higher",
    cell: (arm) => ({ value: formatCount(arm.tokensSaved), detail: null }),
    difference: (c, o) => formatSignedCount(c.tokensSaved - o.tokensSaved),
  },
  {
    key: "toolsBound",
    metric: "Tools bound per decision",
    description: "Tools the model would have been offered, per decision.",
    better: "neither",
    cell: (arm) => ({
      value: formatDecimal(perDecision(arm.boundTools, arm.decisions), 2),
      detail: null,
    }),
    difference: (c, o) =>
      formatMeanDifference(
        perDecision(c.boundTools, c.decisions) - perDecision(o.boundTools, o.decisions),
        2,
      ),
  },
  {
    key: "emptyPalettes",
    metric: "Empty palettes",
    description: "Decisions where the role palette came back empty (an empty_palette warning).",
    better: "lower",
    cell: (arm) => shareCell(arm.emptyPalettes, arm.decisions),
    difference: (c, o) => formatSignedCount(c.emptyPalettes - o.emptyPalettes),
  },
  {
    key: "reinstatements",
    metric: "Forced-tool reinstatements",
    description: "Decisions where a stage dropped the forced tool and it had to be put back.",
    better: "lower",
    cell: (arm) => shareCell(arm.reinstatements, arm.decisions),
    difference: (c, o) => formatSignedCount(c.reinstatements - o.reinstatements),
  },
  {
    key: "forcedUnavailable",
    metric: "Forced tool unavailable",
    description:
      "Decisions where a stage that does not protect the forced tool removed it: the model call would fail (ForcedToolUnavailable).",
    better: "lower",
    cell: (arm) => shareCell(arm.forcedUnavailable, arm.decisions),
    difference: (c, o) => formatSignedCount(c.forcedUnavailable - o.forcedUnavailable),
  },
  {
    key: "stageErrors",
    metric: "Stage errors",
    description: "Decisions where a stage failed and was treated as abstaining.",
    better: "lower",
    cell: (arm) => shareCell(arm.stageErrors, arm.decisions),
    difference: (c, o) => formatSignedCount(c.stageErrors - o.stageErrors),
  },
  {
    key: "differFromRecorded",
    metric: "Bound differently than recorded",
    description: "Decisions whose bound tools differ from the recorded selection.",
    better: "neither",
    cell: (arm) => shareCell(arm.differFromRecorded, arm.decisions),
    difference: (c, o) => formatSignedCount(c.differFromRecorded - o.differFromRecorded),
  },
];

/** One row per metric: recorded, candidate, baseline, and the candidate's differences. */
export function compareArms(arms: ArmsSums): ComparisonRow[] {
  return METRICS.map((metric) => ({
    key: metric.key,
    metric: metric.metric,
    description: metric.description,
    better: metric.better,
    recorded: metric.cell(arms.recorded),
    candidate: metric.cell(arms.candidate),
    baseline: arms.baseline ? metric.cell(arms.baseline) : null,
    vsRecorded: metric.difference(arms.candidate, arms.recorded),
    vsBaseline: arms.baseline ? metric.difference(arms.candidate, arms.baseline) : null,
  }));
}

// ---------------------------------------------------------------------------------------
// Per role

export interface RoleRow {
  role: string;
  decisions: number;
  outcomes: number;
  recordedRate: ComparisonCell;
  candidateRate: ComparisonCell;
  baselineRate: ComparisonCell | null;
  candidateHarmfulDrops: number;
  /** Tokens saved per decision: candidate, recorded. */
  candidateTokensPerDecision: string;
  recordedTokensPerDecision: string;
  candidateTokensSaved: number;
  candidateBoundPerDecision: string;
  recordedBoundPerDecision: string;
  candidateEmptyPalettes: number;
  candidateReinstatements: number;
  candidateForcedUnavailable: number;
  /** The candidate's verdict for this role alone (status and headline). */
  verdict: Pick<Verdict, "status" | "headline">;
}

export function prepareRoleRows(
  roles: Record<string, ArmsSums>,
  thresholdPercent: number,
): RoleRow[] {
  return Object.keys(roles)
    .sort()
    .flatMap((role) => {
      const arms = roles[role];
      if (!arms) return [];
      const { recorded, candidate, baseline } = arms;
      const verdict = backtestVerdict(candidate, thresholdPercent);
      return [
        {
          role,
          decisions: candidate.decisions,
          outcomes: candidate.outcomes,
          recordedRate: rateCell(recorded.harmfulDecisions, recorded.outcomes),
          candidateRate: rateCell(candidate.harmfulDecisions, candidate.outcomes),
          baselineRate: baseline ? rateCell(baseline.harmfulDecisions, baseline.outcomes) : null,
          candidateHarmfulDrops: candidate.harmfulDrops,
          candidateTokensPerDecision: formatDecimal(
            perDecision(candidate.tokensSaved, candidate.decisions),
            1,
          ),
          recordedTokensPerDecision: formatDecimal(
            perDecision(recorded.tokensSaved, recorded.decisions),
            1,
          ),
          candidateTokensSaved: candidate.tokensSaved,
          candidateBoundPerDecision: formatDecimal(
            perDecision(candidate.boundTools, candidate.decisions),
            2,
          ),
          recordedBoundPerDecision: formatDecimal(
            perDecision(recorded.boundTools, recorded.decisions),
            2,
          ),
          candidateEmptyPalettes: candidate.emptyPalettes,
          candidateReinstatements: candidate.reinstatements,
          candidateForcedUnavailable: candidate.forcedUnavailable,
          verdict: { status: verdict.status, headline: verdict.headline },
        },
      ];
    });
}

// ---------------------------------------------------------------------------------------
// Per tool

export interface ExampleLink {
  key: string;
  href: string;
  label: string;
  title: string;
}

export interface ToolRow {
  tool: string;
  offered: number;
  called: number;
  candidateHarmful: number;
  recordedHarmful: number;
  baselineHarmful: number | null;
  candidateBound: number;
  recordedBound: number;
  baselineBound: number | null;
  /** Estimated tokens of its definition, per offer; null when unknown. */
  tokens: number | null;
  tokenSource: TokenSource;
  /** "would drop `send_email`, which the model called 37 times", as parts to draw. */
  summary: ToolSummary;
  examples: ExampleLink[];
}

export type ToolSummary =
  | { kind: "drops"; tool: string; called: number; lost: number }
  | { kind: "keeps"; tool: string; called: number }
  | { kind: "never-called"; tool: string; bound: number; offered: number };

/** The sentence of a tool row, as plain text (CSV, titles). */
export function toolSummaryText(summary: ToolSummary): string {
  const times = (n: number) => `${formatCount(n)} ${n === 1 ? "time" : "times"}`;
  switch (summary.kind) {
    case "drops":
      return `would drop ${summary.tool}, which the model called ${times(summary.called)} (${formatCount(summary.lost)} of those calls lost)`;
    case "keeps":
      return `keeps ${summary.tool} whenever the model called it (${times(summary.called)})`;
    case "never-called":
      return `would bind ${summary.tool} in ${formatCount(summary.bound)} of ${formatCount(summary.offered)} decisions; the model never called it`;
  }
}

function summarise(tool: BacktestToolSums): ToolSummary {
  if (tool.candidate.harmful > 0)
    return { kind: "drops", tool: tool.tool, called: tool.called, lost: tool.candidate.harmful };
  if (tool.called > 0) return { kind: "keeps", tool: tool.tool, called: tool.called };
  return {
    kind: "never-called",
    tool: tool.tool,
    bound: tool.candidate.bound,
    offered: tool.offered,
  };
}

const SORT_VALUES: Record<BacktestToolSortKey, (row: ToolRow) => number | string> = {
  tool: (row) => row.tool,
  offered: (row) => row.offered,
  called: (row) => row.called,
  candidateHarmful: (row) => row.candidateHarmful,
  recordedHarmful: (row) => row.recordedHarmful,
  baselineHarmful: (row) => row.baselineHarmful ?? -1,
  candidateBound: (row) => row.candidateBound,
  tokens: (row) => row.tokens ?? -1,
};

/** Orders rows by `sort` (ties: most called first, then by name). */
export function sortToolRows(
  rows: readonly ToolRow[],
  sort: BacktestToolSortKey,
  dir: SortDirection = BACKTEST_TOOL_SORT_DIRECTIONS[sort],
): ToolRow[] {
  const value = SORT_VALUES[sort];
  const sign = dir === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const primary =
      typeof x === "string" && typeof y === "string"
        ? x.localeCompare(y, "en")
        : Number(x) - Number(y);
    if (primary !== 0) return sign * primary;
    if (a.called !== b.called) return b.called - a.called;
    return a.tool.localeCompare(b.tool, "en");
  });
}

export function prepareToolRows(
  result: Pick<BacktestResult, "tools" | "toolSizes">,
  exampleHref: (example: BacktestExample) => string,
  sort: BacktestToolSortKey,
  dir?: SortDirection,
): ToolRow[] {
  const sizes = new Map(result.toolSizes.map((size) => [size.tool, size]));
  const rows = result.tools.map((tool): ToolRow => {
    const size = sizes.get(tool.tool);
    return {
      tool: tool.tool,
      offered: tool.offered,
      called: tool.called,
      candidateHarmful: tool.candidate.harmful,
      recordedHarmful: tool.recorded.harmful,
      baselineHarmful: tool.baseline?.harmful ?? null,
      candidateBound: tool.candidate.bound,
      recordedBound: tool.recorded.bound,
      baselineBound: tool.baseline?.bound ?? null,
      tokens: size && size.source !== "unknown" ? size.tokens : null,
      tokenSource: size?.source ?? "unknown",
      summary: summarise(tool),
      examples: tool.examples.map((example) => ({
        key: `${example.runId}/${example.iteration}`,
        href: exampleHref(example),
        label: `${example.runId.length > 24 ? `${example.runId.slice(0, 24)}…` : example.runId} #${example.iteration}`,
        title: `Run ${example.runId}, iteration ${example.iteration} (${example.role})`,
      })),
    };
  });
  return sortToolRows(rows, sort, dir);
}

// ---------------------------------------------------------------------------------------
// What could not be replayed, and how tokens were estimated

export interface NoteLine {
  note: BacktestNote;
  count: number;
  text: string;
}

const NOTE_TEXT: Record<BacktestNote, (count: string, decisions: string) => string> = {
  "no-outcome": (n, d) =>
    `${n} ${d} have no tool_call_outcome, so whether a call would have been lost cannot be told: they are replayed for tokens, palettes and reinstatements, and left out of the harmful-drop rate.`,
  "recorded-intent-verdict": (n, d) =>
    `${n} ${d} had an "action" intent verdict. They keep the verdict and the matched tools recorded at the time: new trigger keywords in the candidate would need the message text, which is not recorded, so keyword changes are not replayed.`,
  "recorded-lazy-names": (n, d) =>
    `${n} ${d} went through lazy routing, whose names are resolved per turn: the names the recorded trace shows it kept are replayed.`,
  "lazy-names-unknown": (n, d) =>
    `${n} ${d} have no lazy-routing selection in their recorded trace to take names from: lazy routing abstains in the replay.`,
  "recorded-empty-palette": (n, d) =>
    `${n} ${d} got "no palette" from the recorded palette resolver for their role in that context (for example a workspace without one): the replay keeps that answer.`,
  "enforce-calls-bounded": (n, d) =>
    `${n} ${d} were recorded in enforce mode: the model saw only the recorded selection, so a call to a tool the candidate would add cannot show up. Their harmful drops count only tools the model was offered.`,
  "unreadable-trace": (n, d) =>
    `${n} ${d} have a stored trace that could not be read: lazy routing and the recorded palette answer are unknown, and are replayed as abstaining.`,
};

/** Each reason with its count (those that happened), in the fixed order of the reasons. */
export function prepareNotes(notes: BacktestNoteCounts): NoteLine[] {
  return BACKTEST_NOTES.flatMap((note) => {
    const count = notes[note] ?? 0;
    if (count <= 0) return [];
    return [
      {
        note,
        count,
        text: NOTE_TEXT[note](formatCount(count), count === 1 ? "decision" : "decisions"),
      },
    ];
  });
}

export interface TokenSourceLine {
  source: TokenSource;
  tools: number;
  text: string;
}

const SOURCE_TEXT: Record<TokenSource, string> = {
  otlp: "sized as last reported: their definitions in an OpenTelemetry export, or the tool_tokens an agent sent with its decisions",
  "recorded-drops":
    "sized from the recorded dropped_tokens of decisions that dropped them (each decision's estimate shared evenly among the tools it dropped)",
  catalog:
    "sized from the candidate catalogue: (characters of description and name) ÷ 4, the formula agents use for dropped_tokens",
  unknown:
    "with no size known from any of these: counted as 0 tokens, so the savings are a lower bound",
};

/** How many tools each estimate covers, in the order the estimates are tried. */
export function prepareTokenSources(sizes: readonly ToolSizeEstimate[]): TokenSourceLine[] {
  return TOKEN_SOURCES.flatMap((source) => {
    const tools = sizes.filter((size) => size.source === source).length;
    if (tools === 0) return [];
    return [
      {
        source,
        tools,
        text: `${formatCount(tools)} ${tools === 1 ? "tool" : "tools"} ${SOURCE_TEXT[source]}.`,
      },
    ];
  });
}

export const TOKEN_SOURCE_LABELS: Record<TokenSource, string> = {
  otlp: "reported size",
  "recorded-drops": "recorded dropped_tokens",
  catalog: "candidate catalogue",
  unknown: "unknown",
};

// ---------------------------------------------------------------------------------------
// The list of backtests

export interface BacktestListRow {
  id: string;
  href: string;
  tenant: string;
  roles: string;
  from: string;
  to: string;
  candidate: string;
  baseline: string | null;
  state: StateView;
  /** The candidate's verdict, once done. */
  verdict: Pick<Verdict, "status" | "headline"> | null;
  startedBy: string;
  createdAt: string;
}

/** The roles of a backtest as shown: "all roles" when it names none. */
export function describeRoles(roles: readonly string[]): string {
  return roles.length === 0 ? "all roles" : roles.join(", ");
}

export function prepareBacktestRows(
  backtests: readonly BacktestSummary[],
  candidateSums: ReadonlyMap<string, ArmSums>,
  hrefOf: (id: string) => string,
): BacktestListRow[] {
  return backtests.map((backtest) => {
    const sums = candidateSums.get(backtest.id);
    const verdict =
      backtest.state === "done" && sums ? backtestVerdict(sums, backtest.thresholdPercent) : null;
    return {
      id: backtest.id,
      href: hrefOf(backtest.id),
      tenant: backtest.tenantId,
      roles: describeRoles(backtest.roles),
      from: backtest.from.toISOString(),
      to: backtest.to.toISOString(),
      candidate: shortVersion(backtest.candidateVersion),
      baseline: backtest.baselineVersion === null ? null : shortVersion(backtest.baselineVersion),
      state: prepareState(backtest.state, backtest.progress),
      verdict: verdict ? { status: verdict.status, headline: verdict.headline } : null,
      startedBy: backtest.createdBy?.email ?? "a script",
      createdAt: backtest.createdAt.toISOString(),
    };
  });
}
