import type { RowData } from "@tanstack/react-table";
import { formatCount } from "@/lib/dashboard/format";
import { createDataColumnHelper, type DataColumn } from "./data-table";

/** A count that draws the eye when it is not zero (reinstatements, warnings, harmful drops). */
function warnCount(value: number) {
  return value > 0 ? <span className="warn-count">{formatCount(value)}</span> : formatCount(value);
}

/** The per-row issue counts the runs and breakdown tables both show. */
interface IssueCounts {
  reinstatements: number;
  emptyPaletteWarnings: number;
  stageErrors: number;
  harmfulDrops: number;
}

/** The four issue-count columns, in the order every table shows them. */
export function issueCountColumns<TData extends RowData & IssueCounts>(): DataColumn<TData>[] {
  const column = createDataColumnHelper<TData>();
  const issue = (id: keyof IssueCounts, header: string, description?: string) =>
    column.accessor((row) => row[id], {
      id,
      header,
      cell: (info) => warnCount(info.getValue()),
      meta: { align: "right", description },
    });
  return [
    issue("reinstatements", "Reinstatements", "Forced tools put back after a stage dropped them"),
    issue("emptyPaletteWarnings", "Empty palettes"),
    issue("stageErrors", "Stage errors"),
    issue("harmfulDrops", "Harmful drops", "Tools the model called that the narrowing had dropped"),
  ];
}
