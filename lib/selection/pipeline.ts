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
    const inputTools: readonly T[] = [...tools];
    const inputNames = new Set(namesOf(inputTools));
    const offered = new Set<Tool>(inputTools);
    const state: SelectionState = context.state ?? {};
    const messages = resolveMessages(context);
    const trace: StageRecord[] = [];
    const warnings: SelectionWarning[] = [];
    const removedByHardStage = new Set<string>();
    let candidates: T[] = [...inputTools];
    let forcedChoice: string | null = null;
    let reinstatementWarned = false;

    for (const stage of this.stages) {
      const before = new Set<Tool>(candidates);
      const ctx: StageContext = {
        state,
        messages,
        role: context.role ?? "",
        query: context.query ?? "",
        inputTools,
        forcedChoice,
      };

      let outcome: StageOutcome;
      try {
        const answer: unknown = await stage.apply([...candidates], ctx);
        if (!isStageOutcome(answer)) throw new TypeError("apply did not return a StageOutcome");
        outcome = answer;
      } catch (error) {
        const detail = describeError(error);
        warnings.push({ code: "stage_error", stage: stage.name, detail });
        trace.push({
          stage: stage.name,
          action: "error",
          kept: namesOf(candidates),
          dropped: [],
          added: [],
          reinstated: [],
          forcedChoice,
          detail,
          degraded: true,
        });
        continue;
      }

      let action: StageAction = "abstain";
      let detail = typeof outcome.detail === "string" ? outcome.detail : "";
      if (outcome.setsForcedChoice) {
        action = "force";
        forcedChoice = outcome.forcedChoice ?? null;
      }
      if (outcome.tools !== null) {
        action = "select";
        const chosen = new Set<Tool>(outcome.tools);
        const next = inputTools.filter((tool) => chosen.has(tool));
        const ignored = outcome.tools.filter((tool) => !offered.has(tool)).length;
        if (ignored > 0) detail += ` (ignored ${ignored} tool(s) that were not offered)`;
        candidates = next;
      }
      if (outcome.warning) {
        warnings.push({ code: outcome.warning, stage: stage.name, detail });
      }

      const after = new Set<Tool>(candidates);
      const dropped = namesMissingFrom([...before], after);
      const added = namesMissingFrom(candidates, before);
      for (const name of added) removedByHardStage.delete(name);
      if (!stage.protectsForced) for (const name of dropped) removedByHardStage.add(name);

      const reinstated: string[] = [];
      if (
        forcedChoice !== null &&
        inputNames.has(forcedChoice) &&
        !removedByHardStage.has(forcedChoice) &&
        !candidates.some((tool) => readToolName(tool) === forcedChoice)
      ) {
        const forced = forcedChoice;
        candidates = inputTools.filter((tool) => after.has(tool) || readToolName(tool) === forced);
        reinstated.push(forced);
        if (!reinstatementWarned) {
          reinstatementWarned = true;
          warnings.push({
            code: "forced_reinstated",
            stage: stage.name,
            detail: `forced tool ${forced} was not offered after ${stage.name}; put back`,
          });
        }
      }

      trace.push({
        stage: stage.name,
        action,
        kept: namesOf([...before].filter((tool) => after.has(tool))),
        dropped,
        added,
        reinstated,
        forcedChoice,
        detail,
        degraded: outcome.degraded === true,
      });
    }

    if (forcedChoice !== null) {
      if (!inputNames.has(forcedChoice)) {
        throw new ForcedToolUnavailable(
          forcedChoice,
          "not_offered",
          `forced tool ${forcedChoice} is not among the ${inputNames.size} offered tools`,
        );
      }
      if (removedByHardStage.has(forcedChoice)) {
        throw new ForcedToolUnavailable(
          forcedChoice,
          "dropped",
          `forced tool ${forcedChoice} was removed by a stage that does not protect it`,
        );
      }
    }

    return { tools: candidates, forcedChoice, trace, warnings };
  }
}
