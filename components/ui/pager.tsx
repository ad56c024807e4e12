import Link from "next/link";
import { formatCount } from "@/lib/dashboard/format";
import { type PageInfo, pageWindow } from "@/lib/dashboard/pagination";

/** Page links for a server-paginated list; `hrefFor` builds the URL of a page. */
export function Pager({
  info,
  hrefFor,
  noun,
  label,
}: {
  info: PageInfo;
  hrefFor: (page: number) => string;
  noun: string;
  label: string;
}) {
  return (
    <nav className="pager" aria-label={label}>
      <span className="muted" data-testid="pager-summary">
        {info.total === 0
          ? `No ${noun}`
          : `${formatCount(info.firstRow)}–${formatCount(info.lastRow)} of ${formatCount(info.total)} ${noun}`}
      </span>
      {info.pageCount > 1 ? (
        <ul>
          <li>
            {info.hasPrevious ? (
              <Link href={hrefFor(info.page - 1)} rel="prev" scroll={false}>
                ← Previous
              </Link>
            ) : (
              <span className="muted">← Previous</span>
            )}
          </li>
          {pageWindow(info.page, info.pageCount).map((page, index) =>
            page === null ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity of their own.
              <li key={`gap-${index}`} aria-hidden="true">
                …
              </li>
            ) : (
              <li key={page}>
                {page === info.page ? (
                  <span aria-current="page" className="pager-current">
                    {formatCount(page)}
                  </span>
                ) : (
                  <Link href={hrefFor(page)} scroll={false}>
                    {formatCount(page)}
                  </Link>
                )}
              </li>
            ),
          )}
          <li>
            {info.hasNext ? (
              <Link href={hrefFor(info.page + 1)} rel="next" scroll={false}>
                Next →
              </Link>
            ) : (
              <span className="muted">Next →</span>
            )}
          </li>
        </ul>
      ) : null}
    </nav>
  );
}
