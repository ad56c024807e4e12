/**
 * Links of the backtest pages: a backtest's page (with the per-tool table's order), its CSV
 * downloads, the new-backtest form (from a tenant's stored config, or copying a backtest), and
 * an example decision in its run trace replayed with the backtest's candidate.
 */
import { defineView, exportHref, toSearchString, type View } from "@/lib/dashboard/url";
import {
  type BacktestExportTable,
  type BacktestSearch,
  backtestExportSearchSchema,
  backtestSearchSchema,
  backtestsSearchSchema,
  type NewBacktestSearch,
  newBacktestSearchSchema,
} from "@/lib/schemas/backtest-pages";
import type { BacktestExample } from "./types";

export const backtestsView = defineView("/backtests", backtestsSearchSchema);
export const newBacktestView = defineView("/backtests/new", newBacktestSearchSchema);
const exportView = defineView("/api/export/backtest", backtestExportSearchSchema);

/** The view of one backtest's page (its path carries the id). */
export function backtestView(id: string): View<BacktestSearch> {
  return defineView(`/backtests/${encodeURIComponent(id)}`, backtestSearchSchema);
}

/** `/backtests/<id>`, with the per-tool table's order when it is not the default. */
export function backtestHref(id: string, changes: Partial<BacktestSearch> = {}): string {
  const view = backtestView(id);
  return view.href(view.defaults, changes);
}

/** `/backtests/new`, for a tenant and a stored config version, or copying a backtest. */
export function newBacktestHref(changes: Partial<NewBacktestSearch> = {}): string {
  return newBacktestView.href(newBacktestView.defaults, changes);
}

/** The per-tool (in the page's order) or per-role CSV of one backtest. */
export function backtestExportHref(
  id: string,
  table: BacktestExportTable,
  order: Partial<BacktestSearch> = {},
): string {
  return exportHref("backtest", exportView, {
    ...exportView.defaults,
    id,
    table,
    ...(table === "tools" ? order : {}),
  });
}

/**
 * The example decision in its run trace, replayed there with the backtest's candidate beside
 * the recorded stages.
 */
export function backtestExampleHref(backtestId: string, example: BacktestExample): string {
  return `/runs/${encodeURIComponent(example.runId)}${toSearchString({
    tenant: example.tenantId,
    backtest: backtestId,
    iteration: example.iteration,
  })}#replay`;
}

/** The backtest id from the path segment (still percent-encoded), or null when it cannot be one. */
export function readBacktestId(segment: string): string | null {
  try {
    const id = decodeURIComponent(segment);
    return id.length > 0 && id.length <= 100 ? id : null;
  } catch {
    return null;
  }
}
