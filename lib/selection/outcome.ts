/** One stage's answer (`StageOutcome`) and what the trace records about it (`StageRecord`). */
import type { SelectionWarningCode, Tool } from "./types";

export interface AbstainOptions {
  /** The stage could not apply its policy and fell back to abstaining. */
  readonly degraded?: boolean;
  /** A warning the pipeline should raise for this abstention, e.g. "empty_palette". */
  readonly warning?: SelectionWarningCode;
}

/**
 * `tools === null` means abstain: "no policy here, leave the candidates alone". An empty list
 * means "policy applied and nothing survived". The two are never collapsed.
 */
export class StageOutcome {
  private constructor(
    readonly tools: readonly Tool[] | null,
    readonly forcedChoice: string | null,
    readonly setsForcedChoice: boolean,
    readonly degraded: boolean,
    readonly detail: string,
    readonly warning: SelectionWarningCode | null,
  ) {}

  /** Leave the candidate set unchanged. */
  static abstain(detail = "", options: AbstainOptions = {}): StageOutcome {
    return new StageOutcome(
      null,
      null,
      false,
      options.degraded ?? false,
      detail,
      options.warning ?? null,
    );
  }

  /** Replace the candidate set with `tools` (a subset of the offered tools). */
  static select(tools: readonly Tool[], detail = ""): StageOutcome {
    return new StageOutcome([...tools], null, false, false, detail, null);
  }

  /** Set (or, with null, clear) the forced tool choice without touching the candidates. */
  static force(
    choice: string | null,
    detail = "",
    options: { readonly degraded?: boolean } = {},
  ): StageOutcome {
    return new StageOutcome(null, choice, true, options.degraded ?? false, detail, null);
  }
}

export type StageAction = "abstain" | "select" | "force" | "error";

/**
 * What one stage did, in tool names, for the decision trace. After the stage, the candidates
 * are exactly `kept` + `added` + `reinstated`; `dropped` is what the stage itself removed.
 */
export interface StageRecord {
  readonly stage: string;
  readonly action: StageAction;
  readonly kept: readonly string[];
  readonly dropped: readonly string[];
  readonly added: readonly string[];
  /** Forced tools the pipeline put back after this stage (the protection rule). */
  readonly reinstated: readonly string[];
  /** The forced choice in effect after this stage. */
  readonly forcedChoice: string | null;
  readonly detail: string;
  readonly degraded: boolean;
}

/** Structural check, so a stage built against another copy of this module still counts. */
export function isStageOutcome(value: unknown): value is StageOutcome {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<Record<keyof StageOutcome, unknown>>;
  return (
    (candidate.tools === null || Array.isArray(candidate.tools)) &&
    typeof candidate.setsForcedChoice === "boolean"
  );
}
