/**
 * The selection pipeline: runs an ordered list of stages over the offered tools and records
 * what each one decided.
 */
import { ForcedToolUnavailable } from "./errors";
import { resolveMessages } from "./messages";
import { isStageOutcome, type StageAction, type StageOutcome, type StageRecord } from "./outcome";
import type { SelectionStage, StageContext } from "./stage";
import { namesOf, readToolName } from "./tools";
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

/** The names of `tools` not present in `others`, compared by identity. */
function namesMissingFrom(tools: readonly Tool[], others: ReadonlySet<Tool>): string[] {
  return namesOf(tools.filter((tool) => !others.has(tool)));
}

/** What applying one stage's outcome to the candidates amounted to. */
interface AppliedOutcome {
  action: StageAction;
  detail: string;
}

/** One `select` call: the candidates, the forced choice, the trace and warnings so far. */
class SelectionRun<T extends Tool> {
  readonly inputNames: ReadonlySet<string>;
  readonly trace: StageRecord[] = [];
  readonly warnings: SelectionWarning[] = [];
  candidates: T[];
  forcedChoice: string | null = null;
  private readonly offered: ReadonlySet<Tool>;
  private readonly state: SelectionState;
  private readonly messages: readonly unknown[];
  /** Names removed by a stage that does not protect the forced tool (and not added back). */
  private readonly removedByHardStage = new Set<string>();
  private reinstatementWarned = false;

  constructor(
    readonly inputTools: readonly T[],
    private readonly context: SelectionContext,
  ) {
    this.inputNames = new Set(namesOf(inputTools));
    this.offered = new Set<Tool>(inputTools);
    this.state = context.state ?? {};
    this.messages = resolveMessages(context);
    this.candidates = [...inputTools];
  }

  /** Runs one stage and records it; a stage that fails is contained and recorded as "error". */
  async runStage(stage: SelectionStage): Promise<void> {
    const before = new Set<Tool>(this.candidates);
    let outcome: StageOutcome;
    try {
      outcome = await this.ask(stage);
    } catch (error) {
      this.recordError(stage, describeError(error));
      return;
    }
    const { action, detail } = this.applyOutcome(stage, outcome);
    const after = new Set<Tool>(this.candidates);
    const dropped = namesMissingFrom([...before], after);
    const added = namesMissingFrom(this.candidates, before);
    this.trackHardRemovals(stage, dropped, added);
    const reinstated = this.reinstateForced(stage, after);
    this.trace.push({
      stage: stage.name,
      action,
      kept: namesOf([...before].filter((tool) => after.has(tool))),
      dropped,
      added,
      reinstated,
      forcedChoice: this.forcedChoice,
      detail,
      degraded: outcome.degraded === true,
    });
  }

  /** Throws when the forced tool was never offered or a non-protecting stage removed it. */
  assertForcedAvailable(): void {
    const forced = this.forcedChoice;
    if (forced === null) return;
    if (!this.inputNames.has(forced)) {
      throw new ForcedToolUnavailable(
        forced,
        "not_offered",
        `forced tool ${forced} is not among the ${this.inputNames.size} offered tools`,
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

  /** The stage's answer for the current candidates; throws when it is not a StageOutcome. */
  private async ask(stage: SelectionStage): Promise<StageOutcome> {
    const ctx: StageContext = {
      state: this.state,
      messages: this.messages,
      role: this.context.role ?? "",
      query: this.context.query ?? "",
      inputTools: this.inputTools,
      forcedChoice: this.forcedChoice,
    };
    const answer: unknown = await stage.apply([...this.candidates], ctx);
    if (!isStageOutcome(answer)) throw new TypeError("apply did not return a StageOutcome");
    return answer;
  }

  private recordError(stage: SelectionStage, detail: string): void {
    this.warnings.push({ code: "stage_error", stage: stage.name, detail });
    this.trace.push({
      stage: stage.name,
      action: "error",
      kept: namesOf(this.candidates),
      dropped: [],
      added: [],
      reinstated: [],
      forcedChoice: this.forcedChoice,
      detail,
      degraded: true,
    });
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
      const chosen = new Set<Tool>(outcome.tools);
      const ignored = outcome.tools.filter((tool) => !this.offered.has(tool)).length;
      if (ignored > 0) detail += ` (ignored ${ignored} tool(s) that were not offered)`;
      this.candidates = this.inputTools.filter((tool) => chosen.has(tool));
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
  private reinstateForced(stage: SelectionStage, after: ReadonlySet<Tool>): string[] {
    const forced = this.forcedChoice;
    if (
      forced === null ||
      !this.inputNames.has(forced) ||
      this.removedByHardStage.has(forced) ||
      this.candidates.some((tool) => readToolName(tool) === forced)
    ) {
      return [];
    }
    this.candidates = this.inputTools.filter(
      (tool) => after.has(tool) || readToolName(tool) === forced,
    );
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
    const run = new SelectionRun<T>([...tools], context);
    for (const stage of this.stages) await run.runStage(stage);
    run.assertForcedAvailable();
    return run.result();
  }
}
