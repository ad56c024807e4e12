/**
 * Replays one recorded decision through a routing config's pipeline in enforce mode (SPEC §10).
 * Pure: no I/O. The job prepares one `ConfigReplayer` per config for the whole backtest and
 * hands it every decision of the window.
 *
 * What the replay takes from the recorded decision, and what it cannot:
 * - the offered names, as tool objects carrying the config's catalogue metadata (one object
 *   per name for the whole job);
 * - the role, and the forced choice as recorded (after any release the transcript caused:
 *   the transcript itself is not recorded, so the replay forces exactly what was forced);
 * - the intent verdict as recorded (label and matched tools): the message text is not
 *   recorded, so new trigger keywords cannot match anything new (`recorded-intent-verdict`);
 * - lazy routing's names are resolved per turn by the agent: the names the recorded trace shows
 *   lazy routing kept, when it selected (`recorded-lazy-names`), else it abstains;
 * - a role palette that came back empty in the recorded decision (the agent's resolver had no
 *   palette for that context, e.g. a workspace) stays empty where the config maps the role
 *   (`recorded-empty-palette`): the context it depended on is not recorded.
 */
import {
  ContractViolationError,
  configVersion,
  type IntentVerdict,
  namesOf,
  type PreparedRouting,
  prepareRouting,
  type RoutingConfig,
  type SelectionState,
  type SelectionWarning,
  type StageRecord,
  staticRolePaletteResolver,
  type Tool,
  type ToolPaletteResolver,
} from "@/lib/selection";
import type { BacktestNote } from "./types";

/** One recorded decision, as the job reads it from `decisions` (joined with its outcome). */
export interface RecordedDecision {
  /** The row id: with `ts`, the job's keyset position. */
  id: number;
  ts: Date;
  runId: string;
  iteration: number;
  role: string;
  mode: string;
  /** The recorded config's version ('' when the agent sent none). */
  configVersion: string;
  turnHopIndex: number;
  offered: readonly string[];
  selected: readonly string[];
  forcedChoice: string | null;
  /** The recorded verdict, as stored: `{ label, matched_tool_keywords }` or null. */
  intent: unknown;
  /**
   * The stored (compact) stage trace: tool names may be positions in `offered`. Either parsed,
   * or its JSON text (the job's reader), parsed only when it holds what the replay reads.
   */
  trace: unknown;
  /** Whether the decision's tool_call_outcome has been joined. */
  hasOutcome: boolean;
  called: readonly string[];
  /** Recorded warning counts. */
  reinstatements: number;
  emptyPaletteWarnings: number;
  stageErrors: number;
}

/** What one config would have done with one decision. */
export interface ReplayedArm {
  /** The names it binds, in offered order. */
  bound: readonly string[];
  emptyPalette: boolean;
  reinstated: boolean;
  stageError: boolean;
  /** The forced tool could not be offered: the model call would fail (nothing is bound). */
  forcedUnavailable: boolean;
}

/** One decision replayed stage by stage, for the run trace. */
export interface ReplayedTrace {
  bound: string[];
  forcedChoice: string | null;
  trace: StageRecord[];
  warnings: SelectionWarning[];
  /** The error's message when the forced tool could not be offered (the call would fail). */
  forcedUnavailable: string | null;
  /** What the replay took from the record. */
  inputs: RecordedInputs;
}

/** What the recorded inputs of one decision could tell. */
export interface RecordedInputs {
  verdict: IntentVerdict | null;
  /** Names lazy routing kept in the recorded decision, when it selected; null otherwise. */
  lazyNames: string[] | null;
  /** The recorded trace has no lazy-routing stage at all (another pipeline, or none). */
  noLazyStage: boolean;
  /** The recorded role palette came back empty (`empty_palette` at `role_palette`). */
  emptyPalette: boolean;
  /** The stored trace was not a list of stage records. */
  unreadableTrace: boolean;
}

const RECORDED_EMPTY_PALETTE = Symbol("recorded empty palette");

type ReplayState = SelectionState & { [RECORDED_EMPTY_PALETTE]?: true };

function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === "string" && item.length > 0);
}

/** The recorded verdict as the intent stage takes it, or null when none was recorded. */
export function readRecordedVerdict(intent: unknown): IntentVerdict | null {
  if (intent === null || typeof intent !== "object" || Array.isArray(intent)) return null;
  const record = intent as Record<string, unknown>;
  if (typeof record.label !== "string" || record.label.length === 0) return null;
  return { label: record.label, matchedToolKeywords: stringList(record.matched_tool_keywords) };
}

function storedNames(list: unknown, offered: readonly string[]): string[] {
  if (!Array.isArray(list)) return [];
  const names: string[] = [];
  for (const item of list) {
    const name = typeof item === "number" ? offered[item] : item;
    if (typeof name === "string" && name.length > 0) names.push(name);
  }
  return names;
}

/**
 * The texts that tell, in a stored trace, whether the replay must read it. Stored traces are
 * written by `JSON.stringify` with `stage` then `action` first, so these appear literally when
 * present; a lazy-routing record written another way is read in full. The job's reader applies
 * the same rule in SQL (`lib/db/queries/backtest-job.ts`), so that PostgreSQL sends only the
 * traces the replay reads.
 */
export const TRACE_TEXTS = {
  degraded: '"degraded":true',
  lazyStage: '"lazy_routing"',
  lazyRecord: '"stage":"lazy_routing","action":"',
  lazySelect: '"stage":"lazy_routing","action":"select"',
} as const;

/**
 * What stands in for a trace the replay need not read: a lazy-routing stage that did not
 * select, or no lazy-routing stage at all. Each reads exactly as any trace it stands for.
 */
export const UNREAD_TRACE = {
  lazyStage: '[{"stage":"lazy_routing","action":"abstain"}]',
  noLazyStage: "[]",
} as const;

/** Whether a trace's text holds something the replay reads: lazy routing selecting, or a degraded stage. */
export function traceNeedsReading(text: string): boolean {
  if (text.includes(TRACE_TEXTS.degraded) || text.includes(TRACE_TEXTS.lazySelect)) return true;
  return text.includes(TRACE_TEXTS.lazyStage) && !text.includes(TRACE_TEXTS.lazyRecord);
}

/**
 * A stored trace, parsed when its text holds something the replay reads. Unparsed, it tells
 * only whether it has a lazy-routing stage (which did not select).
 */
function storedTrace(trace: unknown): {
  records: unknown;
  parsed: boolean;
  lazyStage: boolean;
} {
  if (typeof trace !== "string") return { records: trace, parsed: true, lazyStage: false };
  if (!trace.startsWith("[")) return { records: null, parsed: true, lazyStage: false };
  if (!traceNeedsReading(trace)) {
    return { records: [], parsed: false, lazyStage: trace.includes(TRACE_TEXTS.lazyStage) };
  }
  try {
    return { records: JSON.parse(trace), parsed: true, lazyStage: false };
  } catch {
    return { records: null, parsed: true, lazyStage: false };
  }
}

/** Reads what the recorded decision tells about its per-turn inputs. */
export function readRecordedInputs(decision: RecordedDecision): RecordedInputs {
  const verdict = readRecordedVerdict(decision.intent);
  const stored = storedTrace(decision.trace);
  const records = stored.records;
  if (!stored.parsed) {
    return {
      verdict,
      lazyNames: null,
      noLazyStage: !stored.lazyStage,
      emptyPalette: false,
      unreadableTrace: false,
    };
  }
  if (!Array.isArray(records)) {
    return {
      verdict,
      lazyNames: null,
      noLazyStage: false,
      emptyPalette: decision.emptyPaletteWarnings > 0,
      unreadableTrace: true,
    };
  }
  let lazyNames: string[] | null = null;
  let lazyStage = false;
  let emptyPalette = false;
  for (const record of records as unknown[]) {
    if (record === null || typeof record !== "object") continue;
    const r = record as Record<string, unknown>;
    if (r.stage === "lazy_routing") {
      lazyStage = true;
      if (r.action === "select") lazyNames = storedNames(r.kept, decision.offered);
    } else if (r.stage === "role_palette" && r.action === "abstain" && r.degraded === true) {
      emptyPalette = true;
    }
  }
  return { verdict, lazyNames, noLazyStage: !lazyStage, emptyPalette, unreadableTrace: false };
}

/** Most distinct trace texts `RecordedInputsReader` remembers; emptied when full. */
const MAX_REMEMBERED_TRACES = 2_000;

/**
 * `readRecordedInputs` for a whole window, remembering its answers. Recorded traffic repeats
 * the same trace (its names are positions in the offered list), offered list and intent over
 * and over, and the answer depends on nothing else; lists and intents are shared objects when
 * they come from the job's reader, so they key the memory by identity. The answer may be shared
 * with other decisions: do not change it.
 */
export class RecordedInputsReader {
  private readonly byTrace = new Map<
    string,
    WeakMap<readonly string[], WeakMap<object, RecordedInputs>>
  >();

  read(decision: RecordedDecision): RecordedInputs {
    const { trace, offered } = decision;
    if (typeof trace !== "string") return readRecordedInputs(decision);
    let byOffered = this.byTrace.get(trace);
    if (!byOffered) {
      if (this.byTrace.size >= MAX_REMEMBERED_TRACES) this.byTrace.clear();
      byOffered = new WeakMap();
      this.byTrace.set(trace, byOffered);
    }
    let byIntent = byOffered.get(offered);
    if (!byIntent) {
      byIntent = new WeakMap();
      byOffered.set(offered, byIntent);
    }
    const intentKey = isObject(decision.intent) ? decision.intent : NO_INTENT;
    let inputs = byIntent.get(intentKey);
    if (!inputs) {
      inputs = readRecordedInputs(decision);
      // An intent that is not an object reads as no verdict, whatever it is.
      byIntent.set(intentKey, inputs);
    }
    return inputs;
  }
}

const NO_INTENT = {};

function isObject(value: unknown): value is object {
  return value !== null && typeof value === "object";
}

/**
 * A config's palette resolver that keeps a recorded empty palette: where the config would
 * narrow the role, a decision whose recorded palette came back empty gets [] again (the
 * palette stage then abstains with its `empty_palette` warning, as recorded).
 */
function keepingRecordedEmptyPalette(config: RoutingConfig): ToolPaletteResolver {
  const resolver = config.paletteResolver ?? staticRolePaletteResolver(config.roleTools ?? {});
  return {
    resolve(state, role, allTools) {
      const answer = resolver.resolve(state, role, allTools);
      if ((state as ReplayState)[RECORDED_EMPTY_PALETTE] !== true) return answer;
      const empty = (palette: readonly Tool[] | null | undefined) =>
        palette === null || palette === undefined ? palette : [];
      return answer instanceof Promise ? answer.then(empty) : empty(answer);
    },
  };
}

/** Catalogue metadata copied onto the replayed tool objects. */
const METADATA_KEYS = [
  "description",
  "visibility",
  "costUsd",
  "safetyLevel",
  "requiredCapability",
  "category",
] as const;

/**
 * Replays kept per config: recorded traffic repeats the same inputs (the same offered tools,
 * role, verdict, lazy names and forced tool) over and over, and the pipeline is a pure function
 * of them for a config written as data. Bounded: emptied when full.
 */
const MAX_MEMOIZED_REPLAYS = 5_000;

/** Replays decisions through one config. Build one per config per backtest. */
export class ConfigReplayer {
  /** `configVersion` of the config as given (not of the replay's wrapped resolver). */
  readonly configVersion: string;
  /** Prepared once per backtest; the per-turn pipelines come from it. */
  private readonly prepared: PreparedRouting;
  private readonly config: RoutingConfig;
  private readonly tools = new Map<string, Tool>();
  private readonly forcedKey: string;
  /** Names with trigger keywords in this config: their intent match depends on the text. */
  readonly keywordTools: ReadonlySet<string>;
  private readonly memo = new Map<string, ReplayedArm>();
  /**
   * The same answers found without building `memo`'s key: by the identity of the remembered
   * inputs (`RecordedInputsReader`) and offered list, then by role and forced tool.
   */
  private readonly memoByIdentity = new WeakMap<
    RecordedInputs,
    WeakMap<readonly string[], Map<string, ReplayedArm>>
  >();
  /** The memo key's part for an offered list (lists are shared between decisions). */
  private readonly offeredKeys = new WeakMap<readonly string[], string>();
  /** Replays answered from `memo`, and all replays: how repetitive the traffic was. */
  memoHits = 0;
  replays = 0;

  constructor(config: RoutingConfig) {
    this.config = config;
    this.configVersion = configVersion(config);
    this.prepared = prepareRouting({
      ...config,
      paletteResolver: keepingRecordedEmptyPalette(config),
    });
    this.forcedKey = config.forcedChoiceStateKey ?? "forced_tool_choice";
    this.keywordTools = new Set(
      Object.entries(config.triggerKeywords ?? {})
        .filter(([, words]) => words.length > 0)
        .map(([name]) => name),
    );
  }

  /** The tool object for `name`: one per name, with this config's catalogue metadata. */
  toolFor(name: string): Tool {
    let tool = this.tools.get(name);
    if (!tool) {
      const entry = this.config.catalog?.get(name) ?? null;
      const made: Record<string, unknown> = { name };
      if (entry) for (const key of METADATA_KEYS) made[key] = entry[key];
      tool = made;
      this.tools.set(name, tool);
    }
    return tool;
  }

  /**
   * What this config would bind for `decision`, given what its recorded inputs tell. The
   * answer may be shared with other decisions of the same inputs: do not change it.
   */
  replay(decision: RecordedDecision, inputs: RecordedInputs): ReplayedArm | Promise<ReplayedArm> {
    this.replays++;
    let byOffered = this.memoByIdentity.get(inputs);
    if (!byOffered) {
      byOffered = new WeakMap();
      this.memoByIdentity.set(inputs, byOffered);
    }
    let byTurn = byOffered.get(decision.offered);
    if (!byTurn) {
      byTurn = new Map();
      byOffered.set(decision.offered, byTurn);
    }
    // Roles cannot hold NUL (PostgreSQL text cannot store it), so the key is unambiguous.
    const turnKey =
      decision.forcedChoice === null
        ? decision.role
        : `${decision.role}\u0000${decision.forcedChoice}`;
    const remembered = byTurn.get(turnKey);
    if (remembered) {
      this.memoHits++;
      return remembered;
    }
    return this.replayByKey(decision, inputs).then((arm) => {
      byTurn.set(turnKey, arm);
      return arm;
    });
  }

  private async replayByKey(
    decision: RecordedDecision,
    inputs: RecordedInputs,
  ): Promise<ReplayedArm> {
    const verdict = inputs.verdict;
    let offeredKey = this.offeredKeys.get(decision.offered);
    if (offeredKey === undefined) {
      offeredKey = decision.offered.join("\u0001");
      this.offeredKeys.set(decision.offered, offeredKey);
    }
    const key = `${decision.role}\u0000${offeredKey}\u0000${verdict ? `${verdict.label}\u0002${verdict.matchedToolKeywords?.join("\u0001")}` : ""}\u0000${inputs.lazyNames?.join("\u0001") ?? "\u0003"}\u0000${decision.forcedChoice ?? ""}\u0000${inputs.emptyPalette}`;
    const known = this.memo.get(key);
    if (known) {
      this.memoHits++;
      return known;
    }
    const arm = await this.select(decision, inputs);
    if (this.memo.size >= MAX_MEMOIZED_REPLAYS) this.memo.clear();
    this.memo.set(key, arm);
    return arm;
  }

  /**
   * The whole replay of one decision, stage by stage (not memoized): the stage records, the
   * warnings and the names bound; `forcedUnavailable` carries the error's message instead when
   * the forced tool could not be offered.
   */
  async replayTrace(decision: RecordedDecision): Promise<ReplayedTrace> {
    const inputs = readRecordedInputs(decision);
    try {
      const result = await this.run(decision, inputs);
      return {
        bound: namesOf(result.tools),
        forcedChoice: result.forcedChoice,
        trace: result.trace,
        warnings: result.warnings,
        forcedUnavailable: null,
        inputs,
      };
    } catch (error) {
      if (!(error instanceof ContractViolationError)) throw error;
      return {
        bound: [],
        forcedChoice: decision.forcedChoice,
        trace: [],
        warnings: [],
        forcedUnavailable: error.message,
        inputs,
      };
    }
  }

  private run(decision: RecordedDecision, inputs: RecordedInputs) {
    const tools = decision.offered.map((name) => this.toolFor(name));
    const state: ReplayState = {};
    if (decision.forcedChoice) state[this.forcedKey] = decision.forcedChoice;
    if (inputs.emptyPalette) state[RECORDED_EMPTY_PALETTE] = true;
    const pipeline = this.prepared.pipeline({
      verdict: inputs.verdict,
      allowedNames: inputs.lazyNames,
    });
    return pipeline.select(tools, { state, messages: [], role: decision.role });
  }

  private async select(decision: RecordedDecision, inputs: RecordedInputs): Promise<ReplayedArm> {
    try {
      const result = await this.run(decision, inputs);
      const bound: string[] = [];
      for (const tool of result.tools) bound.push((tool as { name: string }).name);
      const arm: ReplayedArm = {
        bound,
        emptyPalette: false,
        reinstated: false,
        stageError: false,
        forcedUnavailable: false,
      };
      for (const warning of result.warnings) {
        if (warning.code === "empty_palette") arm.emptyPalette = true;
        else if (warning.code === "forced_reinstated") arm.reinstated = true;
        else if (warning.code === "stage_error") arm.stageError = true;
      }
      return arm;
    } catch (error) {
      if (!(error instanceof ContractViolationError)) throw error;
      return {
        bound: [],
        emptyPalette: false,
        reinstated: false,
        stageError: false,
        forcedUnavailable: true,
      };
    }
  }

  /** Whether this config's palette narrows `role` (so a recorded empty palette is kept). */
  mapsRole(role: string): boolean {
    if (this.config.paletteResolver) return true;
    return this.config.roleTools?.[role] != null;
  }
}

/** The notes a decision's replay through `replayer` earns (see `BACKTEST_NOTES`). */
export function notesFor(
  decision: RecordedDecision,
  inputs: RecordedInputs,
  replayer: ConfigReplayer,
): BacktestNote[] {
  const notes: BacktestNote[] = [];
  if (!decision.hasOutcome) notes.push("no-outcome");
  const label = inputs.verdict?.label;
  if (
    label !== undefined &&
    label !== "knowledge" &&
    label !== "ambiguous" &&
    decision.offered.some((name) => replayer.keywordTools.has(name))
  ) {
    notes.push("recorded-intent-verdict");
  }
  if (inputs.unreadableTrace) notes.push("unreadable-trace");
  else if (inputs.lazyNames !== null) notes.push("recorded-lazy-names");
  else if (inputs.noLazyStage) notes.push("lazy-names-unknown");
  if (inputs.emptyPalette && replayer.mapsRole(decision.role)) {
    notes.push("recorded-empty-palette");
  }
  if (decision.mode === "enforce") notes.push("enforce-calls-bounded");
  return notes;
}
