"use client";

import type { KeyRow } from "@/lib/auth/key-management";
import { DataTable } from "../data-table/data-table";
import { keysColumns } from "./keys-columns";

/** The ingest keys of the viewer's tenants, by tenant, newest first. */
export function KeysTable({ rows }: { rows: KeyRow[] }) {
  return (
    <DataTable
      columns={keysColumns}
      data={rows}
      caption="Ingest keys by tenant, newest first"
      getRowId={(row) => row.id}
      emptyMessage="No keys yet."
      testId="keys-table"
    />
  );
}
