/**
 * The columns of each CSV download, beside the tables they mirror.
 */
import type { BreakdownLine } from "./breakdown";
import type { CsvColumn } from "./csv";
import type { DecisionRecord, RunRow } from "./types";

/** A decision as the iterations CSV writes it: no stage trace and no warnings list. */
export type DecisionExportRow = Omit<DecisionRecord, "trace" | "warnings">;

export const runsCsvColumns: CsvColumn<RunRow>[] = [
  { header: "tenant_id", value: (row) => row.tenantId },
  { header: "run_id", value: (row) => row.runId },
  { header: "roles", value: (row) => row.roles },
  { header: "modes", value: (row) => row.modes },
  { header: "iterations", value: (row) => row.decisions },
  { header: "max_iteration", value: (row) => row.maxIteration },
  { header: "first_seen_utc", value: (row) => row.firstSeen },
  { header: "last_seen_utc", value: (row) => row.lastSeen },
  { header: "dropped_tokens", value: (row) => row.droppedTokens },
  { header: "reinstatements", value: (row) => row.reinstatements },
  { header: "empty_palette_warnings", value: (row) => row.emptyPaletteWarnings },
  { header: "stage_errors", value: (row) => row.stageErrors },
  { header: "harmful_drops", value: (row) => row.harmfulDrops },
];

export const breakdownCsvColumns: CsvColumn<BreakdownLine>[] = [
  { header: "tenant_id", value: (row) => row.tenant },
  { header: "role", value: (row) => row.role },
  { header: "decisions", value: (row) => row.decisions },
  { header: "dropped_tokens", value: (row) => row.droppedTokens },
  { header: "mean_tools_offered", value: (row) => Number(row.meanOffered.toFixed(4)) },
  { header: "mean_tools_selected", value: (row) => Number(row.meanSelected.toFixed(4)) },
  { header: "reinstatements", value: (row) => row.reinstatements },
  { header: "empty_palette_warnings", value: (row) => row.emptyPaletteWarnings },
  { header: "stage_errors", value: (row) => row.stageErrors },
  { header: "harmful_drops", value: (row) => row.harmfulDrops },
];

export const iterationsCsvColumns: CsvColumn<DecisionExportRow>[] = [
  { header: "iteration", value: (row) => row.iteration },
  { header: "timestamp_utc", value: (row) => row.ts },
  { header: "role", value: (row) => row.role },
  { header: "mode", value: (row) => row.mode },
  { header: "turn_hop_index", value: (row) => row.turnHopIndex },
  { header: "model", value: (row) => row.model },
  { header: "forced_choice", value: (row) => row.forcedChoice },
  { header: "offered_count", value: (row) => row.offered.length },
  { header: "selected_count", value: (row) => row.selected.length },
  { header: "selected", value: (row) => row.selected },
  { header: "dropped", value: (row) => row.dropped },
  { header: "dropped_tokens", value: (row) => row.droppedTokens },
  { header: "reinstatements", value: (row) => row.reinstatements },
  { header: "empty_palette_warnings", value: (row) => row.emptyPaletteWarnings },
  { header: "stage_errors", value: (row) => row.stageErrors },
  { header: "called", value: (row) => (row.hasOutcome ? row.called : null) },
  { header: "harmful_drops", value: (row) => row.harmfulTools },
];
