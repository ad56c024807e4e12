/** Role palette: narrow to the tools a resolver allows for the active role. */
import { andThen, type MaybePromise } from "../maybe-async";
import { StageOutcome } from "../outcome";
import type { SelectionStage, StageContext } from "../stage";
import { filterByNames, readToolName } from "../tools";
import type { SelectionState, Tool } from "../types";

/**
 * Decides the tool palette for a role, per iteration. Returns a subset of `allTools` (the same
 * objects), or null for "no policy". Returning [] is a misconfiguration: the stage abstains and
 * warns rather than hand the model zero tools. May be async; may read `state` freely.
 */
export interface ToolPaletteResolver {
  resolve(
    state: SelectionState,
    role: string,
    allTools: readonly Tool[],
  ): readonly Tool[] | null | undefined | Promise<readonly Tool[] | null | undefined>;
}

/**
 * The default resolver: a static `{ role: toolNames }` map. An unmapped role, or one mapped to
 * null, gets null (no policy). A mapped role gets the offered tools whose names are listed, in offered order, plus
 * unnamed tools (a name-keyed rule cannot gate them) — or [] when no listed name is offered.
 */
export function staticRolePaletteResolver(
  roleTools: Readonly<Record<string, readonly string[] | null>>,
): ToolPaletteResolver {
  const palettes = new Map<string, ReadonlySet<string>>();
  for (const [role, names] of Object.entries(roleTools)) {
    if (names != null) palettes.set(role, new Set(names));
  }
  return {
    resolve(_state, role, allTools) {
      const names = palettes.get(role);
      if (names === undefined) return null;
      const listed = allTools.some((tool) => {
        const name = readToolName(tool);
        return name !== null && names.has(name);
      });
      return listed ? filterByNames(allTools, names) : [];
    },
  };
}

export interface RolePaletteStageOptions {
  readonly resolver?: ToolPaletteResolver | null;
  /** The role to resolve for; defaults to the selection context's role. */
  readonly role?: string;
}

/**
 * Three answers, three meanings: null abstains (no policy); a non-empty list narrows to the
 * offered tools it contains (it can never widen: tools that were not offered are ignored);
 * [] (or a list of which nothing was offered) abstains with an `empty_palette` warning.
 */
export class RolePaletteStage implements SelectionStage {
  readonly name = "role_palette";
  readonly protectsForced = true;
  private readonly resolver: ToolPaletteResolver | null;
  private readonly role: string | null;

  constructor(options: RolePaletteStageOptions = {}) {
    this.resolver = options.resolver ?? null;
    this.role = options.role ? options.role : null;
  }

  apply(tools: readonly Tool[], ctx: StageContext): MaybePromise<StageOutcome> {
    if (this.resolver === null) return StageOutcome.abstain("no palette resolver");
    const role = this.role ?? ctx.role;
    return andThen(this.resolver.resolve(ctx.state, role, tools), (palette) =>
      this.decide(tools, role, palette),
    );
  }

  private decide(
    tools: readonly Tool[],
    role: string,
    palette: readonly Tool[] | null | undefined,
  ): StageOutcome {
    if (palette === null || palette === undefined) {
      return StageOutcome.abstain(`no palette for role "${role}"`);
    }
    if (palette.length === 0) {
      return StageOutcome.abstain(`empty palette for role "${role}": keeping the candidates`, {
        degraded: true,
        warning: "empty_palette",
      });
    }

    const returned = new Set<Tool>(palette);
    const offered = new Set<Tool>(tools);
    const kept = tools.filter((tool) => returned.has(tool));
    const ignored = palette.filter((tool) => !offered.has(tool)).length;
    if (kept.length === 0) {
      return StageOutcome.abstain(
        `palette for role "${role}" contains none of the offered tools: keeping the candidates`,
        { degraded: true, warning: "empty_palette" },
      );
    }
    const note = ignored > 0 ? `; ignored ${ignored} tool(s) that were not offered` : "";
    return StageOutcome.select(kept, `palette for role "${role}"${note}`);
  }
}
