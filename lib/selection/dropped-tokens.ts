/** The token estimate behind the `dropped_tokens` field of a routing decision. */
import { codePointLength, readToolDescription, readToolName } from "./tools";

/**
 * A rough count of the tokens saved by not offering `dropped`: for each tool,
 * floor((length of description + length of name) / 4), a missing value counting as "".
 * Schemas are ignored, so this is a floor rather than a ceiling.
 */
export function estimateDroppedTokens(dropped: readonly unknown[]): number {
  let total = 0;
  for (const tool of dropped) {
    const characters =
      codePointLength(readToolDescription(tool)) + codePointLength(readToolName(tool) ?? "");
    total += Math.floor(characters / 4);
  }
  return total;
}
