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
          <PagerStep
            text="← Previous"
            href={info.hasPrevious ? hrefFor(info.page - 1) : null}
            rel="prev"
          />
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
          <PagerStep text="Next →" href={info.hasNext ? hrefFor(info.page + 1) : null} rel="next" />
        </ul>
      ) : null}
    </nav>
  );
}

/** Links of a list paged by key: each is the URL of that page, or null where there is none. */
export interface KeysetLinks {
  first: string | null;
  previous: string | null;
  next: string | null;
  last: string | null;
}

/**
 * The pager of a list paged by key (the runs list): first, previous, next and last pages, and
 * a summary of where the page is in the list.
 */
export function KeysetPager({
  summary,
  links,
  label,
}: {
  summary: string;
  links: KeysetLinks;
  label: string;
}) {
  const paged = Object.values(links).some((href) => href !== null);
  return (
    <nav className="pager" aria-label={label}>
      <span className="muted" data-testid="pager-summary">
        {summary}
      </span>
      {paged ? (
        <ul>
          <PagerStep text="« First" href={links.first} />
          <PagerStep text="← Previous" href={links.previous} rel="prev" />
          <PagerStep text="Next →" href={links.next} rel="next" />
          <PagerStep text="Last »" href={links.last} />
        </ul>
      ) : null}
    </nav>
  );
}

/** One step of a pager: a link, or its text dimmed where there is no such page. */
function PagerStep({ text, href, rel }: { text: string; href: string | null; rel?: string }) {
  return (
    <li>
      {href === null ? (
        <span className="muted">{text}</span>
      ) : (
        <Link href={href} rel={rel} scroll={false}>
          {text}
        </Link>
      )}
    </li>
  );
}
