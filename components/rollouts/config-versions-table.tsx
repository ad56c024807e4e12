"use client";

import { DataTable } from "../data-table/data-table";
import { type ConfigVersionRow, configVersionColumns } from "./config-version-columns";

export function ConfigVersionsTable({ rows }: { rows: ConfigVersionRow[] }) {
  return (
    <DataTable
      columns={configVersionColumns}
      data={rows}
      caption="Config versions seen in the window, first seen first"
      getRowId={(row) => row.token}
      emptyMessage="No decisions in this window."
      testId="config-versions"
    />
  );
}
