/**
 * KPI tiles of the overview: each total of the current period beside its change against the
 * previous period of equal length.
 */
import {
  formatCompact,
  formatCount,
  formatDecimal,
  formatSignedCount,
  formatSignedPercent,
} from "./format";
import type { MetricTotals } from "./types";

export type Trend = "up" | "down" | "flat";
/** How a rise should read: "bad" for warnings and errors, "neutral" for volumes. */
export type Sentiment = "neutral" | "bad";

export interface Change {
  /** What changed, when a tile shows more than one change (e.g. "offered"). */
  label?: string;
  absolute: number;
  /** Fraction of the previous value; null when the previous value was 0. */
  relative: number | null;
  trend: Trend;
  /** e.g. "+12 (+4.0%)", "+3 (new)", "no change". */
  text: string;
}

export interface KpiTile {
  id: string;
  label: string;
  /** The headline value, formatted to fit the tile on one line. */
  display: string;
  /** The headline value in full, shown on hover. */
  exact: string;
  /** The exact value(s), for tests and titles. */
  values: number[];
  previousDisplay: string;
  changes: Change[];
  sentiment: Sentiment;
}

/** Change from `previous` to `current`; `decimals` > 0 for means. */
export function compareValues(current: number, previous: number, decimals = 0): Change {
  const absolute = current - previous;
  const relative = previous === 0 ? null : absolute / Math.abs(previous);
  const epsilon = decimals > 0 ? 0.5 * 10 ** -decimals : 0;
  const trend: Trend = Math.abs(absolute) <= epsilon ? "flat" : absolute > 0 ? "up" : "down";
  let text: string;
  if (trend === "flat") text = "no change";
  else {
    const amount =
      decimals > 0
        ? `${absolute > 0 ? "+" : "−"}${formatDecimal(Math.abs(absolute), decimals)}`
        : formatSignedCount(absolute);
    text = relative === null ? `${amount} (new)` : `${amount} (${formatSignedPercent(relative)})`;
  }
  return { absolute, relative, trend, text };
}

/** Mean per decision, 0 when there were no decisions. */
export function meanPerDecision(sum: number, decisions: number): number {
  return decisions > 0 ? sum / decisions : 0;
}

/** Counts from this size on are shown compactly on a tile. */
export const TILE_COMPACT_FROM = 1_000_000;

/** A tile's count: exact below a million ("987,654"), compact from there ("70.3M"). */
export function formatTileCount(value: number): string {
  return Math.abs(value) >= TILE_COMPACT_FROM ? formatCompact(value) : formatCount(value);
}

function countTile(
  id: string,
  label: string,
  current: number,
  previous: number,
  sentiment: Sentiment,
): KpiTile {
  return {
    id,
    label,
    display: formatTileCount(current),
    exact: formatCount(current),
    values: [current],
    previousDisplay: formatCount(previous),
    changes: [compareValues(current, previous)],
    sentiment,
  };
}

/** The overview's tiles, in display order. */
export function prepareKpiTiles(current: MetricTotals, previous: MetricTotals): KpiTile[] {
  const offered = meanPerDecision(current.offeredTools, current.decisions);
  const selected = meanPerDecision(current.selectedTools, current.decisions);
  const previousOffered = meanPerDecision(previous.offeredTools, previous.decisions);
  const previousSelected = meanPerDecision(previous.selectedTools, previous.decisions);
  return [
    countTile("decisions", "Decisions", current.decisions, previous.decisions, "neutral"),
    countTile(
      "dropped-tokens",
      "Est. dropped tokens",
      current.droppedTokens,
      previous.droppedTokens,
      "neutral",
    ),
    {
      id: "tools",
      label: "Mean tools offered → selected",
      display: `${formatDecimal(offered, 1)} → ${formatDecimal(selected, 1)}`,
      exact: `${formatDecimal(offered, 1)} → ${formatDecimal(selected, 1)}`,
      values: [offered, selected],
      previousDisplay: `${formatDecimal(previousOffered, 1)} → ${formatDecimal(previousSelected, 1)}`,
      changes: [
        { ...compareValues(offered, previousOffered, 1), label: "offered" },
        { ...compareValues(selected, previousSelected, 1), label: "selected" },
      ],
      sentiment: "neutral",
    },
    countTile(
      "reinstatements",
      "Forced-tool reinstatements",
      current.reinstatements,
      previous.reinstatements,
      "bad",
    ),
    countTile(
      "empty-palette",
      "Empty-palette warnings",
      current.emptyPaletteWarnings,
      previous.emptyPaletteWarnings,
      "bad",
    ),
    countTile("stage-errors", "Stage errors", current.stageErrors, previous.stageErrors, "bad"),
    countTile("harmful-drops", "Harmful drops", current.harmfulDrops, previous.harmfulDrops, "bad"),
  ];
}
