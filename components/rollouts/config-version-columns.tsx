import Link from "next/link";
import { formatCount } from "@/lib/dashboard/format";
import type { ConfigVersionSummary } from "@/lib/rollouts/config-versions";
import { createDataColumnHelper } from "../data-table/data-table";
import { LocalTime } from "../ui/local-time";

/** A config version with its role in the current comparison and links that pick it. */
export interface ConfigVersionRow extends ConfigVersionSummary {
  role: "before" | "after" | null;
  beforeHref: string;
  afterHref: string;
}

const column = createDataColumnHelper<ConfigVersionRow>();

export const configVersionColumns = column.columns([
  column.accessor("label", {
    header: "Config version",
    cell: (info) => (
      <>
        <span className="mono break">{info.getValue()}</span>
        {info.row.original.role ? (
          <span className="badge badge-warn">{info.row.original.role}</span>
        ) : null}
      </>
    ),
  }),
  column.accessor("firstSeen", {
    header: "First seen",
    cell: (info) => <LocalTime iso={info.getValue()} />,
    meta: { description: "First minute with a decision of this version in the window" },
  }),
  column.accessor("decisions", {
    header: "Decisions",
    cell: (info) => formatCount(info.getValue()),
    meta: { align: "right" },
  }),
  column.accessor("modes", {
    header: "Modes",
    cell: (info) => info.getValue().join(", "),
  }),
  column.display({
    id: "compare",
    header: "Compare",
    cell: (info) => (
      <span className="tags">
        <Link href={info.row.original.beforeHref} scroll={false} prefetch={false}>
          as before
        </Link>
        <Link href={info.row.original.afterHref} scroll={false} prefetch={false}>
          as after
        </Link>
      </span>
    ),
  }),
]);
