"use client";

import type { ContextTaxDayLine, ContextTaxLine } from "@/lib/tools/context-tax";
import { DataTable } from "../data-table/data-table";
import { contextTaxColumns, contextTaxDayColumns } from "./context-tax-columns";

/** The context tax per tool, in the order given (costliest never-called tools first). */
export function ContextTaxTable({ rows }: { rows: ContextTaxLine[] }) {
  return (
    <DataTable
      columns={contextTaxColumns}
      data={rows}
      caption="Per tool: offers, calls, calls per offer, estimated tokens per offer, unused offers and their estimated tokens"
      getRowId={(row) => row.tool}
      emptyMessage="No tool was offered with these filters in this range."
      testId="context-tax-table"
    />
  );
}

/** The context tax per UTC day, tenant and role. */
export function ContextTaxDaysTable({ rows }: { rows: ContextTaxDayLine[] }) {
  return (
    <DataTable
      columns={contextTaxDayColumns}
      data={rows}
      caption="Per UTC day, tenant and role: offers, estimated tokens offered and spent on unused offers"
      getRowId={(row) => `${row.dayLabel}/${row.tenant}/${row.role}`}
      emptyMessage="No tool was offered with these filters in this range."
      testId="context-tax-days"
    />
  );
}
