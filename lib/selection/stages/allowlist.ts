/** Allowlist: put back mandated tools that an earlier stage dropped. */
import type { ToolCatalog } from "../catalog";
import { StageOutcome } from "../outcome";
import type { SelectionStage, StageContext } from "../stage";
import { namesOf, readToolName } from "../tools";
import type { Tool } from "../types";

export interface AllowlistStageOptions {
  /** Names that must be offered whenever they exist. */
  readonly alwaysInclude?: readonly string[];
  /** When given, a mandated name must also be in the catalogue to be re-added. */
  readonly catalog?: ToolCatalog | null;
}

/**
 * Re-adds mandated tools missing from the candidates, taking them from the pipeline's input
 * tools. A name the catalogue does not know, or that no input tool has, is ignored rather
 * than fabricated: the core constrains the choice set, it never authors tools.
 */
export class AllowlistStage implements SelectionStage {
  readonly name = "allowlist";
  readonly protectsForced = true;
  private readonly alwaysInclude: readonly string[];
  private readonly catalog: ToolCatalog | null;

  constructor(options: AllowlistStageOptions = {}) {
    this.alwaysInclude = (options.alwaysInclude ?? []).filter((name) => name.length > 0);
    this.catalog = options.catalog ?? null;
  }

  apply(tools: readonly Tool[], ctx: StageContext): StageOutcome {
    if (this.alwaysInclude.length === 0) return StageOutcome.abstain("no mandated tools");

    const present = new Set(namesOf(tools));
    const readded: Tool[] = [];
    const ignored: string[] = [];
    for (const name of new Set(this.alwaysInclude)) {
      if (present.has(name)) continue;
      const found = ctx.inputTools.filter((tool) => readToolName(tool) === name);
      if ((this.catalog !== null && !this.catalog.has(name)) || found.length === 0) {
        ignored.push(name);
      } else {
        readded.push(...found);
      }
    }

    const parts = [
      readded.length > 0 ? `re-added ${namesOf(readded).join(", ")}` : "nothing to re-add",
    ];
    if (ignored.length > 0) parts.push(`ignored, no such tool: ${ignored.join(", ")}`);
    return StageOutcome.select([...tools, ...readded], parts.join("; "));
  }
}
