/** Policy: drop tools the configured ceilings forbid, reading metadata from the catalogue. */
import { type CatalogEntry, ToolCatalog } from "../catalog";
import { ContractViolationError } from "../errors";
import { StageOutcome } from "../outcome";
import type { SelectionStage, StageContext } from "../stage";
import { namesOf, readToolName } from "../tools";
import type { Tool } from "../types";

/** Named safety levels, least to most dangerous. Their ranks are 0, 1 and 2. */
export const SAFETY_LEVELS = ["read", "write", "destructive"] as const;
export type SafetyLevel = (typeof SAFETY_LEVELS)[number];

/**
 * The rank of a safety level: a named level's index in `SAFETY_LEVELS`, or a finite number
 * used as its own rank (so 1 equals "write"). Null for anything else.
 */
export function safetyRank(level: unknown): number | null {
  if (typeof level === "number") return Number.isFinite(level) ? level : null;
  if (typeof level !== "string") return null;
  const index = (SAFETY_LEVELS as readonly string[]).indexOf(level);
  return index === -1 ? null : index;
}

export interface PolicyStageOptions {
  /** Where metadata comes from. When absent, it is read from the input tools of each call. */
  readonly catalog?: ToolCatalog | null;
  /** Highest safety level allowed. A tool with no declared level is not gated by it. */
  readonly maxSafetyLevel?: SafetyLevel | number | null;
  /** Highest per-call cost allowed, in US dollars. */
  readonly budgetUsd?: number | null;
  /** Whether a tool with unknown cost passes the budget. Defaults to true. */
  readonly includeUnknownCost?: boolean;
  /** Capabilities this deployment has; a tool requiring another one is dropped. */
  readonly availableCapabilities?: Iterable<string> | null;
  /** Keep only tools whose visibility is "agent" (the default visibility). */
  readonly agentVisibleOnly?: boolean;
  /** Allowed categories; a tool with no category, or another one, is dropped. */
  readonly categories?: readonly string[] | null;
  /**
   * The most tools the stage lets through (a whole number ≥ 1), applied after the other
   * criteria: the forced tool first when it is among them, then the others in offered order.
   */
  readonly maxTools?: number | null;
}

/** The first `max` of `tools`, counting the tool named `forced` (when present) first. */
function capTools(tools: readonly Tool[], max: number, forced: string | null): Set<Tool> {
  const keep = new Set<Tool>();
  const forcedTool = forced === null ? undefined : tools.find((t) => readToolName(t) === forced);
  if (forcedTool !== undefined) keep.add(forcedTool);
  for (const tool of tools) {
    if (keep.size >= max) break;
    keep.add(tool);
  }
  return keep;
}

/**
 * Drops tools the configured policy forbids; criteria left unset are not applied, and with none
 * set the stage abstains. A tool absent from the catalogue passes every metadata criterion:
 * "the registry has never heard of this tool" is a wiring bug that must stay visible, not look
 * like a denial. `maxTools` counts every tool that passed, known to the catalogue or not.
 */
export class PolicyStage implements SelectionStage {
  readonly name = "policy";
  readonly protectsForced = true;
  private readonly catalog: ToolCatalog | null;
  private readonly maxSafetyRank: number | null;
  private readonly maxSafetyLevel: SafetyLevel | number | null;
  private readonly budgetUsd: number | null;
  private readonly includeUnknownCost: boolean;
  private readonly availableCapabilities: ReadonlySet<string> | null;
  private readonly agentVisibleOnly: boolean;
  private readonly categories: ReadonlySet<string> | null;
  private readonly maxTools: number | null;

  constructor(options: PolicyStageOptions = {}) {
    this.catalog = options.catalog ?? null;
    this.maxSafetyLevel = options.maxSafetyLevel ?? null;
    this.maxSafetyRank = this.maxSafetyLevel === null ? null : safetyRank(this.maxSafetyLevel);
    if (this.maxSafetyLevel !== null && this.maxSafetyRank === null) {
      throw new ContractViolationError(
        `maxSafetyLevel must be one of ${SAFETY_LEVELS.join(", ")} or a number, got ${String(this.maxSafetyLevel)}`,
      );
    }
    this.budgetUsd = options.budgetUsd ?? null;
    if (this.budgetUsd !== null && !Number.isFinite(this.budgetUsd)) {
      throw new ContractViolationError(`budgetUsd must be a finite number, got ${this.budgetUsd}`);
    }
    this.includeUnknownCost = options.includeUnknownCost ?? true;
    this.availableCapabilities =
      options.availableCapabilities == null ? null : new Set(options.availableCapabilities);
    this.agentVisibleOnly = options.agentVisibleOnly ?? false;
    this.categories = options.categories == null ? null : new Set(options.categories);
    this.maxTools = options.maxTools ?? null;
    if (this.maxTools !== null && !(Number.isSafeInteger(this.maxTools) && this.maxTools >= 1)) {
      throw new ContractViolationError(
        `maxTools must be a whole number of at least 1, got ${String(this.maxTools)}`,
      );
    }
  }

  private hasCriteria(): boolean {
    return (
      this.maxSafetyRank !== null ||
      this.budgetUsd !== null ||
      this.availableCapabilities !== null ||
      this.agentVisibleOnly ||
      this.categories !== null ||
      this.maxTools !== null
    );
  }

  apply(tools: readonly Tool[], ctx: StageContext): StageOutcome {
    if (!this.hasCriteria()) return StageOutcome.abstain("no policy configured");
    const catalog = this.catalog ?? new ToolCatalog(ctx.inputTools);

    const kept: Tool[] = [];
    const denials: string[] = [];
    const unknown: string[] = [];
    for (const tool of tools) {
      const entry = catalog.lookup(tool);
      if (entry === null) {
        unknown.push(readToolName(tool) ?? "(unnamed)");
        kept.push(tool);
        continue;
      }
      const reason = this.denialReason(entry);
      if (reason === null) kept.push(tool);
      else denials.push(`${entry.name} (${reason})`);
    }

    const parts = [denials.length > 0 ? `denied ${denials.join(", ")}` : "nothing denied"];
    if (unknown.length > 0) parts.push(`kept unknown to the catalogue: ${unknown.join(", ")}`);
    if (this.maxTools !== null && kept.length > this.maxTools) {
      const capped = capTools(kept, this.maxTools, ctx.forcedChoice);
      const over = kept.filter((tool) => !capped.has(tool));
      parts.push(`capped at ${this.maxTools} tools: dropped ${namesOf(over).join(", ")}`);
      return StageOutcome.select(
        kept.filter((tool) => capped.has(tool)),
        parts.join("; "),
      );
    }
    return StageOutcome.select(kept, parts.join("; "));
  }

  /** Why the policy forbids this tool, or null when it allows it. */
  private denialReason(entry: CatalogEntry): string | null {
    if (this.maxSafetyRank !== null && entry.safetyLevel !== null) {
      const rank = safetyRank(entry.safetyLevel);
      if (rank === null) return `unrecognised safety level ${String(entry.safetyLevel)}`;
      if (rank > this.maxSafetyRank) {
        return `safety ${String(entry.safetyLevel)} above ${String(this.maxSafetyLevel)}`;
      }
    }
    if (this.budgetUsd !== null) {
      if (entry.costUsd === null) {
        if (!this.includeUnknownCost) return "unknown cost";
      } else if (entry.costUsd > this.budgetUsd) {
        return `cost ${entry.costUsd} over budget ${this.budgetUsd}`;
      }
    }
    if (
      this.availableCapabilities !== null &&
      entry.requiredCapability !== null &&
      !this.availableCapabilities.has(entry.requiredCapability)
    ) {
      return `requires capability ${entry.requiredCapability}`;
    }
    if (this.agentVisibleOnly && entry.visibility !== "agent") {
      return `visibility ${entry.visibility}`;
    }
    if (
      this.categories !== null &&
      (entry.category === null || !this.categories.has(entry.category))
    ) {
      return `category ${entry.category ?? "(none)"} not allowed`;
    }
    return null;
  }
}
