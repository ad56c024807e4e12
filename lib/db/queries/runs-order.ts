/**
 * The orders of the runs list as SQL on `runs r`: the columns of each order, first to last,
 * and the sort column as the text a page's key carries. No `server-only` here, so that
 * `npm run bench:dashboard` writes the keys of deep pages exactly as the page does.
 */
import { RUN_SORT_VALUE_TYPES } from "@/lib/dashboard/runs-position";
import type { RunSortKey } from "@/lib/schemas/dashboard";

export const RUN_SORT_COLUMNS: Readonly<Record<RunSortKey, string>> = {
  lastSeen: "last_seen",
  firstSeen: "first_seen",
  runId: "run_id",
  tenant: "tenant_id",
  decisions: "decisions",
  droppedTokens: "dropped_tokens",
  reinstatements: "reinstatements",
  emptyPaletteWarnings: "empty_palette_warnings",
  stageErrors: "stage_errors",
  harmfulDrops: "harmful_drops",
};

/**
 * Run ids compared byte by byte (the C collation), whatever the database's collation: the run
 * id order, its look-ups and the prefix filter read `runs_run_id_tenant_id_idx`, which is built
 * so (`LIKE` can use an index only under C).
 */
export const RUN_ID_BYTES = `r.run_id COLLATE "C"`;

/** The columns of an order, first to last, each with an index of exactly these. */
export function runOrderColumns(sort: RunSortKey): string[] {
  if (sort === "tenant") return ["r.tenant_id", "r.run_id"];
  if (sort === "runId") return [RUN_ID_BYTES, "r.tenant_id"];
  return [`r.${RUN_SORT_COLUMNS[sort]}`, "r.tenant_id", "r.run_id"];
}

/** The sort column as the text a key carries ("" for tenant and run id, which the key holds anyway). */
export function runSortValueSql(sort: RunSortKey): string {
  const type = RUN_SORT_VALUE_TYPES[sort];
  const column = `r.${RUN_SORT_COLUMNS[sort]}`;
  if (type === null) return "''";
  if (type === "timestamptz") {
    return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  }
  return `${column}::text`;
}
