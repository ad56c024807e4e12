"use client";

import { useMemo } from "react";
import type { ArmLabels, ComparisonRow, RoleRow, ToolRow } from "@/lib/backtest/result-view";
import { DataTable, type DataTableSort } from "../data-table/data-table";
import { comparisonColumns } from "./comparison-columns";
import { roleColumns } from "./role-columns";
import { toolColumns } from "./tool-columns";

/** The candidate beside what was recorded (and the baseline), metric by metric. */
export function ComparisonTable({ rows, labels }: { rows: ComparisonRow[]; labels: ArmLabels }) {
  const columns = useMemo(() => comparisonColumns(labels), [labels]);
  return (
    <DataTable
      columns={columns}
      data={rows}
      caption="Candidate against recorded and baseline, per metric"
      getRowId={(row) => row.key}
      testId="backtest-comparison"
    />
  );
}

export function RoleTable({ rows, labels }: { rows: RoleRow[]; labels: ArmLabels }) {
  const columns = useMemo(() => roleColumns(labels), [labels]);
  return (
    <DataTable
      columns={columns}
      data={rows}
      caption="Per role: harmful-drop rates, tokens saved and side effects of the candidate"
      getRowId={(row) => row.role}
      emptyMessage="No decision was replayed."
      testId="backtest-roles"
    />
  );
}

export function ToolTable({
  rows,
  labels,
  sort,
  sortLinks,
}: {
  rows: ToolRow[];
  labels: ArmLabels;
  sort: DataTableSort;
  sortLinks: Record<string, string>;
}) {
  const columns = useMemo(() => toolColumns(labels), [labels]);
  return (
    <DataTable
      columns={columns}
      data={rows}
      caption="Per tool: the calls the candidate would lose, costliest first"
      getRowId={(row) => row.tool}
      sort={sort}
      sortLinks={sortLinks}
      emptyMessage="No tool was offered in the replayed decisions."
      testId="backtest-tools"
    />
  );
}
