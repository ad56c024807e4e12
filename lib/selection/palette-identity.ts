/** A stable key for one resolved palette, used to spot identical bindings across turns. */

/**
 * Orders strings by Unicode code point (not UTF-16 unit), as a Python agent would sort, and as
 * PostgreSQL's C collation orders UTF-8 text. UTF-16 unit order differs only where a character
 * beyond U+FFFF (two surrogates, 0xD800–0xDFFF) meets one from U+E000 to U+FFFF.
 */
export function compareCodePoints(left: string, right: string): number {
  const shared = Math.min(left.length, right.length);
  for (let index = 0; index < shared; index += 1) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a !== b) return codePointRank(a) - codePointRank(b);
  }
  return left.length - right.length;
}

/** A UTF-16 unit's place in code point order: surrogates after U+E000–U+FFFF. */
const codePointRank = (unit: number) =>
  unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit;

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
