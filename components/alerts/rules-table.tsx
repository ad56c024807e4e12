"use client";

import type { RuleView } from "@/lib/alerts/rule-view";
import { DataTable } from "../data-table/data-table";
import { rulesColumns } from "./rules-columns";

/** The alert rules of the viewer's tenants, firing first. */
export function RulesTable({ rows }: { rows: RuleView[] }) {
  return (
    <DataTable
      columns={rulesColumns}
      data={rows}
      caption="Alert rules, firing first, then by tenant and name"
      getRowId={(row) => row.id}
      emptyMessage="No alert rules yet."
      testId="rules-table"
    />
  );
}
