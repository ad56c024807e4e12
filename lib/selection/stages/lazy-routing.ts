/** Lazy (procedural) routing: narrow to the tool names the turn's router resolved. */
import { StageOutcome } from "../outcome";
import type { SelectionStage } from "../stage";
import { filterByNames, readToolName } from "../tools";
import type { Tool } from "../types";

export interface LazyRoutingStageOptions {
  /** The names routing resolved for this turn; null or undefined means no routing ran. */
  readonly allowedNames?: readonly string[] | null;
}

/**
 * Keeps the candidates whose names routing allowed (unnamed tools stay). Abstains when no
 * routing ran, and also when routing matched none of the candidates: a router that matched
 * nothing has said nothing about what the model may call, so it must not empty the palette.
 */
export class LazyRoutingStage implements SelectionStage {
  readonly name = "lazy_routing";
  readonly protectsForced = true;
  private readonly allowedNames: ReadonlySet<string> | null;

  constructor(options: LazyRoutingStageOptions = {}) {
    this.allowedNames = options.allowedNames == null ? null : new Set(options.allowedNames);
  }

  apply(tools: readonly Tool[]): StageOutcome {
    const allowed = this.allowedNames;
    if (allowed === null) return StageOutcome.abstain("no routing resolved for this turn");

    const matched = tools.filter((tool) => {
      const name = readToolName(tool);
      return name !== null && allowed.has(name);
    });
    if (matched.length === 0) {
      return StageOutcome.abstain("routing matched none of the offered tools");
    }
    return StageOutcome.select(
      filterByNames(tools, allowed),
      `routing allowed ${allowed.size} name(s)`,
    );
  }
}
