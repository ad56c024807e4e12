/**
 * The tool catalogue: one reading of the tool registry, and the one place tool metadata is
 * derived. Metadata fields are optional and read structurally from each tool object.
 */
import { readToolDescription, readToolName } from "./tools";
import type { Tool } from "./types";

/** What the catalogue knows about one tool. */
export interface CatalogEntry {
  readonly name: string;
  readonly description: string;
  /** "agent" (offered to the model; the default when absent) or e.g. "hidden". */
  readonly visibility: string;
  /** Cost per call in US dollars, or null when unknown. */
  readonly costUsd: number | null;
  /** "read", "write", "destructive", a numeric rank, or null when undeclared. */
  readonly safetyLevel: string | number | null;
  /** A capability the deployment must have for this tool to be usable. */
  readonly requiredCapability: string | null;
  readonly category: string | null;
}

function readField(tool: Tool, key: string): unknown {
  return (tool as Record<string, unknown>)[key];
}

function readOptionalString(tool: Tool, key: string): string | null {
  const value = readField(tool, key);
  return typeof value === "string" && value.length > 0 ? value : null;
}

function readEntry(tool: Tool, name: string): CatalogEntry {
  const cost = readField(tool, "costUsd");
  const safety = readField(tool, "safetyLevel");
  return {
    name,
    description: readToolDescription(tool),
    visibility: readOptionalString(tool, "visibility") ?? "agent",
    costUsd: typeof cost === "number" && Number.isFinite(cost) ? cost : null,
    safetyLevel:
      (typeof safety === "string" && safety.length > 0) ||
      (typeof safety === "number" && Number.isFinite(safety))
        ? safety
        : null,
    requiredCapability: readOptionalString(tool, "requiredCapability"),
    category: readOptionalString(tool, "category"),
  };
}

export class ToolCatalog {
  private readonly byName = new Map<string, CatalogEntry>();

  /**
   * Reads every named tool in `tools`. Tools without a name are not catalogued; when two tools
   * share a name, the first one is the catalogue's entry.
   */
  constructor(tools: readonly Tool[] = []) {
    for (const tool of tools) {
      const name = readToolName(tool);
      if (name !== null && !this.byName.has(name)) this.byName.set(name, readEntry(tool, name));
    }
  }

  get size(): number {
    return this.byName.size;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The entry for `name`, or null when the catalogue has never heard of it. */
  get(name: string): CatalogEntry | null {
    return this.byName.get(name) ?? null;
  }

  /** The entry for a tool, looked up by its name; null for unnamed or unknown tools. */
  lookup(tool: unknown): CatalogEntry | null {
    const name = readToolName(tool);
    return name === null ? null : this.get(name);
  }

  /** Every entry, in registry order. */
  entries(): CatalogEntry[] {
    return [...this.byName.values()];
  }

  /** The catalogue's content, so it can be part of a configuration hash. */
  toJSON(): CatalogEntry[] {
    return this.entries();
  }
}
