/**
 * Backtests (SPEC §10): a candidate routing config replayed over a tenant's recorded decisions.
 * The shapes shared by the job, its storage, the replay and the pages. Plain data only: no
 * database or framework imports, so the pure code and its tests can use them.
 *
 * A backtest compares up to three "arms" over the same recorded decisions:
 * - `recorded`: what the recorded configuration selected (the decision's `selected`);
 * - `candidate`: what the candidate config would bind, replayed in enforce mode;
 * - `baseline`: the same for an optional second config (absent when none was given).
 */

import type { RoutingConfigJson } from "@/lib/schemas/routing-config";

/** Longest window a backtest may replay. */
export const MAX_BACKTEST_WINDOW_DAYS = 30;
export const MAX_BACKTEST_WINDOW_MS = MAX_BACKTEST_WINDOW_DAYS * 24 * 3_600_000;

/** Example runs kept per tool (the first ones found in time order). */
export const BACKTEST_EXAMPLES_PER_TOOL = 5;

/**
 * A routing config in its JSON form (`lib/schemas/routing-config.ts`). Checked against the
 * config JSON schema when a backtest is created; stored in the backtest's own row as a
 * snapshot.
 */
export type BacktestConfigJson = RoutingConfigJson;

/** What a backtest is asked to do. */
export interface BacktestInput {
  tenantId: string;
  /** The roles replayed; empty means every role. */
  roles: string[];
  /** Window start (inclusive). */
  from: Date;
  /** Window end (exclusive); at most `MAX_BACKTEST_WINDOW_DAYS` after `from`. */
  to: Date;
  candidate: BacktestConfigJson;
  /** A second config to compare with; null compares with what was recorded only. */
  baseline: BacktestConfigJson | null;
  /** Harmful-drop threshold of the verdict, in percent (1 = 1%), as on the rollouts page. */
  thresholdPercent: number;
}

export const BACKTEST_STATES = [
  "queued",
  "running",
  "cancelling",
  "cancelled",
  "failed",
  "done",
] as const;
export type BacktestState = (typeof BACKTEST_STATES)[number];

/** States a backtest never leaves. */
export const FINISHED_BACKTEST_STATES: ReadonlySet<BacktestState> = new Set([
  "cancelled",
  "failed",
  "done",
]);

export interface BacktestProgress {
  /** Decisions read and replayed so far (as of the last checkpoint). */
  replayed: number;
  /**
   * Decisions the window is expected to hold, from the rollups when the job started (an
   * estimate: decisions still arriving for the window are replayed too).
   */
  estimatedTotal: number;
}

/** Sums for one arm over a set of decisions; every rate and mean is derived from these. */
export interface ArmSums {
  /** Decisions replayed (every decision of the set). */
  decisions: number;
  /** Decisions with a recorded outcome: the denominator of the harmful-drop rate. */
  outcomes: number;
  /** Decisions with an outcome where the model called at least one tool this arm does not bind. */
  harmfulDecisions: number;
  /** Called tools this arm does not bind (a decision can have several). */
  harmfulDrops: number;
  /** Tools bound, summed over decisions. */
  boundTools: number;
  /** Estimated tokens of the offered tools this arm does not bind, summed over decisions. */
  tokensSaved: number;
  /** Decisions where the role palette came back empty (`empty_palette` warning). */
  emptyPalettes: number;
  /** Decisions where the forced tool had to be put back (`forced_reinstated` warning). */
  reinstatements: number;
  /**
   * Decisions where the forced tool could not be offered at all (`ForcedToolUnavailable`: a
   * stage that does not protect it removed it): the model call would fail.
   */
  forcedUnavailable: number;
  /** Decisions where a stage failed and was treated as abstaining. */
  stageErrors: number;
  /** Decisions whose bound tools differ from what was recorded as `selected`. */
  differFromRecorded: number;
}

export const ARM_SUM_KEYS = [
  "decisions",
  "outcomes",
  "harmfulDecisions",
  "harmfulDrops",
  "boundTools",
  "tokensSaved",
  "emptyPalettes",
  "reinstatements",
  "forcedUnavailable",
  "stageErrors",
  "differFromRecorded",
] as const satisfies readonly (keyof ArmSums)[];

/** The arms of one set of decisions. */
export interface ArmsSums {
  recorded: ArmSums;
  candidate: ArmSums;
  /** Null when the backtest has no baseline. */
  baseline: ArmSums | null;
}

/** Per arm, for one tool. */
export interface ToolArmSums {
  /** Decisions in which the arm binds the tool. */
  bound: number;
  /** Decisions with an outcome where the model called the tool and the arm does not bind it. */
  harmful: number;
}

/** A decision in which the candidate would have dropped a tool the model called. */
export interface BacktestExample {
  tenantId: string;
  runId: string;
  iteration: number;
  /** ISO 8601 time of the decision. */
  ts: string;
  role: string;
}

export interface BacktestToolSums {
  tool: string;
  /** Decisions that offered it. */
  offered: number;
  /** Decisions with an outcome in which the model called it. */
  called: number;
  recorded: ToolArmSums;
  candidate: ToolArmSums;
  baseline: ToolArmSums | null;
  /** The first decisions (in time order) where the candidate would drop it while called. */
  examples: BacktestExample[];
}

/**
 * Where a tool's size (tokens of its definition) comes from:
 * - `otlp`: the latest size the store holds for the tool (`tool_sizes`: from the definitions
 *   in OpenTelemetry exports, or from the `tool_tokens` map decisions carry);
 * - `recorded-drops`: the recorded `dropped_tokens` of decisions that dropped it, each
 *   decision's estimate shared evenly among the tools it dropped (the tools rollup);
 * - `catalog`: the candidate catalogue's description and name, the formula agents use for
 *   `dropped_tokens` (floor((description + name characters) / 4));
 * - `unknown`: none of these; counted as 0 tokens.
 */
export const TOKEN_SOURCES = ["otlp", "recorded-drops", "catalog", "unknown"] as const;
export type TokenSource = (typeof TOKEN_SOURCES)[number];

export interface ToolSizeEstimate {
  tool: string;
  tokens: number;
  source: TokenSource;
}

/**
 * What the replay could not take from the recorded inputs, with how it was handled. Every
 * reason is counted in decisions; a decision can have several.
 *
 * - `no-outcome`: no tool_call_outcome yet: replayed, but harmful drops cannot be told, so
 *   it is left out of the harmful-drop rate (it still counts for tokens and palettes);
 * - `recorded-intent-verdict`: an `action` verdict replayed with the matched tools recorded:
 *   new trigger keywords would need the message text, which is not recorded;
 * - `recorded-lazy-names`: lazy routing's names are resolved per turn: the names the recorded
 *   trace shows it kept are replayed;
 * - `lazy-names-unknown`: the recorded trace has no lazy-routing stage at all (another
 *   pipeline, or a decision derived from OpenTelemetry spans): lazy routing abstains;
 * - `recorded-empty-palette`: the recorded palette resolver answered "no palette" for this
 *   role in this context (e.g. a workspace without one); the replay keeps that answer;
 * - `enforce-calls-bounded`: recorded in enforce mode: the model only saw the recorded
 *   selection, so tools a broader candidate would add cannot show up as called;
 * - `unreadable-trace`: the stored trace could not be read; lazy routing and the recorded
 *   palette answer are unknown (replayed as abstaining).
 */
export const BACKTEST_NOTES = [
  "no-outcome",
  "recorded-intent-verdict",
  "recorded-lazy-names",
  "lazy-names-unknown",
  "recorded-empty-palette",
  "enforce-calls-bounded",
  "unreadable-trace",
] as const;
export type BacktestNote = (typeof BACKTEST_NOTES)[number];

export type BacktestNoteCounts = Record<BacktestNote, number>;

/**
 * The stored result. While the job runs it holds the sums as of the last checkpoint; once
 * `done`, the sums over the whole window.
 */
export interface BacktestResult {
  /** `configVersion` of the candidate, and of the baseline when given. */
  candidateVersion: string;
  baselineVersion: string | null;
  overall: ArmsSums;
  /** Per role, in role order. */
  roles: Record<string, ArmsSums>;
  /** Per tool that was offered at least once, in tool-name order. */
  tools: BacktestToolSums[];
  notes: BacktestNoteCounts;
  /** The per-tool sizes behind `tokensSaved` and where each comes from. */
  toolSizes: ToolSizeEstimate[];
}

/** One stored backtest, as the pages read it. */
export interface Backtest {
  id: string;
  tenantId: string;
  roles: string[];
  from: Date;
  to: Date;
  candidate: BacktestConfigJson;
  baseline: BacktestConfigJson | null;
  thresholdPercent: number;
  state: BacktestState;
  progress: BacktestProgress;
  /** Null until the first chunk is committed. */
  result: BacktestResult | null;
  /** Why the job failed, when it did. */
  error: string | null;
  createdBy: { id: string; email: string | null } | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** A backtest in a list: everything but the configs and the result. */
export type BacktestSummary = Omit<Backtest, "candidate" | "baseline" | "result"> & {
  candidateVersion: string;
  baselineVersion: string | null;
};
