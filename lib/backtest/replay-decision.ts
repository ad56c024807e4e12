/**
 * One recorded decision of the run trace replayed with a backtest's candidate, stage by stage
 * (the backtest job replays the same way, through the same `ConfigReplayer`).
 */
import type { DecisionRecord } from "@/lib/dashboard/types";
import { readBacktestConfig } from "./config";
import { ConfigReplayer, type RecordedDecision } from "./replay";
import type { ReplayedDecision } from "./replay-view";

export type CandidateReplay =
  | { ok: true; version: string; decision: ReplayedDecision }
  | { ok: false; error: string };

/** The decision as the replay reads it. */
function recordedDecision(runId: string, decision: DecisionRecord): RecordedDecision {
  return {
    id: decision.id,
    ts: new Date(decision.ts),
    runId,
    iteration: decision.iteration,
    role: decision.role,
    mode: decision.mode,
    configVersion: decision.configVersion,
    turnHopIndex: decision.turnHopIndex,
    offered: decision.offered,
    selected: decision.selected,
    forcedChoice: decision.forcedChoice,
    intent: decision.intent,
    trace: decision.trace,
    hasOutcome: decision.hasOutcome,
    called: decision.called,
    reinstatements: decision.reinstatements,
    emptyPaletteWarnings: decision.emptyPaletteWarnings,
    stageErrors: decision.stageErrors,
  };
}

/** Replays `decision` of run `runId` with the candidate config stored in a backtest. */
export async function replayDecisionWithCandidate(
  candidate: unknown,
  runId: string,
  decision: DecisionRecord,
): Promise<CandidateReplay> {
  const read = readBacktestConfig(candidate);
  if (!read.ok) return { ok: false, error: read.error };
  const replayed = await new ConfigReplayer(read.config).replayTrace(
    recordedDecision(runId, decision),
  );
  return {
    ok: true,
    version: read.version,
    decision: {
      bound: replayed.bound,
      trace: replayed.trace,
      warnings: replayed.warnings,
      failure: replayed.forcedUnavailable,
    },
  };
}
