"use client";

import { useActionState } from "react";
import { EMPTY_FORM_STATE } from "@/lib/auth/form-state";
import { revokeInvitationAction } from "@/lib/auth/user-actions";
import type { TenantRoleEntry } from "@/lib/schemas/accounts";
import { createDataColumnHelper, DataTable } from "../data-table/data-table";
import { LocalTime } from "../ui/local-time";
import { FormAnswer } from "./user-row-actions";

export interface InvitationTableRow {
  id: string;
  email: string;
  isAdmin: boolean;
  roles: TenantRoleEntry[];
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
  state: "pending" | "accepted" | "revoked" | "expired";
  closedAt: string | null;
}

function RevokeButton({ id, email }: { id: string; email: string }) {
  const [state, action, pending] = useActionState(revokeInvitationAction, EMPTY_FORM_STATE);
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="invitationId" value={id} />
      <button
        type="submit"
        className="button button-quiet button-danger"
        disabled={pending}
        aria-label={`Revoke the invitation of ${email}`}
      >
        Revoke
      </button>
      <FormAnswer state={state} />
    </form>
  );
}

const column = createDataColumnHelper<InvitationTableRow>();

const invitationColumns = column.columns([
  column.accessor("email", {
    header: "Email",
    cell: (info) => <span className="mono">{info.getValue()}</span>,
  }),
  column.accessor("roles", {
    header: "Grants",
    cell: (info) => {
      const parts = info.getValue().map((entry) => `${entry.tenant}: ${entry.role}`);
      if (info.row.original.isAdmin) parts.unshift("admin");
      return parts.join(", ") || <span className="muted">no tenant</span>;
    },
  }),
  column.accessor("invitedBy", {
    header: "Invited by",
    cell: (info) => info.getValue() ?? <span className="muted">a removed user</span>,
  }),
  column.accessor("createdAt", {
    header: "Created",
    cell: (info) => <LocalTime iso={info.getValue()} style="short" />,
  }),
  column.accessor("expiresAt", {
    header: "Expires",
    cell: (info) => <LocalTime iso={info.getValue()} style="short" />,
  }),
  column.accessor("state", {
    header: "State",
    cell: (info) => {
      const { state, closedAt } = info.row.original;
      if (state === "pending") return "pending";
      return closedAt ? (
        <>
          {state} <LocalTime iso={closedAt} style="short" />
        </>
      ) : (
        state
      );
    },
  }),
  column.display({
    id: "actions",
    header: "",
    cell: (info) =>
      info.row.original.state === "pending" ? (
        <RevokeButton id={info.row.original.id} email={info.row.original.email} />
      ) : null,
  }),
]);

export function InvitationsTable({ rows }: { rows: InvitationTableRow[] }) {
  return (
    <DataTable
      columns={invitationColumns}
      data={rows}
      caption="Invitations: email, roles granted, who invited, expiry, state"
      getRowId={(row) => row.id}
      emptyMessage="No invitations yet."
      testId="invitations-table"
    />
  );
}
