/**
 * Page arithmetic for the server-paginated tables.
 */
import { formatCount } from "@/lib/dashboard/format";

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

/**
 * Where a page of a list paged by key sits, in words: "26–50 of 31 runs", "1–50 of more than
 * 10,000 runs", or, when the rows before the page were not all counted, "50 runs past the
 * first 10,000 (more than 10,000 match)". `before` is null when more than `cap` rows come
 * before the page; `total` is a count that stops at `cap` + 1.
 */
export function describeKeysetPage({
  shown,
  before,
  total,
  cap,
  noun,
}: {
  shown: number;
  before: number | null;
  total: number;
  cap: number;
  noun: string;
}): string {
  if (shown === 0) return `No ${noun}`;
  const of = total > cap ? `more than ${formatCount(cap)}` : formatCount(total);
  if (before === null) {
    return `${formatCount(shown)} ${noun} past the first ${formatCount(cap)} (${of} match)`;
  }
  return `${formatCount(before + 1)}–${formatCount(before + shown)} of ${of} ${noun}`;
}
