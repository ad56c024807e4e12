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

/**
 * Per tool, the context tax of a window (from `tool_rollup_hour` and `tool_sizes`). An offer is
 * a decision that put the tool in front of the model: offered in observe and off, selected in
 * enforce. Token figures are estimates, per (tenant, tool): the definition's size from
 * `tool_sizes` when one was seen, otherwise the tokens recorded per drop (`dropped_tokens` /
 * `dropped`); offers with neither have no estimate.
 */
export interface ContextTaxRow {
  tool: string;
  offers: number;
  /** Reported outcomes in which the model called the tool. */
  calls: number;
  /** Offers in decisions with an outcome where the model did not call the tool. */
  unusedOffers: number;
  /** Offers with a token estimate. */
  estimatedOffers: number;
  /** Of those, offers whose estimate is the definition's size. */
  definitionOffers: number;
  /** Σ offers × tokens per offer, over the offers with an estimate. */
  offeredTokens: number;
  /** Σ unused offers × tokens per offer, over the offers with an estimate. */
  unusedTokens: number;
}

/**
 * Per tenant and tool: the context tax's sums, the estimated tokens of one offer, and the
 * usage the tools table sums per tool (`sumToolUsagePerTool`).
 */
export interface ContextTaxTenantToolRow extends Omit<ToolUsageRow, "tool" | "called"> {
  tenant: string;
  tool: string;
  offers: number;
  calls: number;
  unusedOffers: number;
  /** The definition's estimated size (`tool_sizes`); null when no definition was seen. */
  definitionTokens: number | null;
  /** The estimate used: the definition's size, else recorded dropped tokens per drop; null: none. */
  tokens: number | null;
}

/** Per UTC day, tenant and role: the context tax's totals. */
export interface ContextTaxDayRow {
  day: Date;
  tenant: string;
  role: string;
  offers: number;
  unusedOffers: number;
  offeredTokens: number;
  unusedTokens: number;
}
