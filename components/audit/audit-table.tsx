"use client";

import type { AuditRow } from "@/lib/dashboard/audit";
import { DataTable } from "../data-table/data-table";
import { auditColumns } from "./audit-columns";

export function AuditTable({ rows }: { rows: AuditRow[] }) {
  return (
    <DataTable
      columns={auditColumns}
      data={rows}
      caption="Audit log entries, newest first"
      getRowId={(row) => row.id}
      emptyMessage="No audit entries match these filters."
      testId="audit-table"
    />
  );
}
