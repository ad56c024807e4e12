/**
 * A list of tool names as one string that identifies it: its length, then the names joined by
 * U+0000, which stored text never holds (the length tells `[]` from `[""]`). Cheaper to build
 * than the list's JSON, which only a list to add or find needs. The key of a list for this
 * process's memory of stored lists (after its tenant, palettes.ts), for the per-tool rollups
 * (rollups.ts), and for the decisions of a checked batch that share one list (batch-check.ts).
 */
export const listKey = (tools: readonly string[]) => `${tools.length}\u0000${tools.join("\u0000")}`;
