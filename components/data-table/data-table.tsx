"use client";

/**
 * The one data table of the dashboard (TanStack Table v9). Sorting and paging are owned by
 * the server and the URL: the table gets one page of rows already in order, the current sort,
 * and for each sortable column the link that sorts by it. Column definitions live in one
 * `*-columns.tsx` file per entity, built with `createDataColumnHelper`.
 */
import {
  type ColumnDef,
  createColumnHelper,
  type RowData,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import Link from "next/link";
import { useMemo } from "react";

export interface DataColumnMeta {
  /** Numbers are right-aligned. */
  align?: "left" | "right";
  /** Longer description of the column, shown on hover of its header. */
  description?: string;
}

export const dataTableFeatures = tableFeatures({
  rowSortingFeature,
  columnMeta: {} as DataColumnMeta,
});

type Features = typeof dataTableFeatures;

// biome-ignore lint/suspicious/noExplicitAny: column lists mix value types, as in TanStack's own helper.
export type DataColumn<TData extends RowData> = ColumnDef<Features, TData, any>;

export function createDataColumnHelper<TData extends RowData>() {
  return createColumnHelper<Features, TData>();
}

export interface DataTableSort {
  id: string;
  desc: boolean;
}

export interface DataTableProps<TData extends RowData> {
  columns: DataColumn<TData>[];
  data: TData[];
  /** What the table lists, for screen readers. */
  caption: string;
  getRowId: (row: TData) => string;
  sort?: DataTableSort | null;
  /** Column id → the URL that sorts by it (or flips its direction when it is the current sort). */
  sortLinks?: Record<string, string>;
  emptyMessage?: string;
  /** Test id of the table element. */
  testId?: string;
}

export function DataTable<TData extends RowData>({
  columns,
  data,
  caption,
  getRowId,
  sort = null,
  sortLinks = {},
  emptyMessage = "Nothing to show.",
  testId,
}: DataTableProps<TData>) {
  const sorting = useMemo<SortingState>(() => (sort ? [sort] : []), [sort]);
  const table = useTable({
    features: dataTableFeatures,
    columns,
    data,
    getRowId,
    manualSorting: true,
    enableSortingRemoval: false,
    state: { sorting },
  });

  return (
    <div className="table-scroll">
      <table className="data-table" data-testid={testId}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const meta = header.column.columnDef.meta;
                const sorted = header.column.getIsSorted();
                const href = sortLinks[header.column.id];
                const label = header.isPlaceholder ? null : <table.FlexRender header={header} />;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    colSpan={header.colSpan > 1 ? header.colSpan : undefined}
                    className={meta?.align === "right" ? "num" : undefined}
                    aria-sort={
                      sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined
                    }
                    title={meta?.description}
                    data-column={header.column.id}
                  >
                    {href ? (
                      <Link href={href} scroll={false} className="sort-link" prefetch={false}>
                        {label}
                        <span className="sort-mark" aria-hidden="true">
                          {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}
                        </span>
                      </Link>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="empty-cell">
                {emptyMessage}
              </td>
            </tr>
          ) : (
            table.getRowModel().rows.map((row) => (
              <tr key={row.id}>
                {row.getAllCells().map((cell) => (
                  <td
                    key={cell.id}
                    className={cell.column.columnDef.meta?.align === "right" ? "num" : undefined}
                    data-column={cell.column.id}
                  >
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
