import Link from "next/link";
import type { RuleView } from "@/lib/alerts/rule-view";
import { createDataColumnHelper } from "../data-table/data-table";
import { RuleState } from "./rule-state";

const column = createDataColumnHelper<RuleView>();

export const rulesColumns = column.columns([
  column.accessor("name", {
    header: "Rule",
    cell: (info) => (
      <Link
        href={info.row.original.href}
        className="cell-clip"
        title={info.getValue()}
        prefetch={false}
      >
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor("tenantLabel", {
    id: "tenant",
    header: "Tenant",
    cell: (info) =>
      info.row.original.tenantId === null ? (
        <em>{info.getValue()}</em>
      ) : (
        <span className="cell-clip" title={info.getValue()}>
          {info.getValue()}
        </span>
      ),
  }),
  column.display({
    id: "scope",
    header: "Role · mode",
    cell: (info) => {
      const { role, mode } = info.row.original;
      return (
        <span className="small cell-wrap">
          {role ?? <span className="muted">any role</span>} ·{" "}
          {mode ?? <span className="muted">any mode</span>}
        </span>
      );
    },
  }),
  column.display({
    id: "condition",
    header: "Fires when",
    cell: (info) => (
      <span className="small cell-wrap">
        {info.row.original.metricLabel} {info.row.original.condition}
      </span>
    ),
  }),
  column.accessor("state", {
    header: "State",
    cell: (info) => <RuleState state={info.getValue()} />,
  }),
  column.accessor("lastValue", {
    header: "Last value",
    cell: (info) => <span className="small cell-wrap">{info.getValue()}</span>,
    meta: { description: "The metric over the rule's window at its last evaluation" },
  }),
]);
