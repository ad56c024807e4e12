/**
 * The context tax (SPEC §8): per tool, how often it was in front of the model, how often the
 * model called it, what one offer costs in tokens (an estimate) and what the offers the model
 * did not use cost; the headline an operator shows to argue for routing; the totals per day,
 * tenant and role; the hint when LLM calls carried no tool list. Pure: the rows come from
 * `lib/db/queries/context-tax.ts`.
 */
import type { CsvColumn } from "@/lib/dashboard/csv";
import { formatCompact, formatCount } from "@/lib/dashboard/format";
import { compareCodeUnits } from "@/lib/text-order";
import type { ContextTaxDayRow, ContextTaxRow, ContextTaxTenantToolRow } from "./types";

/** Where a tool's tokens-per-offer estimate comes from. */
export type TokenEstimateSource =
  /** The size of its definition as seen in OpenTelemetry spans (ceil(JSON length / 4)). */
  | "definition"
  /** The dropped-token estimate routed agents recorded per drop of it. */
  | "dropped"
  /** Definitions for some tenants' offers, recorded drops for the others. */
  | "mixed"
  /** Neither: no estimate. */
  | "none";

export interface ContextTaxLine {
  tool: string;
  offers: number;
  calls: number;
  /** calls / offers; null when never offered. */
  callRate: number | null;
  unusedOffers: number;
  /** Estimated tokens of one offer (mean over the offers with an estimate); null: unknown. */
  tokensPerOffer: number | null;
  source: TokenEstimateSource;
  /** Estimated tokens spent on the offers the model did not use; null: unknown. */
  unusedTokens: number | null;
  /** Estimated tokens of all its offers (0 when unknown). */
  offeredTokens: number;
  neverCalled: boolean;
}

/** Adds up the tenants' sums per tool (most tools first by unused tokens, then by name). */
export function sumContextTaxPerTool(
  rows: readonly Pick<
    ContextTaxTenantToolRow,
    "tenant" | "tool" | "offers" | "calls" | "unusedOffers" | "definitionTokens" | "tokens"
  >[],
): ContextTaxRow[] {
  const byTool = new Map<string, ContextTaxRow>();
  for (const row of rows) {
    const line = byTool.get(row.tool) ?? {
      tool: row.tool,
      offers: 0,
      calls: 0,
      unusedOffers: 0,
      estimatedOffers: 0,
      definitionOffers: 0,
      offeredTokens: 0,
      unusedTokens: 0,
    };
    line.offers += row.offers;
    line.calls += row.calls;
    line.unusedOffers += row.unusedOffers;
    if (row.tokens !== null) {
      line.estimatedOffers += row.offers;
      line.offeredTokens += row.offers * row.tokens;
      line.unusedTokens += row.unusedOffers * row.tokens;
    }
    if (row.definitionTokens !== null) line.definitionOffers += row.offers;
    byTool.set(row.tool, line);
  }
  return [...byTool.values()];
}

function sourceOf(row: ContextTaxRow): TokenEstimateSource {
  if (row.estimatedOffers === 0) return "none";
  if (row.definitionOffers === row.estimatedOffers) return "definition";
  return row.definitionOffers === 0 ? "dropped" : "mixed";
}

/**
 * The costliest never-called tools first: tools offered and never called, then the others,
 * each by estimated tokens of unused offers (unknown last), then by offers, then by name.
 */
export function compareContextTax(a: ContextTaxLine, b: ContextTaxLine): number {
  if (a.neverCalled !== b.neverCalled) return a.neverCalled ? -1 : 1;
  const tokens = (b.unusedTokens ?? -1) - (a.unusedTokens ?? -1);
  return tokens || b.offers - a.offers || compareCodeUnits(a.tool, b.tool);
}

/** Rates, estimates and order of the per-tool rows. */
export function prepareContextTaxLines(rows: readonly ContextTaxRow[]): ContextTaxLine[] {
  return rows
    .map((row): ContextTaxLine => {
      const source = sourceOf(row);
      const known = source !== "none";
      return {
        tool: row.tool,
        offers: row.offers,
        calls: row.calls,
        callRate: row.offers > 0 ? row.calls / row.offers : null,
        unusedOffers: row.unusedOffers,
        tokensPerOffer: known ? row.offeredTokens / row.estimatedOffers : null,
        source,
        unusedTokens: known ? row.unusedTokens : null,
        offeredTokens: known ? row.offeredTokens : 0,
        neverCalled: row.offers > 0 && row.calls === 0,
      };
    })
    .sort(compareContextTax);
}

export interface ContextTaxSummary {
  /** The sentence an operator shows: what unused offers cost over the window. */
  headline: string;
  /** The sentence after it: how many tools were never called, and what the figures are. */
  detail: string;
  unusedTokens: number;
  offeredTokens: number;
  /** unusedTokens / offeredTokens; null when no offer has an estimate. */
  share: number | null;
  tools: number;
  neverCalledTools: number;
}

/** A token count for a sentence: exact below 10,000, compact ("1.2M") from there. */
export function formatTokens(value: number): string {
  const rounded = Math.round(value);
  return rounded >= 10_000 ? formatCompact(rounded) : formatCount(rounded);
}

/** A share as a whole percent, or with one decimal below 10 % ("38%", "4.2%", "<0.1%"). */
export function formatShare(share: number): string {
  const percent = share * 100;
  if (percent > 0 && percent < 0.1) return "<0.1%";
  return `${percent < 10 ? percent.toFixed(1).replace(/\.0$/, "") : Math.round(percent)}%`;
}

/**
 * The headline of the tools page: "Offering tools the model did not call cost an estimated
 * 1.2M tokens over the last 7 days, 38% of the 3.1M tokens spent offering tools." `window`
 * names the range ("over the last 7 days").
 */
export function summarizeContextTax(
  lines: readonly ContextTaxLine[],
  window: string,
): ContextTaxSummary {
  const unusedTokens = lines.reduce((sum, line) => sum + (line.unusedTokens ?? 0), 0);
  const offeredTokens = lines.reduce((sum, line) => sum + line.offeredTokens, 0);
  const offered = lines.filter((line) => line.offers > 0);
  const neverCalledTools = lines.filter((line) => line.neverCalled).length;
  const share = offeredTokens > 0 ? unusedTokens / offeredTokens : null;
  const unknown = lines.filter((line) => line.offers > 0 && line.source === "none").length;
  let headline: string;
  if (offered.length === 0) {
    headline = `No tool was offered to a model ${window}.`;
  } else if (share === null) {
    headline = `No offered tool has a size estimate ${window}: send LLM-call spans with their tool definitions to see what offering them costs.`;
  } else {
    headline = `Offering tools the model did not call cost an estimated ${formatTokens(unusedTokens)} tokens ${window}, ${formatShare(share)} of the ${formatTokens(offeredTokens)} tokens spent offering tools.`;
  }
  const parts: string[] = [];
  if (offered.length > 0) {
    parts.push(
      `${formatCount(neverCalledTools)} of ${formatCount(offered.length)} offered tools were never called.`,
    );
  }
  if (unknown > 0) {
    parts.push(
      `${formatCount(unknown)} ${unknown === 1 ? "tool has" : "tools have"} no size estimate and ${unknown === 1 ? "is" : "are"} not counted.`,
    );
  }
  return {
    headline,
    detail: parts.join(" "),
    unusedTokens,
    offeredTokens,
    share,
    tools: offered.length,
    neverCalledTools,
  };
}

/** How a window reads in the headline: "over the last 7 days". */
export function describeTaxWindow(range: { preset: string; label: string }): string {
  return range.preset === "custom" ? "in this range" : `over the ${range.label.toLowerCase()}`;
}

export interface ContextTaxDayLine extends ContextTaxDayRow {
  /** The UTC day, `YYYY-MM-DD`. */
  dayLabel: string;
  /** unusedTokens / offeredTokens; null when no offer has an estimate. */
  share: number | null;
}

/** The daily totals, newest day first, then tenant and role A→Z. */
export function prepareContextTaxDays(rows: readonly ContextTaxDayRow[]): ContextTaxDayLine[] {
  return rows
    .map((row) => ({
      ...row,
      dayLabel: row.day.toISOString().slice(0, 10),
      share: row.offeredTokens > 0 ? row.unusedTokens / row.offeredTokens : null,
    }))
    .sort(
      (a, b) =>
        b.day.getTime() - a.day.getTime() ||
        compareCodeUnits(a.tenant, b.tenant) ||
        compareCodeUnits(a.role, b.role),
    );
}

/**
 * The hint when LLM calls carried no tool list: their offers cannot be counted until tool
 * recording is on. `text` reads "3 LLM calls carried no tool list — tool recording is off
 * (Vercel AI SDK: recordInputs: false)"; `lead` and `setting` are its parts, for markup. Null
 * when every call carried one.
 */
export function describeMissingToolLists(
  calls: number,
): { lead: string; setting: string; text: string } | null {
  if (calls <= 0) return null;
  const lead = `${formatCount(calls)} LLM ${calls === 1 ? "call" : "calls"} carried no tool list — tool recording is off`;
  const setting = "recordInputs: false";
  return { lead, setting, text: `${lead} (Vercel AI SDK: ${setting})` };
}

const SOURCE_LABELS: Record<TokenEstimateSource, string> = {
  definition: "definition size",
  dropped: "recorded dropped tokens",
  mixed: "definition size and recorded dropped tokens",
  none: "",
};

/** How a tool's estimate is labelled in the table and the CSV. */
export const describeEstimateSource = (source: TokenEstimateSource): string =>
  SOURCE_LABELS[source];

const round = (value: number | null) => (value === null ? "" : Math.round(value));

export const contextTaxCsvColumns: CsvColumn<ContextTaxLine>[] = [
  { header: "tool", value: (line) => line.tool },
  { header: "offers", value: (line) => line.offers },
  { header: "calls", value: (line) => line.calls },
  {
    header: "call_rate",
    value: (line) => (line.callRate === null ? "" : Number(line.callRate.toFixed(6))),
  },
  { header: "unused_offers", value: (line) => line.unusedOffers },
  { header: "estimated_tokens_per_offer", value: (line) => round(line.tokensPerOffer) },
  { header: "estimate_source", value: (line) => describeEstimateSource(line.source) },
  { header: "estimated_tokens_unused_offers", value: (line) => round(line.unusedTokens) },
];
