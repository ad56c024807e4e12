"use client";

import { useMemo } from "react";
import { DataTable } from "../data-table/data-table";
import { type UserTableRow, usersColumns } from "./users-columns";

export function UsersTable({ rows, tenants }: { rows: UserTableRow[]; tenants: string[] }) {
  const columns = useMemo(() => usersColumns(tenants), [tenants]);
  return (
    <DataTable
      columns={columns}
      data={rows}
      caption="Users: email, admin, tenant roles, sign-in methods, state, last sign-in, and changes"
      getRowId={(row) => row.id}
      emptyMessage="No users yet."
      testId="users-table"
    />
  );
}
