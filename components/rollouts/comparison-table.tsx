"use client";

import { useMemo } from "react";
import type { MetricComparison } from "@/lib/rollouts/cohorts";
import { DataTable } from "../data-table/data-table";
import { comparisonColumns } from "./comparison-columns";

/** Every metric of two cohorts side by side, with the difference B − A. */
export function ComparisonTable({
  rows,
  labels,
  caption,
  testId,
}: {
  rows: MetricComparison[];
  labels: { a: string; b: string };
  caption: string;
  testId: string;
}) {
  const { a, b } = labels;
  const columns = useMemo(() => comparisonColumns({ a, b }), [a, b]);
  return (
    <DataTable
      columns={columns}
      data={rows}
      caption={caption}
      getRowId={(row) => row.id}
      emptyMessage="No metrics."
      testId={testId}
    />
  );
}
