import { formatCount } from "@/lib/dashboard/format";
import { formatRate } from "@/lib/rollouts/format";
import {
  type ContextTaxDayLine,
  type ContextTaxLine,
  describeEstimateSource,
  formatShare,
} from "@/lib/tools/context-tax";
import { createDataColumnHelper } from "../data-table/data-table";

const tool = createDataColumnHelper<ContextTaxLine>();

const count = (value: number) => formatCount(value);
const tokens = (value: number | null) => (value === null ? "—" : formatCount(Math.round(value)));

/** Per tool: offers, calls, call rate, tokens per offer (an estimate) and unused offers' cost. */
export const contextTaxColumns = tool.columns([
  tool.accessor("tool", {
    header: "Tool",
    cell: (info) => (
      <>
        <span className="mono cell-clip" title={info.getValue()}>
          {info.getValue()}
        </span>
        {info.row.original.neverCalled ? <span className="badge">never called</span> : null}
      </>
    ),
  }),
  tool.accessor("offers", {
    header: "Offers",
    cell: (info) => count(info.getValue()),
    meta: {
      align: "right",
      description:
        "Times the tool was in front of the model: offered in observe and off, selected in enforce",
    },
  }),
  tool.accessor("calls", {
    header: "Calls",
    cell: (info) => count(info.getValue()),
    meta: { align: "right", description: "Reported outcomes in which the model called the tool" },
  }),
  tool.accessor("callRate", {
    header: "Calls per offer",
    cell: (info) => {
      const value = info.getValue();
      return value === null ? "—" : formatRate(value);
    },
    meta: { align: "right", description: "Calls / offers" },
  }),
  tool.accessor("tokensPerOffer", {
    header: "Est. tokens per offer",
    cell: (info) => {
      const line = info.row.original;
      if (line.tokensPerOffer === null) return <span title="No size estimate">—</span>;
      return (
        <span title={`Estimate from ${describeEstimateSource(line.source)}`}>
          {tokens(line.tokensPerOffer)}
          {line.source === "definition" ? null : <sup className="muted"> *</sup>}
        </span>
      );
    },
    meta: {
      align: "right",
      description:
        "An estimate: the tool definition's size (JSON length / 4); * from the dropped tokens routed agents recorded for it",
    },
  }),
  tool.accessor("unusedOffers", {
    header: "Unused offers",
    cell: (info) => count(info.getValue()),
    meta: {
      align: "right",
      description: "Offers in calls with an outcome where the model did not call the tool",
    },
  }),
  tool.accessor("unusedTokens", {
    header: "Est. tokens, unused offers",
    cell: (info) => tokens(info.getValue()),
    meta: { align: "right", description: "Unused offers × estimated tokens per offer" },
  }),
]);

const day = createDataColumnHelper<ContextTaxDayLine>();

/** Per UTC day, tenant and role: the context tax's totals. */
export const contextTaxDayColumns = day.columns([
  day.accessor("dayLabel", { header: "Day (UTC)", cell: (info) => info.getValue() }),
  day.accessor("tenant", {
    header: "Tenant",
    cell: (info) => (
      <span className="cell-clip" title={info.getValue()}>
        {info.getValue()}
      </span>
    ),
  }),
  day.accessor("role", {
    header: "Role",
    cell: (info) => (
      <span className="cell-clip" title={info.getValue()}>
        {info.getValue()}
      </span>
    ),
  }),
  day.accessor("offers", {
    header: "Offers",
    cell: (info) => count(info.getValue()),
    meta: { align: "right", description: "Tool offers of the day's calls" },
  }),
  day.accessor("offeredTokens", {
    header: "Est. tokens offered",
    cell: (info) => tokens(info.getValue()),
    meta: { align: "right", description: "Estimated tokens of every offer with a size estimate" },
  }),
  day.accessor("unusedTokens", {
    header: "Est. tokens, unused offers",
    cell: (info) => tokens(info.getValue()),
    meta: { align: "right", description: "Estimated tokens of the offers the model did not use" },
  }),
  day.accessor("share", {
    header: "Share unused",
    cell: (info) => {
      const value = info.getValue();
      return value === null ? "—" : formatShare(value);
    },
    meta: { align: "right", description: "Estimated tokens of unused offers / of all offers" },
  }),
]);
