/**
 * Orders strings by UTF-16 code unit, as JavaScript's `<` does: the same order on every
 * machine whatever its locale (`localeCompare` is not), for keys, ties and stable output.
 * Where the order must match PostgreSQL's `COLLATE "C"` or a Python agent's sort beyond
 * U+FFFF, use `compareCodePoints` (lib/selection/palette-identity.ts).
 */
export const compareCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** True when two lists hold the same names in the same order (at once for the same array). */
export function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
