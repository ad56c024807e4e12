/**
 * Shapes the tools queries return and the pure preparation functions consume. They live here so
 * the preparation code and its tests never import the database.
 */

/** Per-tool totals of the tools page (from `tool_rollup_hour`). */
export interface ToolUsageRow {
  tool: string;
  offered: number;
  selected: number;
  dropped: number;
  called: number;
  harmfulDrops: number;
  /** Estimated tokens saved by dropping this tool (its share of each decision's estimate). */
  droppedTokens: number;
}
