"use client";

import { DataTable } from "../data-table/data-table";
import { TenantChoicesContext } from "./user-row-actions";
import { type UserTableRow, usersColumns } from "./users-columns";

export function UsersTable({ rows, tenants }: { rows: UserTableRow[]; tenants: string[] }) {
  return (
    <TenantChoicesContext value={tenants}>
      <DataTable
        columns={usersColumns}
        data={rows}
        caption="Users: email, admin, tenant roles, sign-in methods, state, last sign-in, and changes"
        getRowId={(row) => row.id}
        emptyMessage="No users yet."
        testId="users-table"
      />
    </TenantChoicesContext>
  );
}
