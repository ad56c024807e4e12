/**
 * The overview's sections. Each is an async server component that reads its own rollup query,
 * so the page streams them in parallel behind their own skeletons.
 */
import { defaultBreakdownDirection, prepareBreakdown } from "@/lib/dashboard/breakdown";
import { prepareKpiTiles } from "@/lib/dashboard/kpis";
import { prepareTimeSeries } from "@/lib/dashboard/series";
import type { TimeRange } from "@/lib/dashboard/time-range";
import { overviewHref, runsHref } from "@/lib/dashboard/url";
import {
  sumMetricsByBucket,
  sumMetricsByTenantRole,
  sumOverviewTotals,
} from "@/lib/db/queries/overview";
import { rollupFilterOf } from "@/lib/db/queries/rollup";
import {
  BREAKDOWN_SORT_KEYS,
  type OverviewSearch,
  parseSearchParams,
  runsSearchSchema,
} from "@/lib/schemas/dashboard";
import { DownloadLink } from "../ui/download-link";
import { BreakdownTable } from "./breakdown-table";
import { KpiTiles } from "./kpi-tiles";
import { OverviewCharts } from "./overview-charts";

export async function KpiSection({ search, range }: { search: OverviewSearch; range: TimeRange }) {
  const { current, previous } = await sumOverviewTotals(rollupFilterOf(search), range);
  return (
    <>
      {current.decisions === 0 ? (
        <p className="panel notice" role="status">
          No decisions match these filters in this range. Widen the time range or clear a filter.
        </p>
      ) : null}
      <KpiTiles
        tiles={prepareKpiTiles(current, previous)}
        previousLabel={`previous ${range.bucketCount} ${range.granularity}${range.bucketCount === 1 ? "" : "s"}`}
      />
    </>
  );
}

export async function ChartsSection({
  search,
  range,
  now,
}: {
  search: OverviewSearch;
  range: TimeRange;
  now: Date;
}) {
  const rows = await sumMetricsByBucket(rollupFilterOf(search), range, search.split);
  const prepared = prepareTimeSeries(rows, range, now);
  return <OverviewCharts prepared={prepared} splitLabel={search.split} />;
}

export async function BreakdownSection({
  search,
  range,
}: {
  search: OverviewSearch;
  range: TimeRange;
}) {
  const rows = await sumMetricsByTenantRole(rollupFilterOf(search), range);
  const dir = search.dir ?? defaultBreakdownDirection(search.sort);
  const runsDefaults = parseSearchParams(runsSearchSchema, {});
  const lines = prepareBreakdown(rows, search.sort, dir).map((line) => ({
    ...line,
    runsHref: runsHref(runsDefaults, {
      tenant: line.tenant,
      role: line.role,
      mode: search.mode,
      range: search.range,
      from: search.range === "custom" ? range.from.toISOString() : undefined,
      to: search.range === "custom" ? range.to.toISOString() : undefined,
    }),
  }));
  const sortLinks = Object.fromEntries(
    BREAKDOWN_SORT_KEYS.map((key) => [
      key,
      overviewHref(search, {
        sort: key,
        dir: key === search.sort ? (dir === "asc" ? "desc" : "asc") : undefined,
      }),
    ]),
  );
  return (
    <section className="panel" aria-labelledby="breakdown-title">
      <div className="section-head">
        <h2 id="breakdown-title">By tenant and role</h2>
        <DownloadLink href={`/api/export/breakdown${overviewHref(search).slice(1)}`} />
      </div>
      <BreakdownTable
        rows={lines}
        sort={{ id: search.sort, desc: dir === "desc" }}
        sortLinks={sortLinks}
      />
    </section>
  );
}
