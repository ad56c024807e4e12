/** The token estimate behind the `dropped_tokens` and `tool_tokens` fields of a routing decision. */
import { codePointLength, readToolDescription, readToolName } from "./tools";

/**
 * A rough count of the tokens one tool's definition costs in the prompt:
 * floor((length of description + length of name) / 4), a missing value counting as "".
 * Schemas are ignored, so this is a floor rather than a ceiling.
 */
export function estimateToolTokens(tool: unknown): number {
  const characters =
    codePointLength(readToolDescription(tool)) + codePointLength(readToolName(tool) ?? "");
  return Math.floor(characters / 4);
}

/** A rough count of the tokens saved by not offering `dropped`: the sum of their estimates. */
export function estimateDroppedTokens(dropped: readonly unknown[]): number {
  let total = 0;
  for (const tool of dropped) total += estimateToolTokens(tool);
  return total;
}
