/**
 * Page arithmetic for the server-paginated tables.
 */

export interface PageInfo {
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
  /** 1-based index of the first row shown, 0 when there are none. */
  firstRow: number;
  lastRow: number;
  offset: number;
  hasPrevious: boolean;
  hasNext: boolean;
}

/** Clamps `page` into the available pages (a page past the end shows the last one). */
export function describePage(requestedPage: number, pageSize: number, total: number): PageInfo {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.floor(requestedPage)), pageCount);
  const offset = (page - 1) * pageSize;
  const firstRow = total === 0 ? 0 : offset + 1;
  const lastRow = Math.min(total, offset + pageSize);
  return {
    page,
    pageSize,
    pageCount,
    total,
    firstRow,
    lastRow,
    offset,
    hasPrevious: page > 1,
    hasNext: page < pageCount,
  };
}

/** Page numbers to offer as links around the current one, with null for a gap. */
export function pageWindow(page: number, pageCount: number, radius = 2): (number | null)[] {
  const pages = new Set<number>([1, pageCount]);
  for (let p = page - radius; p <= page + radius; p++) {
    if (p >= 1 && p <= pageCount) pages.add(p);
  }
  const sorted = [...pages].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((p, index) => {
    const previous = sorted[index - 1];
    if (previous !== undefined && p - previous > 1) out.push(null);
    out.push(p);
  });
  return out;
}
