import type { Metadata } from "next";
import { Suspense } from "react";
import { RunsTable } from "@/components/runs/runs-table";
import { DashboardFilters, PRESET_OPTIONS } from "@/components/ui/dashboard-filters";
import { DownloadLink } from "@/components/ui/download-link";
import { LiveRefresh } from "@/components/ui/live-refresh";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { SectionSkeleton } from "@/components/ui/skeleton";
import { describePage } from "@/lib/dashboard/pagination";
import { resolveTimeRange, type TimeRange } from "@/lib/dashboard/time-range";
import { exportHref, runsHref, runsView, sortLinks } from "@/lib/dashboard/url";
import { loadFilterChoices } from "@/lib/db/queries/filter-choices";
import { countRuns, defaultRunsDirection, listRuns, runsFilterOf } from "@/lib/db/queries/runs";
import {
  EXPORT_ROW_LIMIT,
  parseSearchParams,
  type RawSearchParams,
  RUN_PAGE_SIZES,
  RUN_SORT_KEYS,
  type RunsSearch,
  runsSearchSchema,
} from "@/lib/schemas/dashboard";

export const metadata: Metadata = { title: "Runs" };

async function RunsSection({ search, window }: { search: RunsSearch; window: TimeRange | null }) {
  const filter = runsFilterOf(search, window);
  const dir = search.dir ?? defaultRunsDirection(search.sort);
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

export default async function RunsPage({
  searchParams,
}: {
  searchParams: Promise<RawSearchParams>;
}) {
  const search = parseSearchParams(runsSearchSchema, await searchParams);
  const window = resolveTimeRange(search, new Date());
  const choices = await loadFilterChoices(search);
  const fellBack = window?.fellBack ?? false;

  return (
    <>
      <PageHeader
        title="Runs"
        subtitle={
          fellBack
            ? "The custom range was incomplete, so runs of the last 24 hours are shown."
            : "Every agent run, newest activity first. Open one to see its decision trace."
        }
        actions={<LiveRefresh interval={search.live} />}
      />
      <DashboardFilters
        action="/runs"
        label="Runs filters"
        rangeValue={window?.preset ?? search.range}
        rangeOptions={[{ value: "all", label: "All time" }, ...PRESET_OPTIONS]}
        range={window}
        values={search}
        choices={choices}
        hidden={{ sort: search.sort, dir: search.dir, live: search.live }}
      >
        <label className="field">
          <span>Run id starts with</span>
          <input
            type="search"
            name="q"
            defaultValue={search.q ?? ""}
            key={search.q ?? ""}
            maxLength={200}
            placeholder="run id prefix"
            spellCheck={false}
          />
        </label>
        <label className="field field-check">
          <input
            type="checkbox"
            name="warnings"
            value="1"
            defaultChecked={search.warnings}
            key={`w${search.warnings}`}
          />
          <span>Has warnings</span>
        </label>
        <label className="field field-check">
          <input
            type="checkbox"
            name="harmful"
            value="1"
            defaultChecked={search.harmful}
            key={`h${search.harmful}`}
          />
          <span>Has harmful drops</span>
        </label>
        <label className="field">
          <span>Per page</span>
          <select name="size" defaultValue={String(search.size)} key={search.size}>
            {RUN_PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
      </DashboardFilters>
      <Suspense
        key={JSON.stringify(search)}
        fallback={<SectionSkeleton label="Loading runs" rows={8} />}
      >
        <RunsSection search={search} window={window} />
      </Suspense>
    </>
  );
}
