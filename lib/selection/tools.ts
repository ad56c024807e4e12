/** Structural readers for tools and tool lists, shared by every stage. */
import type { Tool } from "./types";

/** The tool's name, or null when it has none (missing, not a string, or empty). */
export function readToolName(tool: unknown): string | null {
  if (typeof tool !== "object" || tool === null) return null;
  const name: unknown = (tool as { name?: unknown }).name;
  return typeof name === "string" && name.length > 0 ? name : null;
}

/** The tool's description, or "" when it has none. */
export function readToolDescription(tool: unknown): string {
  if (typeof tool !== "object" || tool === null) return "";
  const description: unknown = (tool as { description?: unknown }).description;
  return typeof description === "string" ? description : "";
}

/** The names of `tools`, in order; tools without a name are skipped. */
export function namesOf(tools: readonly unknown[]): string[] {
  const names: string[] = [];
  for (const tool of tools) {
    const name = readToolName(tool);
    if (name !== null) names.push(name);
  }
  return names;
}

/**
 * The tools whose name is in `names`, in input order. Tools without a name are kept: a
 * name-keyed rule cannot gate them, so it leaves them alone.
 */
export function filterByNames<T extends Tool>(
  tools: readonly T[],
  names: ReadonlySet<string>,
): T[] {
  return tools.filter((tool) => {
    const name = readToolName(tool);
    return name === null || names.has(name);
  });
}

/** Length in Unicode code points, so counts agree with agents written in Python. */
export function codePointLength(text: string): number {
  // A character beyond U+FFFF takes two UTF-16 units; most text has none, and is counted at once.
  if (!SURROGATE.test(text)) return text.length;
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

const SURROGATE = /[\uD800-\uDFFF]/;
