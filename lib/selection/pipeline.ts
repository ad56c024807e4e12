/**
 * The selection pipeline: runs an ordered list of stages over the offered tools and records
 * what each one decided.
 */
import { ForcedToolUnavailable } from "./errors";
import { isPromiseLike } from "./maybe-async";
import { resolveMessages } from "./messages";
import { isStageOutcome, type StageAction, type StageOutcome, type StageRecord } from "./outcome";
import type { SelectionStage, StageContext } from "./stage";
import { readToolName } from "./tools";
import type { SelectionContext, SelectionState, SelectionWarning, Tool } from "./types";

/** The tools to bind, the choice to force, and why. */
export interface SelectionResult<T extends Tool> {
  /** A subset of the input tools: the same objects, in input order. */
  readonly tools: T[];
  readonly forcedChoice: string | null;
  readonly trace: StageRecord[];
  readonly warnings: SelectionWarning[];
}

export interface SelectionPipelineOptions {
  /** A hash of the configuration the stages were built from (see `configVersion`). */
  readonly configVersion?: string | null;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** What applying one stage's outcome to the candidates amounted to. */
interface AppliedOutcome {
  action: StageAction;
  detail: string;
}

/**
 * One `select` call: the candidates, the forced choice, the trace and warnings so far.
 *
 * The candidates are always input tools in input order, so they are kept as one flag per input
 * position (`member`), and names are read once per input tool. A tool object given twice is
 * one candidate (both positions move together), named once in `kept` and `dropped`.
 */
class SelectionRun<T extends Tool> {
  readonly trace: StageRecord[] = [];
  readonly warnings: SelectionWarning[] = [];
  forcedChoice: string | null = null;
  /** The current candidates, rebuilt from `member` whenever a stage changes them. */
  private candidates: T[];
  /** Whether the input tool at each position is a candidate. */
  private member: boolean[];
  private readonly names: readonly (string | null)[];
  /** The first position of each input tool object (equal to its own position when first). */
  private readonly firstPosition: number[];
  private readonly positionOf = new Map<Tool, number>();
  private readonly state: SelectionState;
  private readonly messages: readonly unknown[];
  /** Names removed by a stage that does not protect the forced tool (and not added back). */
  private readonly removedByHardStage = new Set<string>();
  private reinstatementWarned = false;

  constructor(
    readonly inputTools: readonly T[],
    private readonly context: SelectionContext,
  ) {
    const count = inputTools.length;
    const names: (string | null)[] = [];
    const firstPosition: number[] = [];
    const member: boolean[] = [];
    for (let i = 0; i < count; i++) {
      const tool = inputTools[i] as T;
      names.push(readToolName(tool));
      const first = this.positionOf.get(tool);
      if (first === undefined) this.positionOf.set(tool, i);
      firstPosition.push(first ?? i);
      member.push(true);
    }
    this.names = names;
    this.firstPosition = firstPosition;
    this.member = member;
    this.state = context.state ?? {};
    this.messages = resolveMessages(context);
    // Never modified in place: a stage that changes the candidates makes a new list.
    this.candidates = inputTools as T[];
  }

  /** Whether some input tool has this name. */
  private isOffered(name: string): boolean {
    return this.names.includes(name);
  }

  /**
   * Runs one stage and records it; a stage that fails is contained and recorded as "error".
   * Returns a promise only when the stage answered with one, so a pipeline of synchronous
   * stages runs without waiting between them.
   */
  runStage(stage: SelectionStage): Promise<void> | undefined {
    let answer: unknown;
    try {
      answer = stage.apply([...this.candidates], this.stageContext());
    } catch (error) {
      this.recordError(stage, describeError(error));
      return undefined;
    }
    if (!isPromiseLike(answer)) {
      this.record(stage, answer);
      return undefined;
    }
    return Promise.resolve(answer).then(
      (settled) => this.record(stage, settled),
      (error: unknown) => this.recordError(stage, describeError(error)),
    );
  }

  /** Throws when the forced tool was never offered or a non-protecting stage removed it. */
  assertForcedAvailable(): void {
    const forced = this.forcedChoice;
    if (forced === null) return;
    if (!this.isOffered(forced)) {
      const offered = new Set(this.names.filter((name) => name !== null)).size;
      throw new ForcedToolUnavailable(
        forced,
        "not_offered",
        `forced tool ${forced} is not among the ${offered} offered tools`,
      );
    }
    if (this.removedByHardStage.has(forced)) {
      throw new ForcedToolUnavailable(
        forced,
        "dropped",
        `forced tool ${forced} was removed by a stage that does not protect it`,
      );
    }
  }

  result(): SelectionResult<T> {
    return {
      tools: this.candidates,
      forcedChoice: this.forcedChoice,
      trace: this.trace,
      warnings: this.warnings,
    };
  }

  private stageContext(): StageContext {
    return {
      state: this.state,
      messages: this.messages,
      role: this.context.role ?? "",
      query: this.context.query ?? "",
      inputTools: this.inputTools,
      forcedChoice: this.forcedChoice,
    };
  }

  /** Applies a stage's answer to the candidates and records what it did. */
  private record(stage: SelectionStage, answer: unknown): void {
    if (!isStageOutcome(answer)) {
      this.recordError(stage, describeError(new TypeError("apply did not return a StageOutcome")));
      return;
    }
    const before = this.member;
    const { action, detail } = this.applyOutcome(stage, answer);
    const after = this.member;
    const kept: string[] = [];
    const dropped: string[] = [];
    const added: string[] = [];
    if (after !== before) {
      for (let i = 0; i < after.length; i++) {
        const name = this.names[i] as string | null;
        if (name === null) continue;
        const first = this.firstPosition[i] === i;
        if (before[i] && after[i]) {
          if (first) kept.push(name);
        } else if (before[i]) {
          if (first) dropped.push(name);
        } else if (after[i]) {
          added.push(name);
        }
      }
    } else {
      this.collectNames(after, kept, true);
    }
    this.trackHardRemovals(stage, dropped, added);
    const reinstated = this.reinstateForced(stage);
    this.trace.push({
      stage: stage.name,
      action,
      kept,
      dropped,
      added,
      reinstated,
      forcedChoice: this.forcedChoice,
      detail,
      degraded: answer.degraded === true,
    });
  }

  /** Pushes the names of the positions set in `flags` (first positions only, when asked). */
  private collectNames(flags: readonly boolean[], into: string[], firstOnly: boolean): void {
    for (let i = 0; i < flags.length; i++) {
      const name = this.names[i] as string | null;
      if (flags[i] && name !== null && (!firstOnly || this.firstPosition[i] === i)) {
        into.push(name);
      }
    }
  }

  private recordError(stage: SelectionStage, detail: string): void {
    this.warnings.push({ code: "stage_error", stage: stage.name, detail });
    const kept: string[] = [];
    this.collectNames(this.member, kept, false);
    this.trace.push({
      stage: stage.name,
      action: "error",
      kept,
      dropped: [],
      added: [],
      reinstated: [],
      forcedChoice: this.forcedChoice,
      detail,
      degraded: true,
    });
  }

  /** Makes `member` the new candidate flags (a new array, so the old one stays comparable). */
  private setMembers(member: boolean[]): void {
    this.member = member;
    const candidates: T[] = [];
    for (let i = 0; i < member.length; i++) {
      if (member[i]) candidates.push(this.inputTools[i] as T);
    }
    this.candidates = candidates;
  }

  /** Sets the forced choice and the candidates the outcome asks for, and raises its warning. */
  private applyOutcome(stage: SelectionStage, outcome: StageOutcome): AppliedOutcome {
    let action: StageAction = "abstain";
    let detail = typeof outcome.detail === "string" ? outcome.detail : "";
    if (outcome.setsForcedChoice) {
      action = "force";
      this.forcedChoice = outcome.forcedChoice ?? null;
    }
    if (outcome.tools !== null) {
      action = "select";
      const member: boolean[] = new Array(this.inputTools.length).fill(false);
      let ignored = 0;
      for (const tool of outcome.tools) {
        const position = this.positionOf.get(tool);
        if (position === undefined) ignored += 1;
        else member[position] = true;
      }
      for (let i = 0; i < member.length; i++) {
        const first = this.firstPosition[i] as number;
        if (first !== i) member[i] = member[first] as boolean;
      }
      if (ignored > 0) detail += ` (ignored ${ignored} tool(s) that were not offered)`;
      this.setMembers(member);
    }
    if (outcome.warning) {
      this.warnings.push({ code: outcome.warning, stage: stage.name, detail });
    }
    return { action, detail };
  }

  private trackHardRemovals(stage: SelectionStage, dropped: string[], added: string[]): void {
    for (const name of added) this.removedByHardStage.delete(name);
    if (!stage.protectsForced) for (const name of dropped) this.removedByHardStage.add(name);
  }

  /**
   * The protection rule: a forced tool missing after the stage, that no non-protecting stage
   * removed, is put back in input order. Returns the names put back.
   */
  private reinstateForced(stage: SelectionStage): string[] {
    const forced = this.forcedChoice;
    if (
      forced === null ||
      !this.isOffered(forced) ||
      this.removedByHardStage.has(forced) ||
      this.names.some((name, i) => name === forced && this.member[i])
    ) {
      return [];
    }
    const member = this.member.slice();
    for (let i = 0; i < member.length; i++) if (this.names[i] === forced) member[i] = true;
    this.setMembers(member);
    this.warnReinstatedOnce(stage, forced);
    return [forced];
  }

  /** One `forced_reinstated` warning per `select` call, naming the first stage it followed. */
  private warnReinstatedOnce(stage: SelectionStage, forced: string): void {
    if (this.reinstatementWarned) return;
    this.reinstatementWarned = true;
    this.warnings.push({
      code: "forced_reinstated",
      stage: stage.name,
      detail: `forced tool ${forced} was not offered after ${stage.name}; put back`,
    });
  }
}

/**
 * Runs `stages` in order. Guarantees:
 * - every list it returns is a subset of the input tools, same objects, input order;
 * - a stage that throws (or returns something that is not a StageOutcome) is contained:
 *   recorded as "error", degraded, treated as abstain, with a `stage_error` warning;
 * - protection rule: when the forced tool is missing after a stage and no stage with
 *   `protectsForced === false` removed it, it is put back (in input order), recorded under
 *   that stage's `reinstated`, with one `forced_reinstated` warning per `select` call. The
 *   usual case is a protecting stage dropping it; the rule also covers a tool narrowed away
 *   before the force was resolved;
 * - a forced tool that is not among the input tools, or that a non-protecting stage removed,
 *   raises `ForcedToolUnavailable` before `select` returns.
 */
export class SelectionPipeline {
  readonly stages: readonly SelectionStage[];
  readonly configVersion: string | null;

  constructor(stages: readonly SelectionStage[], options: SelectionPipelineOptions = {}) {
    this.stages = [...stages];
    this.configVersion = options.configVersion ?? null;
  }

  async select<T extends Tool>(
    tools: readonly T[],
    context: SelectionContext = {},
  ): Promise<SelectionResult<T>> {
    const run = new SelectionRun<T>(tools.slice(), context);
    for (const stage of this.stages) {
      const pending = run.runStage(stage);
      if (pending !== undefined) await pending;
    }
    run.assertForcedAvailable();
    return run.result();
  }
}
