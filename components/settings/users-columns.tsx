import type { TenantRoleEntry } from "@/lib/schemas/accounts";
import { createDataColumnHelper } from "../data-table/data-table";
import { LocalTime } from "../ui/local-time";
import { ActivationToggle, AdminToggle, TenantRoleForm } from "./user-row-actions";

/** A user as the users table shows them (dates as ISO strings: the table is a client one). */
export interface UserTableRow {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
  deactivatedAt: string | null;
  lastSignIn: string | null;
  roles: TenantRoleEntry[];
  methods: string[];
  /** The signed-in admin themselves: they cannot unmake or deactivate themselves. */
  isSelf: boolean;
}

const column = createDataColumnHelper<UserTableRow>();

const SELF_NOTE = "You cannot remove your own admin right or deactivate yourself.";

export const usersColumns = column.columns([
  column.accessor("email", {
    header: "User",
    cell: (info) => (
      <>
        <span className="mono">{info.getValue()}</span>
        <br />
        <span className="muted">{info.row.original.name}</span>
      </>
    ),
  }),
  column.accessor("isAdmin", {
    header: "Admin",
    cell: (info) => (info.getValue() ? "admin" : "—"),
    meta: { description: "Instance admins see and manage every tenant, user and key" },
  }),
  column.accessor("roles", {
    header: "Tenant roles",
    cell: (info) =>
      info.getValue().length === 0 ? (
        <span className="muted">none</span>
      ) : (
        <ul className="plain-list">
          {info.getValue().map((entry) => (
            <li key={entry.tenant}>
              <span className="mono">{entry.tenant}</span>: {entry.role}
            </li>
          ))}
        </ul>
      ),
  }),
  column.accessor("methods", {
    header: "Sign-in",
    cell: (info) => info.getValue().join(", ") || "—",
    meta: { description: "How the user can sign in: password, one-time link, single sign-on" },
  }),
  column.accessor("deactivatedAt", {
    header: "State",
    cell: (info) => {
      const at = info.getValue();
      return at ? (
        <span className="warn-count" title={`Deactivated ${at}`}>
          deactivated
        </span>
      ) : (
        "active"
      );
    },
  }),
  column.accessor("lastSignIn", {
    header: "Last sign-in",
    cell: (info) => {
      const at = info.getValue();
      return at ? <LocalTime iso={at} style="short" /> : <span className="muted">never</span>;
    },
  }),
  column.display({
    id: "actions",
    header: "Change",
    cell: (info) => {
      const user = info.row.original;
      return (
        <div className="row-actions">
          <TenantRoleForm userId={user.id} email={user.email} roles={user.roles} />
          {user.isSelf ? (
            <span className="muted">{SELF_NOTE}</span>
          ) : (
            <>
              <AdminToggle userId={user.id} email={user.email} isAdmin={user.isAdmin} />
              <ActivationToggle
                userId={user.id}
                email={user.email}
                active={user.deactivatedAt === null}
              />
            </>
          )}
        </div>
      );
    },
  }),
]);
