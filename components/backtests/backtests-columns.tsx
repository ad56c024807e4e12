import Link from "next/link";
import type { BacktestListRow } from "@/lib/backtest/result-view";
import { createDataColumnHelper } from "../data-table/data-table";
import { LocalTime } from "../ui/local-time";
import { BacktestState } from "./backtest-state";

const column = createDataColumnHelper<BacktestListRow>();

const VERDICT_CLASS = {
  safe: "badge badge-ok",
  harmful: "badge badge-error",
  insufficient: "badge badge-warn",
  "no-outcomes": "badge badge-warn",
} as const;

export const backtestsColumns = column.columns([
  column.accessor("tenant", {
    header: "Tenant",
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
  column.accessor("roles", {
    header: "Roles",
    cell: (info) => <span className="small cell-wrap">{info.getValue()}</span>,
  }),
  column.display({
    id: "window",
    header: "Window",
    cell: (info) => (
      <span className="small time-wrap">
        <LocalTime iso={info.row.original.from} style="short" /> –{" "}
        <LocalTime iso={info.row.original.to} style="short" />
      </span>
    ),
  }),
  column.accessor("candidate", {
    header: "Candidate",
    cell: (info) => (
      <span className="small">
        <span className="mono">{info.getValue()}</span>
        {info.row.original.baseline ? (
          <span className="muted">
            {" "}
            vs baseline <span className="mono">{info.row.original.baseline}</span>
          </span>
        ) : null}
      </span>
    ),
    meta: { description: "Config version of the candidate (and of the baseline, when given)" },
  }),
  column.accessor("state", {
    header: "State",
    cell: (info) => <BacktestState view={info.getValue()} />,
  }),
  column.accessor("verdict", {
    header: "Verdict",
    cell: (info) => {
      const verdict = info.getValue();
      return verdict ? (
        <span
          className={`${VERDICT_CLASS[verdict.status]} cell-wrap`}
          data-testid="backtest-verdict"
        >
          {verdict.headline}
        </span>
      ) : (
        <span className="muted">—</span>
      );
    },
    meta: { description: "The candidate's harmful-drop verdict, by the rollouts view's rule" },
  }),
  column.display({
    id: "started",
    header: "Started",
    cell: (info) => (
      <span className="small cell-wrap">
        {info.row.original.startedBy}
        <br />
        <LocalTime iso={info.row.original.createdAt} style="short" />
      </span>
    ),
  }),
]);
