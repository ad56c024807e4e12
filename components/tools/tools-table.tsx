"use client";

import { DataTable, type DataTableSort } from "../data-table/data-table";
import { type ToolTableRow, toolsColumns } from "./tools-columns";

export function ToolsTable({
  rows,
  sort,
  sortLinks,
}: {
  rows: ToolTableRow[];
  sort: DataTableSort;
  sortLinks: Record<string, string>;
}) {
  return (
    <DataTable
      columns={toolsColumns}
      data={rows}
      caption="Per tool: offered, selected, dropped, called, harmful drops and estimated tokens saved"
      getRowId={(row) => row.tool}
      sort={sort}
      sortLinks={sortLinks}
      emptyMessage="No tools match these filters in this range."
      testId="tools-table"
    />
  );
}
