import type { ArmLabels, ComparisonCell, ComparisonRow } from "@/lib/backtest/result-view";
import { createDataColumnHelper, type DataColumn } from "../data-table/data-table";
import styles from "./backtests.module.css";

const column = createDataColumnHelper<ComparisonRow>();

function Cell({ cell }: { cell: ComparisonCell | null }) {
  if (!cell) return <span className="muted">—</span>;
  return (
    <>
      {cell.value}
      {cell.detail ? <span className={styles.detail}>{cell.detail}</span> : null}
    </>
  );
}

/** Metric, then recorded, candidate and (when given) baseline, then the candidate's differences. */
export function comparisonColumns(labels: ArmLabels): DataColumn<ComparisonRow>[] {
  const columns: DataColumn<ComparisonRow>[] = [
    column.accessor("metric", {
      header: "Metric",
      cell: (info) => (
        <span className={styles.metric} title={info.row.original.description}>
          {info.getValue()}
        </span>
      ),
    }),
    column.display({
      id: "recorded",
      header: labels.recorded,
      cell: (info) => <Cell cell={info.row.original.recorded} />,
      meta: { align: "right", description: "What the recorded configuration selected" },
    }),
    column.display({
      id: "candidate",
      header: labels.candidate,
      cell: (info) => <Cell cell={info.row.original.candidate} />,
      meta: { align: "right", description: "What the candidate would have bound, in enforce mode" },
    }),
  ];
  if (labels.baseline) {
    columns.push(
      column.display({
        id: "baseline",
        header: labels.baseline,
        cell: (info) => <Cell cell={info.row.original.baseline} />,
        meta: { align: "right", description: "What the baseline would have bound" },
      }),
    );
  }
  columns.push(
    column.accessor("vsRecorded", {
      header: "Candidate − recorded",
      meta: { align: "right" },
    }),
  );
  if (labels.baseline) {
    columns.push(
      column.display({
        id: "vsBaseline",
        header: "Candidate − baseline",
        cell: (info) => info.row.original.vsBaseline ?? "—",
        meta: { align: "right" },
      }),
    );
  }
  return columns;
}
