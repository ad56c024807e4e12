/**
 * The runs page's section: one page of runs from the `runs` summary table, with its pagers,
 * sortable headers and CSV download.
 */

import { requireScope } from "@/lib/auth/access";
import { describePage } from "@/lib/dashboard/pagination";
import type { TimeRange } from "@/lib/dashboard/time-range";
import { exportHref, runsHref, runsView, sortLinks } from "@/lib/dashboard/url";
import { countRuns, listRuns, runsFilterOf } from "@/lib/db/queries/runs";
import {
  EXPORT_ROW_LIMIT,
  RUN_SORT_DIRECTIONS,
  RUN_SORT_KEYS,
  type RunsSearch,
  sortDirectionOf,
} from "@/lib/schemas/dashboard";
import { DownloadLink } from "../ui/download-link";
import { Pager } from "../ui/pager";
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
  const requested = describePage(search.page, search.size, Number.MAX_SAFE_INTEGER);
  let [total, rows] = await Promise.all([
    countRuns(filter),
    listRuns(filter, order, { offset: requested.offset, limit: search.size }),
  ]);
  const info = describePage(search.page, search.size, total);
  if (info.page !== search.page) {
    // The page asked for is past the end: show the last one.
    rows = await listRuns(filter, order, { offset: info.offset, limit: search.size });
  }
  return (
    <section className="panel" aria-label="Runs">
      <div className="section-head">
        <Pager
          info={info}
          hrefFor={(page) => runsHref(search, { page })}
          noun="runs"
          label="Runs pages"
        />
        <DownloadLink href={exportHref("runs", runsView, search)} rowLimit={EXPORT_ROW_LIMIT} />
      </div>
      <RunsTable
        rows={rows}
        sort={{ id: search.sort, desc: dir === "desc" }}
        sortLinks={sortLinks(RUN_SORT_KEYS, order, (changes) => runsHref(search, changes))}
      />
      {info.pageCount > 1 ? (
        <Pager
          info={info}
          hrefFor={(page) => runsHref(search, { page })}
          noun="runs"
          label="Runs pages, bottom"
        />
      ) : null}
    </section>
  );
}
