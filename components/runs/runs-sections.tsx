/**
 * The runs page's section: one page of runs from the `runs` summary table, with its pagers,
 * sortable headers and CSV download.
 */

import { requireScope } from "@/lib/auth/access";
import { describeKeysetPage } from "@/lib/dashboard/pagination";
import { encodeRunKey, runsPositionOf } from "@/lib/dashboard/runs-position";
import type { TimeRange } from "@/lib/dashboard/time-range";
import { exportHref, runsHref, runsView, sortLinks } from "@/lib/dashboard/url";
import {
  countRunsBefore,
  countRunsUpTo,
  listRunsPage,
  RUN_COUNT_CAP,
  runsFilterOf,
} from "@/lib/db/queries/runs";
import {
  EXPORT_ROW_LIMIT,
  RUN_SORT_DIRECTIONS,
  RUN_SORT_KEYS,
  type RunsSearch,
  sortDirectionOf,
} from "@/lib/schemas/dashboard";
import { DownloadLink } from "../ui/download-link";
import { type KeysetLinks, KeysetPager } from "../ui/pager";
import { RunsTable } from "./runs-table";

export async function RunsSection({
  search,
  range,
}: {
  search: RunsSearch;
  range: TimeRange | null;
}) {
  const filter = runsFilterOf(search, range, await requireScope(search.tenant));
  const dir = sortDirectionOf(search, RUN_SORT_DIRECTIONS);
  const order = { sort: search.sort, dir };
  const [page, total] = await Promise.all([
    listRunsPage(filter, order, runsPositionOf(search), search.size),
    countRunsUpTo(filter, RUN_COUNT_CAP),
  ]);
  const before = await countRunsBefore(filter, order, page, total);
  const summary = describeKeysetPage({
    shown: page.rows.length,
    before,
    total,
    cap: RUN_COUNT_CAP,
    noun: "runs",
  });
  const links: KeysetLinks = {
    first: page.hasPrevious ? runsHref(search) : null,
    previous:
      page.hasPrevious && page.firstKey
        ? runsHref(search, { before: encodeRunKey(search.sort, page.firstKey) })
        : null,
    next:
      page.hasNext && page.lastKey
        ? runsHref(search, { after: encodeRunKey(search.sort, page.lastKey) })
        : null,
    last: page.hasNext ? runsHref(search, { last: true }) : null,
  };
  const paged = page.hasPrevious || page.hasNext;
  return (
    <section className="panel" aria-label="Runs">
      <div className="section-head">
        <KeysetPager summary={summary} links={links} label="Runs pages" />
        <DownloadLink href={exportHref("runs", runsView, search)} rowLimit={EXPORT_ROW_LIMIT} />
      </div>
      <RunsTable
        rows={page.rows}
        sort={{ id: search.sort, desc: dir === "desc" }}
        sortLinks={sortLinks(RUN_SORT_KEYS, order, (changes) => runsHref(search, changes))}
      />
      {paged ? <KeysetPager summary={summary} links={links} label="Runs pages, bottom" /> : null}
    </section>
  );
}
