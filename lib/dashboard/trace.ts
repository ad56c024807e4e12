/**
 * Preparation of a run's decision trace: per iteration, the stage waterfall (palette size after
 * each stage), each stage's kept / dropped / added / reinstated names, the warnings, and the
 * tools the model actually called with harmful drops flagged.
 *
 * The stored trace is the agent's JSON as sent. It was validated at ingest, but it is read here
 * leniently all the same: a record that cannot be read is reported, never a crashed page.
 */
import { WARNING_CODES, type WarningCode } from "@/lib/schemas/events";
import { storedStageRecordSchema, storedWarningSchema } from "@/lib/schemas/stored-trace";
import { hasAnyIssue, type IssueFlags } from "./issue-kinds";
import type { ToolRunView } from "./tool-runs";
import type { DecisionRecord, OutcomeRecord } from "./types";

export type WarningKind = WarningCode | "other";

export interface WarningView {
  code: string;
  kind: WarningKind;
  label: string;
  stage?: string;
  detail?: string;
}

export interface StageView {
  index: number;
  stage: string;
  action: string;
  detail: string;
  degraded: boolean;
  forcedChoice: string | null;
  kept: string[];
  dropped: string[];
  added: string[];
  reinstated: string[];
  sizeBefore: number;
  /** Candidates after the stage: kept + added + reinstated. */
  sizeAfter: number;
  isError: boolean;
  warnings: WarningView[];
}

export interface WaterfallStep {
  label: string;
  size: number;
  kind: "offered" | "stage" | "selected";
  /** The stage's action, for stage steps. */
  action?: string;
  /** Change against the previous step. */
  delta: number;
}

export interface CalledTool {
  name: string;
  /** Offered but dropped by the narrowing: what enforce would have broken. */
  harmful: boolean;
  /** Not among the offered tools at all. */
  notOffered: boolean;
}

export type IterationFlags = IssueFlags;

export interface IterationView
  extends Pick<
    DecisionRecord,
    | "iteration"
    | "ts"
    | "role"
    | "mode"
    | "turnHopIndex"
    | "model"
    | "agent"
    | "forcedChoice"
    | "configVersion"
    | "offered"
    | "selected"
    | "dropped"
    | "droppedTokens"
    | "harmfulTools"
  > {
  /** Unique within the run (an iteration may in principle be reported twice). */
  key: string;
  anchor: string;
  intentLabel: string | null;
  traceReadable: boolean;
  stages: StageView[];
  waterfall: WaterfallStep[];
  warnings: WarningView[];
  flags: IterationFlags;
  hasIssues: boolean;
  outcome: {
    reported: boolean;
    called: CalledTool[];
    errors: string[];
  };
  /** Tool-run spans joined to this call (decisions derived from OpenTelemetry spans). */
  toolRuns: ToolRunView[];
  /** Mode `off`: an agent that routes nothing; shown as "offered N tools, called …". */
  unrouted: boolean;
}

const WARNING_LABELS: Record<WarningCode, string> = {
  empty_palette: "Empty palette",
  forced_reinstated: "Forced tool reinstated",
  stage_error: "Stage error",
};

const isWarningCode = (code: string): code is WarningCode =>
  (WARNING_CODES as readonly string[]).includes(code);

function readWarnings(raw: unknown): WarningView[] {
  if (!Array.isArray(raw)) return [];
  const views: WarningView[] = [];
  for (const item of raw) {
    const parsed = storedWarningSchema.safeParse(item);
    if (!parsed.success) continue;
    const { code, stage, detail } = parsed.data;
    const kind: WarningKind = isWarningCode(code) ? code : "other";
    views.push({
      code,
      kind,
      label: kind === "other" ? code : WARNING_LABELS[kind],
      ...(stage !== undefined ? { stage } : {}),
      ...(detail !== undefined ? { detail } : {}),
    });
  }
  return views;
}

function readStages(
  raw: unknown,
  offeredCount: number,
  warnings: WarningView[],
): { readable: boolean; stages: StageView[] } {
  if (!Array.isArray(raw)) return { readable: false, stages: [] };
  const stages: StageView[] = [];
  let size = offeredCount;
  let readable = true;
  raw.forEach((item, index) => {
    const parsed = storedStageRecordSchema.safeParse(item);
    if (!parsed.success) {
      readable = false;
      return;
    }
    const record = parsed.data;
    const sizeAfter = record.kept.length + record.added.length + record.reinstated.length;
    stages.push({
      index,
      stage: record.stage,
      action: record.action,
      detail: record.detail,
      degraded: record.degraded,
      forcedChoice: record.forced_choice,
      kept: record.kept,
      dropped: record.dropped,
      added: record.added,
      reinstated: record.reinstated,
      sizeBefore: size,
      sizeAfter,
      isError: record.action === "error",
      warnings: warnings.filter((warning) => warning.stage === record.stage),
    });
    size = sizeAfter;
  });
  return { readable, stages };
}

/** Offered → after each stage → selected, with the change at each step. */
export function buildWaterfall(
  offeredCount: number,
  stages: readonly Pick<StageView, "stage" | "action" | "sizeAfter">[],
  selectedCount: number,
): WaterfallStep[] {
  const steps: WaterfallStep[] = [
    { label: "offered", size: offeredCount, kind: "offered", delta: 0 },
  ];
  let previous = offeredCount;
  for (const stage of stages) {
    steps.push({
      label: stage.stage,
      size: stage.sizeAfter,
      kind: "stage",
      action: stage.action,
      delta: stage.sizeAfter - previous,
    });
    previous = stage.sizeAfter;
  }
  steps.push({
    label: "selected",
    size: selectedCount,
    kind: "selected",
    delta: selectedCount - previous,
  });
  return steps;
}

/** Called tools, each flagged: a harmful drop was offered, then dropped by the narrowing. */
export function classifyCalledTools(
  called: readonly string[],
  offered: readonly string[],
  selected: readonly string[],
  storedHarmful: readonly string[],
): CalledTool[] {
  const offeredSet = new Set(offered);
  const selectedSet = new Set(selected);
  const harmfulSet = new Set(storedHarmful);
  return called.map((name) => ({
    name,
    harmful: harmfulSet.has(name) || (offeredSet.has(name) && !selectedSet.has(name)),
    notOffered: !offeredSet.has(name),
  }));
}

function readIntentLabel(intent: unknown): string | null {
  if (typeof intent !== "object" || intent === null) return null;
  const label = (intent as { label?: unknown }).label;
  return typeof label === "string" ? label : null;
}

/** Prepares one decision, with the outcomes stored for its iteration. */
export function prepareIteration(
  decision: DecisionRecord,
  outcomes: readonly OutcomeRecord[] = [],
  toolRuns: readonly ToolRunView[] = [],
): IterationView {
  const warnings = readWarnings(decision.warnings);
  const { readable, stages } = readStages(decision.trace, decision.offered.length, warnings);
  const reported = decision.hasOutcome || outcomes.length > 0;
  const calledNames = decision.hasOutcome
    ? decision.called
    : [...new Set(outcomes.flatMap((outcome) => outcome.called))];
  const called = classifyCalledTools(
    calledNames,
    decision.offered,
    decision.selected,
    decision.harmfulTools,
  );
  const harmfulTools = called.filter((tool) => tool.harmful).map((tool) => tool.name);
  const flags: IterationFlags = {
    reinstatement:
      decision.reinstatements > 0 ||
      stages.some((stage) => stage.reinstated.length > 0) ||
      warnings.some((warning) => warning.kind === "forced_reinstated"),
    emptyPalette:
      decision.emptyPaletteWarnings > 0 || warnings.some((w) => w.kind === "empty_palette"),
    stageError:
      decision.stageErrors > 0 ||
      stages.some((stage) => stage.isError) ||
      warnings.some((warning) => warning.kind === "stage_error"),
    harmfulDrop: harmfulTools.length > 0,
  };
  return {
    key: `${decision.iteration}-${decision.id}`,
    anchor: `iteration-${decision.iteration}`,
    iteration: decision.iteration,
    ts: decision.ts,
    role: decision.role,
    mode: decision.mode,
    turnHopIndex: decision.turnHopIndex,
    model: decision.model,
    agent: decision.agent,
    forcedChoice: decision.forcedChoice,
    configVersion: decision.configVersion,
    intentLabel: readIntentLabel(decision.intent),
    offered: decision.offered,
    selected: decision.selected,
    dropped: decision.dropped,
    droppedTokens: decision.droppedTokens,
    traceReadable: readable,
    stages,
    waterfall: buildWaterfall(decision.offered.length, stages, decision.selected.length),
    warnings,
    flags,
    hasIssues: hasAnyIssue(flags),
    outcome: {
      reported,
      called,
      errors: outcomes.flatMap((outcome) => (outcome.error ? [outcome.error] : [])),
    },
    harmfulTools,
    toolRuns: [...toolRuns],
    unrouted: decision.mode === "off",
  };
}

/** Prepares a page of decisions, matching outcomes by iteration. */
export function prepareRunTrace(
  decisions: readonly DecisionRecord[],
  outcomes: readonly OutcomeRecord[],
  toolRuns: ReadonlyMap<number, readonly ToolRunView[]> = new Map(),
): IterationView[] {
  const byIteration = new Map<number, OutcomeRecord[]>();
  for (const outcome of outcomes) {
    const list = byIteration.get(outcome.iteration) ?? [];
    list.push(outcome);
    byIteration.set(outcome.iteration, list);
  }
  return decisions.map((decision) =>
    prepareIteration(
      decision,
      byIteration.get(decision.iteration) ?? [],
      toolRuns.get(decision.id) ?? [],
    ),
  );
}
