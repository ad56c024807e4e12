/**
 * Shapes the dashboard's queries return and its prepare functions consume. They live here,
 * beside the pure code, so the prepare functions and their tests never import the database.
 */

/** Sums over rollup rows; means are derived from them, never summed. */
export interface MetricTotals {
  decisions: number;
  droppedTokens: number;
  offeredTools: number;
  selectedTools: number;
  reinstatements: number;
  emptyPaletteWarnings: number;
  stageErrors: number;
  harmfulDrops: number;
}

export const ZERO_TOTALS: MetricTotals = {
  decisions: 0,
  droppedTokens: 0,
  offeredTools: 0,
  selectedTools: 0,
  reinstatements: 0,
  emptyPaletteWarnings: 0,
  stageErrors: 0,
  harmfulDrops: 0,
};

/** The metrics drawn as time series. */
export const SERIES_METRICS = ["droppedTokens", "reinstatements", "emptyPaletteWarnings"] as const;
export type SeriesMetric = (typeof SERIES_METRICS)[number];

/**
 * One (bucket, split key) cell of the time series. `key` is a tenant or a role; null stands
 * for "all other keys" once the number of series is capped.
 */
export interface BucketMetricRow {
  bucket: Date;
  key: string | null;
  decisions: number;
  droppedTokens: number;
  reinstatements: number;
  emptyPaletteWarnings: number;
}

/** One tenant × role line of the overview breakdown. */
export interface BreakdownRow extends MetricTotals {
  tenant: string;
  role: string;
}

/** A (tenant, role) pair that has data: the filter bar's choices. */
export interface TenantRolePair {
  tenant: string;
  role: string;
}

/** One row of the runs table, dates as ISO strings so it crosses to the client unchanged. */
export interface RunRow {
  tenantId: string;
  runId: string;
  firstSeen: string;
  lastSeen: string;
  decisions: number;
  maxIteration: number;
  roles: string[];
  modes: string[];
  droppedTokens: number;
  reinstatements: number;
  emptyPaletteWarnings: number;
  stageErrors: number;
  harmfulDrops: number;
}

/** One stored decision of a run, as the trace page reads it. */
export interface DecisionRecord {
  id: number;
  iteration: number;
  ts: string;
  role: string;
  mode: string;
  turnHopIndex: number;
  model: string | null;
  agent: string | null;
  forcedChoice: string | null;
  configVersion: string;
  intent: unknown;
  offered: string[];
  selected: string[];
  dropped: string[];
  droppedTokens: number;
  reinstatements: number;
  emptyPaletteWarnings: number;
  stageErrors: number;
  trace: unknown;
  warnings: unknown;
  hasOutcome: boolean;
  called: string[];
  harmfulTools: string[];
}

/** One stored tool_call_outcome of a run. */
export interface OutcomeRecord {
  iteration: number;
  ts: string;
  role: string;
  called: string[];
  error: string | null;
  joined: boolean;
}

/**
 * An LLM-call span behind a decision of mode `off` (its event id is `otel:<trace>:<span>`), as
 * the run trace joins tool runs to it.
 */
export interface CallSpanRecord {
  /** The decision derived from this span; null for the run's other calls read for the join. */
  decisionId: number | null;
  traceId: string;
  spanId: string;
  startNs: bigint;
  callIds: string[];
}

/** A tool-run span of a run (`otel_spans` kind `tool_run`). */
export interface ToolRunRecord {
  traceId: string;
  spanId: string;
  startNs: bigint;
  endNs: bigint;
  /** The tool's name; null when the span did not name it. */
  tool: string | null;
  /** The span's name, shown when it names no tool. */
  name: string;
  callId: string | null;
  /** The status message when the span ended in error ("" when it gave none); null otherwise. */
  error: string | null;
}
