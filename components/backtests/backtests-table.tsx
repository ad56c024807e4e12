"use client";

import type { BacktestListRow } from "@/lib/backtest/result-view";
import { DataTable } from "../data-table/data-table";
import { backtestsColumns } from "./backtests-columns";

/** The backtests of the viewer's tenants, newest first. */
export function BacktestsTable({ rows }: { rows: BacktestListRow[] }) {
  return (
    <DataTable
      columns={backtestsColumns}
      data={rows}
      caption="Backtests, newest first"
      getRowId={(row) => row.id}
      emptyMessage="No backtests yet."
      testId="backtests-table"
    />
  );
}
