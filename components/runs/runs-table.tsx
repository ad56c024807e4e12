"use client";

import type { RunRow } from "@/lib/dashboard/types";
import { DataTable, type DataTableSort } from "../data-table/data-table";
import { runsColumns } from "./runs-columns";

export function RunsTable({
  rows,
  sort,
  sortLinks,
}: {
  rows: RunRow[];
  sort: DataTableSort;
  sortLinks: Record<string, string>;
}) {
  return (
    <DataTable
      columns={runsColumns}
      data={rows}
      caption="Runs, one page at a time"
      getRowId={(row) => `${row.tenantId}\u0000${row.runId}`}
      sort={sort}
      sortLinks={sortLinks}
      emptyMessage="No runs match these filters."
      testId="runs-table"
    />
  );
}
