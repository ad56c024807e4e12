"use client";

/**
 * The one data table of the dashboard (TanStack Table v9). Sorting and paging are owned by
 * the server and the URL: the table gets one page of rows already in order, the current sort,
 * and for each sortable column the link that sorts by it. Column definitions live in one
 * `*-columns.tsx` file per entity, built with `createDataColumnHelper`.
 */
import {
  type CellContext,
  type Column,
  type ColumnDef,
  createColumnHelper,
  type Row,
  type RowData,
  rowSortingFeature,
  type SortingState,
  type Table,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import Link from "next/link";
import { type ReactNode, useMemo } from "react";

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

type DataCellContext<TData extends RowData> = CellContext<Features, TData, unknown>;

/**
 * The context a body cell is rendered with, made from its row and column. TanStack's own
 * (`row.getAllCells()` and each cell's memoised `getContext()`) cost about 4.5 µs a cell to
 * build, and `FlexRender` makes every cell two components: a 100-row table of the tools page
 * (8 columns) took 19–20 ms to render on the server that way and 11–13 ms this way
 * (`renderToString`, the two alternating in one process). The cell object itself is only built
 * if a renderer asks for it.
 */
function cellContext<TData extends RowData>(
  table: Table<Features, TData>,
  row: Row<Features, TData>,
  column: Column<Features, TData, unknown>,
): DataCellContext<TData> {
  return {
    table,
    row,
    column,
    getValue: () => row.getValue(column.id),
    renderValue: () => row.getValue(column.id) ?? table.options.renderFallbackValue ?? null,
    get cell() {
      const cell = row.getAllCells().find((candidate) => candidate.column.id === column.id);
      if (!cell) throw new Error(`No cell of column ${column.id} in row ${row.id}.`);
      return cell;
    },
  };
}

/**
 * A body cell's content: its column's `cell` renderer called as a plain function, so cell
 * renderers return elements and call no hooks (one that needs state renders a component).
 */
function renderCell<TData extends RowData>(context: DataCellContext<TData>): ReactNode {
  const render = context.column.columnDef.cell;
  return typeof render === "function" ? render(context) : (render ?? null);
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
  const leafColumns = table.getAllLeafColumns();

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
                {leafColumns.map((column) => (
                  <td
                    key={column.id}
                    className={column.columnDef.meta?.align === "right" ? "num" : undefined}
                    data-column={column.id}
                  >
                    {renderCell(cellContext(table, row, column))}
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
