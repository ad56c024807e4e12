/** Intent routing: narrow the turn's tools from an intent classifier's verdict. */
import { StageOutcome } from "../outcome";
import type { SelectionStage } from "../stage";
import { filterByNames, readToolName } from "../tools";
import type { IntentVerdict, Tool } from "../types";

/** Tool names kept on every narrowed turn unless the caller says otherwise. */
export const DEFAULT_ALWAYS_INCLUDE: readonly string[] = ["hydrate_context"];

export interface IntentRoutingStageOptions {
  /** The turn's verdict; null or undefined means no verdict. */
  readonly verdict?: IntentVerdict | null;
  /**
   * Tool name → trigger keywords. A tool with no entry (or an empty one) is always kept. A Map
   * is used as it is (not copied), so one built once can serve a pipeline per turn.
   */
  readonly triggerKeywords?:
    | Readonly<Record<string, readonly string[]>>
    | ReadonlyMap<string, readonly string[]>
    | null;
  /** Names kept on every narrowed turn. Defaults to `DEFAULT_ALWAYS_INCLUDE`. */
  readonly alwaysInclude?: readonly string[];
}

/**
 * Decision matrix:
 * - no candidates, no verdict, or an "ambiguous" verdict: abstain (a noisy signal must not
 *   cost recall);
 * - "knowledge": keep only the always-include names;
 * - "action" (and any other label): keep the verdict's matched tools, every tool with no
 *   trigger keywords declared, and the always-include names.
 * Unnamed tools are always kept: a name-keyed rule cannot gate them.
 */
export class IntentRoutingStage implements SelectionStage {
  readonly name = "intent_routing";
  readonly protectsForced = true;
  private readonly verdict: IntentVerdict | null;
  private readonly triggerKeywords: ReadonlyMap<string, readonly string[]>;
  private readonly alwaysInclude: readonly string[];

  constructor(options: IntentRoutingStageOptions = {}) {
    this.verdict = options.verdict ?? null;
    const keywords = options.triggerKeywords ?? {};
    this.triggerKeywords = keywords instanceof Map ? keywords : new Map(Object.entries(keywords));
    this.alwaysInclude = (options.alwaysInclude ?? DEFAULT_ALWAYS_INCLUDE).filter(
      (name) => name.length > 0,
    );
  }

  apply(tools: readonly Tool[]): StageOutcome {
    return this.decide(tools);
  }

  /**
   * The decision matrix, synchronously. `narrowToolsForIntent` calls this too, so the matrix
   * has one implementation.
   */
  decide(tools: readonly Tool[]): StageOutcome {
    if (tools.length === 0) return StageOutcome.abstain("no candidate tools");

    const label = this.verdict?.label;
    if (this.verdict === null || label === "ambiguous") {
      return StageOutcome.abstain("no actionable verdict");
    }

    const keep = new Set(this.alwaysInclude);
    if (label === "knowledge") {
      return StageOutcome.select(filterByNames(tools, keep), "knowledge turn: always-include only");
    }

    for (const name of this.verdict.matchedToolKeywords ?? []) keep.add(name);
    for (const tool of tools) {
      const name = readToolName(tool);
      if (name !== null && (this.triggerKeywords.get(name)?.length ?? 0) === 0) keep.add(name);
    }
    return StageOutcome.select(filterByNames(tools, keep), `${label} turn: keyword intersection`);
  }
}

/** Where trigger keywords come from in the one-function form: the active domain, if any. */
export interface IntentDomain {
  readonly toolTriggerKeywords?: Readonly<Record<string, readonly string[]>> | null;
}

/**
 * The one-function form of intent routing. Same matrix as `IntentRoutingStage` (it calls the
 * stage's `decide`), with the older return convention: for no verdict or an "ambiguous" one it
 * returns every tool unchanged, and for an empty input it returns []. The result is a new array
 * of the input objects, in input order. A null domain means no trigger keywords are declared.
 */
export function narrowToolsForIntent<T extends Tool>(
  verdict: IntentVerdict | null | undefined,
  allTools: readonly T[],
  domain: IntentDomain | null | undefined,
  options: { readonly alwaysInclude?: readonly string[] } = {},
): T[] {
  const stage = new IntentRoutingStage({
    verdict: verdict ?? null,
    triggerKeywords: domain?.toolTriggerKeywords ?? null,
    alwaysInclude: options.alwaysInclude ?? DEFAULT_ALWAYS_INCLUDE,
  });
  const outcome = stage.decide(allTools);
  if (outcome.tools === null) return [...allTools];
  const selected = new Set<Tool>(outcome.tools);
  return allTools.filter((tool) => selected.has(tool));
}
