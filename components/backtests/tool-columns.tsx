import Link from "next/link";
import {
  type ArmLabels,
  TOKEN_SOURCE_LABELS,
  type ToolRow,
  type ToolSummary,
} from "@/lib/backtest/result-view";
import { formatCount } from "@/lib/dashboard/format";
import { createDataColumnHelper, type DataColumn } from "../data-table/data-table";
import styles from "./backtests.module.css";

const column = createDataColumnHelper<ToolRow>();

/** "would drop `send_email`, which the model called 37 times". */
function Summary({ summary }: { summary: ToolSummary }) {
  const times = (n: number) => `${formatCount(n)} ${n === 1 ? "time" : "times"}`;
  const tool = <code className="tool">{summary.tool}</code>;
  switch (summary.kind) {
    case "drops":
      return (
        <span className="cell-wrap">
          would drop {tool}, which the model called {times(summary.called)}{" "}
          <span className="badge badge-error">
            {formatCount(summary.lost)} {summary.lost === 1 ? "call" : "calls"} lost
          </span>
        </span>
      );
    case "keeps":
      return (
        <span className="cell-wrap">
          keeps {tool} whenever the model called it ({times(summary.called)})
        </span>
      );
    case "never-called":
      return (
        <span className="cell-wrap">
          would bind {tool} in {formatCount(summary.bound)} of {formatCount(summary.offered)}{" "}
          decisions; never called
        </span>
      );
  }
}

function Examples({ row }: { row: ToolRow }) {
  if (row.examples.length === 0) return <span className="muted">—</span>;
  return (
    <span className={styles.examples}>
      {row.examples.map((example) => (
        <Link key={example.key} href={example.href} prefetch={false} title={example.title}>
          {example.label}
        </Link>
      ))}
    </span>
  );
}

const count = (value: number | null) =>
  value === null ? <span className="muted">—</span> : formatCount(value);

/** Per tool: what the candidate would do with it, the counts behind that, and examples. */
export function toolColumns(labels: ArmLabels): DataColumn<ToolRow>[] {
  const columns: DataColumn<ToolRow>[] = [
    column.accessor("tool", {
      header: "Tool",
      cell: (info) => <Summary summary={info.row.original.summary} />,
    }),
    column.accessor("offered", {
      header: "Offered",
      cell: (info) => count(info.getValue()),
      meta: { align: "right", description: "Decisions that offered the tool" },
    }),
    column.accessor("called", {
      header: "Called",
      cell: (info) => count(info.getValue()),
      meta: {
        align: "right",
        description: "Decisions with an outcome in which the model called it",
      },
    }),
    column.accessor("candidateHarmful", {
      header: "Lost, candidate",
      cell: (info) => count(info.getValue()),
      meta: {
        align: "right",
        description: "Decisions where the model called it and the candidate would not bind it",
      },
    }),
    column.accessor("recordedHarmful", {
      header: `Lost, ${labels.recorded.toLowerCase()}`,
      cell: (info) => count(info.getValue()),
      meta: {
        align: "right",
        description: "The same for the recorded selection (harmful drops of observe traffic)",
      },
    }),
  ];
  if (labels.baseline) {
    columns.push(
      column.accessor("baselineHarmful", {
        header: "Lost, baseline",
        cell: (info) => count(info.getValue()),
        meta: { align: "right" },
      }),
    );
  }
  columns.push(
    column.accessor("candidateBound", {
      header: "Bound, candidate",
      cell: (info) => (
        <>
          {formatCount(info.getValue())}
          <span className={styles.detail}>
            recorded {formatCount(info.row.original.recordedBound)}
          </span>
        </>
      ),
      meta: { align: "right", description: "Decisions in which the candidate would bind it" },
    }),
    column.accessor("tokens", {
      header: "Tokens / offer",
      cell: (info) => (
        <>
          {count(info.getValue())}
          <span className={styles.detail}>
            {TOKEN_SOURCE_LABELS[info.row.original.tokenSource]}
          </span>
        </>
      ),
      meta: { align: "right", description: "Estimated tokens of its definition, and where from" },
    }),
    column.display({
      id: "examples",
      header: "Example runs",
      cell: (info) => <Examples row={info.row.original} />,
      meta: {
        description:
          "Decisions where the candidate would drop it while called, replayed in the run trace",
      },
    }),
  );
  return columns;
}
