/** The one shape every selection stage has. */
import type { StageOutcome } from "./outcome";
import type { SelectionState, Tool } from "./types";

/** What a stage knows when it runs. Built fresh by the pipeline for every stage. */
export interface StageContext {
  /** The caller's live state object (the same object, never a copy). */
  readonly state: SelectionState;
  /** The resolved transcript: `context.messages` if non-empty, else `state.messages`. */
  readonly messages: readonly unknown[];
  readonly role: string;
  readonly query: string;
  /** The tools the pipeline was given, before any stage ran, in input order. */
  readonly inputTools: readonly Tool[];
  /** The forced choice an earlier stage resolved, or null. */
  readonly forcedChoice: string | null;
}

/**
 * One narrowing (or re-adding) lever in the pipeline.
 *
 * `apply` receives the current candidates and returns a `StageOutcome`. Returned tools must come
 * from `ctx.inputTools`; anything else is ignored, because the core never authors tools.
 *
 * `protectsForced` says whether the pipeline puts a forced tool back when this stage drops it.
 * Stages expressing a preference (palettes, policy ceilings) set it; a hard filter that must be
 * able to remove a forced tool does not.
 */
export interface SelectionStage {
  readonly name: string;
  readonly protectsForced: boolean;
  apply(tools: readonly Tool[], ctx: StageContext): StageOutcome | Promise<StageOutcome>;
}
