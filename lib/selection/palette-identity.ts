/** A stable key for one resolved palette, used to spot identical bindings across turns. */

/** Orders strings by Unicode code point (not UTF-16 unit), as a Python agent would sort. */
export function compareCodePoints(left: string, right: string): number {
  const a = Array.from(left, (char) => char.codePointAt(0) ?? 0);
  const b = Array.from(right, (char) => char.codePointAt(0) ?? 0);
  const shared = Math.min(a.length, b.length);
  for (let index = 0; index < shared; index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}

/**
 * `"*"` for no palette (null: the full, unnarrowed tool list); otherwise the distinct names
 * sorted and joined with U+0000. Order-insensitive, because a resolver that ranks returns one
 * set in many orders. A forced choice is part of the identity (`key + "\u0001!" + forced`):
 * the same tools with and without a required choice are different bindings.
 */
export function paletteIdentity(
  names: Iterable<string> | null,
  forced: string | null = null,
): string {
  const key = names === null ? "*" : [...new Set(names)].sort(compareCodePoints).join("\u0000");
  return forced === null || forced === undefined ? key : `${key}\u0001!${forced}`;
}
