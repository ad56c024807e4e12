"use client";

import { DataTable, type DataTableSort } from "../data-table/data-table";
import { type BreakdownTableRow, breakdownColumns } from "./breakdown-columns";

export function BreakdownTable({
  rows,
  sort,
  sortLinks,
}: {
  rows: BreakdownTableRow[];
  sort: DataTableSort;
  sortLinks: Record<string, string>;
}) {
  return (
    <DataTable
      columns={breakdownColumns}
      data={rows}
      caption="Totals per tenant and role; each row links to its runs"
      getRowId={(row) => `${row.tenant}\u0000${row.role}`}
      sort={sort}
      sortLinks={sortLinks}
      emptyMessage="No decisions match these filters."
      testId="breakdown-table"
    />
  );
}
