import type { KeyRow } from "@/lib/auth/key-management";
import { createDataColumnHelper } from "../data-table/data-table";
import { LocalTime } from "../ui/local-time";
import { RevokeKeyButton } from "./revoke-key-button";

const column = createDataColumnHelper<KeyRow>();

export const keysColumns = column.columns([
  column.accessor("tenantId", {
    id: "tenant",
    header: "Tenant",
    cell: (info) => (
      <span className="cell-clip" title={info.getValue()}>
        {info.getValue()}
      </span>
    ),
  }),
  column.accessor("prefix", {
    header: "Key",
    cell: (info) => <span className="mono">{info.getValue()}…</span>,
    meta: { description: "The start of the key; the key itself is never stored" },
  }),
  column.accessor("scope", {
    header: "Use",
    cell: (info) => <span className="badge">{info.getValue()}</span>,
    meta: { description: "ingest: sends events; configs: changes routing configs (CI)" },
  }),
  column.accessor("label", {
    header: "Label",
    cell: (info) => info.getValue() ?? <span className="muted">—</span>,
  }),
  column.accessor("creatorEmail", {
    id: "creator",
    header: "Created by",
    cell: (info) => info.getValue() ?? <span className="muted">command line</span>,
  }),
  column.accessor("createdAt", {
    header: "Created",
    cell: (info) => <LocalTime iso={info.getValue()} style="short" />,
  }),
  column.accessor("lastUsedAt", {
    header: "Last used",
    cell: (info) => {
      const used = info.getValue();
      return used ? <LocalTime iso={used} style="short" /> : <span className="muted">never</span>;
    },
    meta: { description: "Updated at most once a minute" },
  }),
  column.accessor("revokedAt", {
    id: "state",
    header: "State",
    cell: (info) => {
      const revoked = info.getValue();
      return revoked ? (
        <span className="badge badge-error">
          revoked <LocalTime iso={revoked} style="short" />
        </span>
      ) : (
        <span className="badge">active</span>
      );
    },
  }),
  column.display({
    id: "actions",
    header: () => <span className="visually-hidden">Actions</span>,
    cell: (info) => {
      const key = info.row.original;
      return key.revokedAt ? null : (
        <RevokeKeyButton keyId={key.id} prefix={key.prefix} tenantId={key.tenantId} />
      );
    },
  }),
]);
