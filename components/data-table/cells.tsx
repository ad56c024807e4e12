import type { RowData } from "@tanstack/react-table";
import { formatCount } from "@/lib/dashboard/format";
import { ISSUE_KINDS, type IssueCounts } from "@/lib/dashboard/issue-kinds";
import { createDataColumnHelper, type DataColumn } from "./data-table";

/** A count that draws the eye when it is not zero (reinstatements, warnings, harmful drops). */
function warnCount(value: number) {
  return value > 0 ? <span className="warn-count">{formatCount(value)}</span> : formatCount(value);
}

/** The four issue-count columns, in the order every table shows them. */
export function issueCountColumns<TData extends RowData & IssueCounts>(): DataColumn<TData>[] {
  const column = createDataColumnHelper<TData>();
  return ISSUE_KINDS.map((kind) =>
    column.accessor((row) => row[kind.count], {
      id: kind.count,
      header: kind.countLabel,
      cell: (info) => warnCount(info.getValue()),
      meta: { align: "right", description: kind.countDescription },
    }),
  );
}
