/**
 * Shapes the rollout queries return and the pure preparation functions consume. They live here
 * so the preparation code and its tests never import the database.
 */

/** Sums over rollup rows for one cohort; every rate and mean is derived from these. */
export interface CohortSums {
  decisions: number;
  droppedTokens: number;
  droppedTokensSq: number;
  offeredTools: number;
  offeredToolsSq: number;
  selectedTools: number;
  selectedToolsSq: number;
  decisionsReinstated: number;
  decisionsEmptyPalette: number;
  decisionsStageError: number;
  /** Decisions whose tool_call_outcome has been joined. */
  outcomes: number;
  /** Joined decisions with at least one harmful drop. */
  harmfulDecisions: number;
  /** Harmful tool drops (a decision can have several). */
  harmfulDrops: number;
  /** Joined outcomes that called no tool. */
  zeroCallOutcomes: number;
}

export const COHORT_SUM_KEYS = [
  "decisions",
  "droppedTokens",
  "droppedTokensSq",
  "offeredTools",
  "offeredToolsSq",
  "selectedTools",
  "selectedToolsSq",
  "decisionsReinstated",
  "decisionsEmptyPalette",
  "decisionsStageError",
  "outcomes",
  "harmfulDecisions",
  "harmfulDrops",
  "zeroCallOutcomes",
] as const satisfies readonly (keyof CohortSums)[];

export const ZERO_COHORT_SUMS: CohortSums = {
  decisions: 0,
  droppedTokens: 0,
  droppedTokensSq: 0,
  offeredTools: 0,
  offeredToolsSq: 0,
  selectedTools: 0,
  selectedToolsSq: 0,
  decisionsReinstated: 0,
  decisionsEmptyPalette: 0,
  decisionsStageError: 0,
  outcomes: 0,
  harmfulDecisions: 0,
  harmfulDrops: 0,
  zeroCallOutcomes: 0,
};

/** The sums of one (mode, config version) in the window, with when it was first seen. */
export interface CohortCell extends CohortSums {
  mode: string;
  configVersion: string;
  /** Earliest minute bucket with this mode and version in the window. */
  firstSeen: Date;
  /** Latest bucket read with this mode and version in the window (an hour, or a day's midnight). */
  lastBucket: Date;
}

/** One bucket of one cohort (`key` is a mode or a config version) for the time series. */
export interface CohortBucketRow {
  bucket: Date;
  key: string;
  decisions: number;
  droppedTokens: number;
  outcomes: number;
  harmfulDecisions: number;
  zeroCallOutcomes: number;
}

/** A tool that was dropped harmfully in the window (from `tool_rollup_hour`). */
export interface ToolHarmRow {
  tool: string;
  /** Decisions in which this tool was a harmful drop. */
  harmfulDrops: number;
  /** Start of the latest hour with a harmful drop of this tool: where examples are looked up. */
  lastHarmfulHour: Date;
}

/** A decision in which a tool was dropped harmfully: a link target. */
export interface HarmfulDropExample {
  tool: string;
  tenantId: string;
  runId: string;
  iteration: number;
  /** ISO instant. */
  ts: string;
}
