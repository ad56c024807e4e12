"use client";

import type { DeliveryRow, TransitionRow } from "@/lib/alerts/history-view";
import { DataTable } from "../data-table/data-table";
import { deliveryColumns, transitionColumns } from "./history-columns";

/** A rule's firings and resolutions, newest first. */
export function TransitionsTable({ rows }: { rows: TransitionRow[] }) {
  return (
    <DataTable
      columns={transitionColumns}
      data={rows}
      caption="Firings and resolutions of this rule, newest first"
      getRowId={(row) => row.id}
      emptyMessage="No firing yet."
      testId="transitions-table"
    />
  );
}

/** A rule's deliveries, newest first, each with its attempts. */
export function DeliveriesTable({ rows }: { rows: DeliveryRow[] }) {
  return (
    <DataTable
      columns={deliveryColumns}
      data={rows}
      caption="Deliveries of this rule's messages, newest first, with every attempt"
      getRowId={(row) => row.id}
      emptyMessage="Nothing sent yet."
      testId="deliveries-table"
    />
  );
}
