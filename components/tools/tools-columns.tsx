import Link from "next/link";
import { formatCount } from "@/lib/dashboard/format";
import { formatRate } from "@/lib/rollouts/format";
import type { ToolLine } from "@/lib/tools/tool-lines";
import { createDataColumnHelper } from "../data-table/data-table";

/** A tool line with the link to the decisions that dropped it harmfully. */
export interface ToolTableRow extends ToolLine {
  examplesHref: string;
  selectedTool: boolean;
}

const column = createDataColumnHelper<ToolTableRow>();

const count = (value: number) => formatCount(value);

export const toolsColumns = column.columns([
  column.accessor("tool", {
    header: "Tool",
    cell: (info) => (
      <Link
        href={info.row.original.examplesHref}
        prefetch={false}
        className="cell-link mono"
        aria-current={info.row.original.selectedTool ? "true" : undefined}
        title="Runs where this tool was dropped harmfully"
      >
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor("offered", {
    header: "Offered",
    cell: (info) => count(info.getValue()),
    meta: { align: "right", description: "Decisions whose palette offered this tool" },
  }),
  column.accessor("selected", {
    header: "Selected",
    cell: (info) => count(info.getValue()),
    meta: { align: "right", description: "Decisions that kept this tool after narrowing" },
  }),
  column.accessor("dropped", {
    header: "Dropped",
    cell: (info) => count(info.getValue()),
    meta: { align: "right", description: "Decisions whose narrowing dropped this tool" },
  }),
  column.accessor("dropRate", {
    header: "Drop rate",
    cell: (info) => {
      const value = info.getValue();
      return value === null ? "—" : formatRate(value);
    },
    meta: { align: "right", description: "Dropped / offered" },
  }),
  column.accessor("called", {
    header: "Called",
    cell: (info) => count(info.getValue()),
    meta: { align: "right", description: "Reported outcomes in which the model called this tool" },
  }),
  column.accessor("harmfulDrops", {
    header: "Harmful drops",
    cell: (info) =>
      info.getValue() > 0 ? (
        <Link href={info.row.original.examplesHref} className="warn-count" prefetch={false}>
          {count(info.getValue())}
        </Link>
      ) : (
        count(info.getValue())
      ),
    meta: {
      align: "right",
      description:
        "Decisions in which the model called this tool although the narrowing dropped it",
    },
  }),
  column.accessor("droppedTokens", {
    header: "Est. tokens saved",
    cell: (info) => count(Math.round(info.getValue())),
    meta: {
      align: "right",
      description:
        "Each decision's dropped-token estimate shared evenly among the tools it dropped",
    },
  }),
]);
