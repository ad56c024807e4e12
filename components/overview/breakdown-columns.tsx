import Link from "next/link";
import type { BreakdownLine } from "@/lib/dashboard/breakdown";
import { formatCount, formatDecimal } from "@/lib/dashboard/format";
import { issueCountColumns } from "../data-table/cells";
import { createDataColumnHelper } from "../data-table/data-table";

/** A breakdown line with the link to the runs it covers. */
export interface BreakdownTableRow extends BreakdownLine {
  runsHref: string;
}

const column = createDataColumnHelper<BreakdownTableRow>();

const count = (value: number) => formatCount(value);

export const breakdownColumns = column.columns([
  column.accessor("tenant", {
    header: "Tenant",
    cell: (info) => (
      <Link href={info.row.original.runsHref} className="cell-link" prefetch={false}>
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor("role", {
    header: "Role",
    cell: (info) => (
      <Link href={info.row.original.runsHref} className="cell-link" prefetch={false}>
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor("decisions", {
    header: "Decisions",
    cell: (info) => count(info.getValue()),
    meta: { align: "right" },
  }),
  column.accessor("droppedTokens", {
    header: "Dropped tokens",
    cell: (info) => count(info.getValue()),
    meta: { align: "right", description: "Sum of the agents' dropped-token estimates" },
  }),
  column.accessor("meanOffered", {
    header: "Mean offered",
    cell: (info) => formatDecimal(info.getValue(), 1),
    meta: { align: "right", description: "Mean number of tools offered per decision" },
  }),
  column.accessor("meanSelected", {
    header: "Mean selected",
    cell: (info) => formatDecimal(info.getValue(), 1),
    meta: { align: "right", description: "Mean number of tools selected per decision" },
  }),
  ...issueCountColumns<BreakdownTableRow>(),
]);
