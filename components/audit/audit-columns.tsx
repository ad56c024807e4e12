import type { AuditRow } from "@/lib/dashboard/audit";
import { createDataColumnHelper } from "../data-table/data-table";
import { LocalTime } from "../ui/local-time";

const column = createDataColumnHelper<AuditRow>();

/** Text that may be long: clipped in its cell, whole on hover. */
const clipped = (value: string | null, className = "cell-clip") =>
  value ? (
    <span className={className} title={value}>
      {value}
    </span>
  ) : (
    <span className="muted">—</span>
  );

export const auditColumns = column.columns([
  column.accessor("at", {
    header: "When",
    cell: (info) => <LocalTime iso={info.getValue()} style="short" />,
  }),
  column.accessor("who", {
    header: "Who",
    cell: (info) => clipped(info.getValue()),
    meta: { description: "The signed-in user who acted (none for a failed sign-in)" },
  }),
  column.accessor("action", { header: "Action" }),
  column.accessor("tenant", { header: "Tenant", cell: (info) => clipped(info.getValue()) }),
  column.accessor("target", {
    header: "Target",
    cell: (info) => clipped(info.getValue()),
    meta: { description: "What the action was done to: a key prefix, a user's email" },
  }),
  column.accessor("details", {
    header: "Details",
    cell: (info) => clipped(info.getValue() || null),
  }),
  column.accessor("ip", {
    header: "From",
    cell: (info) => clipped(info.getValue(), "cell-clip mono"),
    meta: { description: "The client's address" },
  }),
]);
