/** Series colours, distinguishable in light and dark themes; "other" is always grey. */
export const SERIES_COLORS = [
  "#2563eb",
  "#d97706",
  "#059669",
  "#dc2626",
  "#7c3aed",
  "#0891b2",
  "#db2777",
  "#65a30d",
] as const;

export const OTHER_COLOR = "#8b8f98";

export function seriesColor(colorIndex: number, isOther: boolean): string {
  if (isOther) return OTHER_COLOR;
  return SERIES_COLORS[colorIndex % SERIES_COLORS.length] ?? OTHER_COLOR;
}
