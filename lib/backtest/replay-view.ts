/**
 * One recorded decision beside its replay with a backtest's candidate, as the run trace shows
 * them (pure). The replay's stage records and warnings are written in the stored form and
 * prepared by the run trace's own `prepareRunTrace`, so both stage tables read the same way;
 * a called tool the candidate would not bind is flagged as a harmful drop of the replay.
 */
import { type IterationView, prepareRunTrace } from "@/lib/dashboard/trace";
import type { DecisionRecord, OutcomeRecord } from "@/lib/dashboard/types";
import {
  type SelectionWarning,
  type StageRecord,
  toWireRecord,
  toWireWarning,
} from "@/lib/selection";

/** What the candidate did with the decision. */
export interface ReplayedDecision {
  /** The names it binds, in offered order (empty when the forced tool was unavailable). */
  bound: readonly string[];
  trace: readonly StageRecord[];
  warnings: readonly SelectionWarning[];
  /** Why the model call would fail (the forced tool could not be offered), or null. */
  failure: string | null;
}

export interface ReplayComparison {
  recorded: IterationView;
  replayed: IterationView;
  /** Called tools the candidate would not bind (the replay's harmful drops). */
  lost: string[];
  /** Called tools the recorded selection did not bind. */
  recordedLost: string[];
  failure: string | null;
}

/** The recorded decision and its replay, each prepared like an iteration of the run trace. */
export function compareReplay(
  decision: DecisionRecord,
  outcomes: readonly OutcomeRecord[],
  replay: ReplayedDecision,
  candidateVersion: string,
): ReplayComparison {
  const bound = new Set(replay.bound);
  const offered = new Set(decision.offered);
  const count = (code: SelectionWarning["code"]) =>
    replay.warnings.some((warning) => warning.code === code) ? 1 : 0;
  const lost = decision.hasOutcome
    ? [...new Set(decision.called)].filter((name) => offered.has(name) && !bound.has(name))
    : [];
  const replayedDecision: DecisionRecord = {
    ...decision,
    mode: "enforce",
    configVersion: candidateVersion,
    selected: [...replay.bound],
    dropped: decision.offered.filter((name) => !bound.has(name)),
    trace: replay.trace.map(toWireRecord),
    warnings: replay.warnings.map(toWireWarning),
    reinstatements: count("forced_reinstated"),
    emptyPaletteWarnings: count("empty_palette"),
    stageErrors: count("stage_error"),
    harmfulTools: lost,
  };
  const [recorded] = prepareRunTrace([decision], outcomes);
  const [replayed] = prepareRunTrace([replayedDecision], outcomes);
  if (!recorded || !replayed) throw new Error("a decision prepares into one iteration");
  const selected = new Set(decision.selected);
  const recordedLost = decision.hasOutcome
    ? [...new Set(decision.called)].filter((name) => offered.has(name) && !selected.has(name))
    : [];
  return { recorded, replayed, lost, recordedLost, failure: replay.failure };
}
