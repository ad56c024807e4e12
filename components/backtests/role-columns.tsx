import type { ArmLabels, ComparisonCell, RoleRow } from "@/lib/backtest/result-view";
import { formatCount } from "@/lib/dashboard/format";
import { createDataColumnHelper, type DataColumn } from "../data-table/data-table";
import styles from "./backtests.module.css";

const column = createDataColumnHelper<RoleRow>();

function Rate({ cell }: { cell: ComparisonCell | null }) {
  if (!cell) return <span className="muted">—</span>;
  return (
    <>
      {cell.value}
      {cell.detail ? <span className={styles.detail}>{cell.detail}</span> : null}
    </>
  );
}

const count = (value: number) => formatCount(value);

/** Per role: sample, harmful-drop rates per arm, the candidate's savings and side effects. */
export function roleColumns(labels: ArmLabels): DataColumn<RoleRow>[] {
  const columns: DataColumn<RoleRow>[] = [
    column.accessor("role", { header: "Role" }),
    column.accessor("decisions", {
      header: "Decisions",
      cell: (info) => count(info.getValue()),
      meta: { align: "right", description: "Decisions replayed" },
    }),
    column.accessor("outcomes", {
      header: "With outcome",
      cell: (info) => count(info.getValue()),
      meta: { align: "right", description: "Decisions with a recorded tool_call_outcome" },
    }),
    column.display({
      id: "recordedRate",
      header: `Harmful-drop rate, ${labels.recorded.toLowerCase()}`,
      cell: (info) => <Rate cell={info.row.original.recordedRate} />,
      meta: { align: "right" },
    }),
    column.display({
      id: "candidateRate",
      header: "Harmful-drop rate, candidate",
      cell: (info) => <Rate cell={info.row.original.candidateRate} />,
      meta: { align: "right" },
    }),
  ];
  if (labels.baseline) {
    columns.push(
      column.display({
        id: "baselineRate",
        header: "Harmful-drop rate, baseline",
        cell: (info) => <Rate cell={info.row.original.baselineRate} />,
        meta: { align: "right" },
      }),
    );
  }
  columns.push(
    column.display({
      id: "tokens",
      header: "Tokens saved / decision",
      cell: (info) => (
        <>
          {info.row.original.candidateTokensPerDecision}
          <span className={styles.detail}>
            recorded {info.row.original.recordedTokensPerDecision}
          </span>
        </>
      ),
      meta: { align: "right", description: "Estimated; the candidate, with the recorded below" },
    }),
    column.display({
      id: "bound",
      header: "Tools bound / decision",
      cell: (info) => (
        <>
          {info.row.original.candidateBoundPerDecision}
          <span className={styles.detail}>
            recorded {info.row.original.recordedBoundPerDecision}
          </span>
        </>
      ),
      meta: { align: "right" },
    }),
    column.accessor("candidateEmptyPalettes", {
      header: "Empty palettes",
      cell: (info) => count(info.getValue()),
      meta: {
        align: "right",
        description: "Decisions the candidate would leave with an empty palette",
      },
    }),
    column.accessor("candidateReinstatements", {
      header: "Reinstatements",
      cell: (info) => count(info.getValue()),
      meta: { align: "right", description: "Forced-tool reinstatements the candidate would cause" },
    }),
    column.display({
      id: "verdict",
      header: "Verdict",
      cell: (info) => <span className="small cell-wrap">{info.row.original.verdict.headline}</span>,
      meta: { description: "The candidate's verdict for this role alone" },
    }),
  );
  return columns;
}
