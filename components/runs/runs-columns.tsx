import Link from "next/link";
import { formatCount } from "@/lib/dashboard/format";
import type { RunRow } from "@/lib/dashboard/types";
import { runTraceHref } from "@/lib/dashboard/url";
import { issueCountColumns } from "../data-table/cells";
import { createDataColumnHelper } from "../data-table/data-table";
import { LocalTime } from "../ui/local-time";

const column = createDataColumnHelper<RunRow>();

const tags = (values: string[], className: (value: string) => string = () => "tag") => (
  <span className="tags">
    {values.map((value) => (
      <span key={value} className={className(value)}>
        {value}
      </span>
    ))}
  </span>
);

/** A mode's tag: `off` (an agent that routes nothing) is drawn apart from observe and enforce. */
const modeTag = (mode: string) => `tag tag-${mode}`;

export const runsColumns = column.columns([
  column.accessor("runId", {
    header: "Run",
    cell: (info) => (
      <Link
        href={runTraceHref(info.row.original.tenantId, info.getValue())}
        className="cell-link run-link mono"
        prefetch={false}
        title={info.getValue()}
      >
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor("tenantId", {
    id: "tenant",
    header: "Tenant",
    cell: (info) => (
      <span className="cell-clip" title={info.getValue()}>
        {info.getValue()}
      </span>
    ),
  }),
  column.accessor("roles", { header: "Roles", cell: (info) => tags(info.getValue()) }),
  column.accessor("modes", {
    header: "Modes",
    cell: (info) => tags(info.getValue(), modeTag),
    meta: { description: "off: an agent that routes nothing (from its OpenTelemetry spans)" },
  }),
  column.accessor("decisions", {
    header: "Iterations",
    cell: (info) => formatCount(info.getValue()),
    meta: { align: "right", description: "Decisions stored for the run" },
  }),
  column.accessor("firstSeen", {
    header: "First seen",
    cell: (info) => <LocalTime iso={info.getValue()} style="short" />,
  }),
  column.accessor("lastSeen", {
    header: "Last seen",
    cell: (info) => <LocalTime iso={info.getValue()} style="short" />,
  }),
  column.accessor("droppedTokens", {
    header: "Dropped tokens",
    cell: (info) => formatCount(info.getValue()),
    meta: { align: "right" },
  }),
  ...issueCountColumns<RunRow>(),
]);
