/**
 * The overview's sections. Each is an async server component that reads its own rollup query,
 * so the page streams them in parallel behind their own skeletons.
 */

import Link from "next/link";
import { prepareAlertMarkers } from "@/lib/alerts/chart-markers";
import { prepareRuleView } from "@/lib/alerts/rule-view";
import { requireScope } from "@/lib/auth/access";
import { formatCount } from "@/lib/dashboard/format";
import { prepareKpiTiles } from "@/lib/dashboard/kpis";
import { packSeries, prepareTimeSeries } from "@/lib/dashboard/series";
import type { TimeRange } from "@/lib/dashboard/time-range";
import {
  exportHref,
  overviewHref,
  overviewView,
  rangeChanges,
  runsHref,
  runsView,
  sortLinks,
} from "@/lib/dashboard/url";
import { listAlertMarkerEvents } from "@/lib/db/queries/alert-views";
import { firingRules } from "@/lib/db/queries/alerts";
import { sumMetricsByBucket, sumOverviewTotals } from "@/lib/db/queries/overview";
import { rollupFilterOf } from "@/lib/db/queries/rollup";
import { listBreakdownLines } from "@/lib/db/queries/table-lines";
import {
  BREAKDOWN_SORT_KEYS,
  BREAKDOWN_TOP_LINES,
  EXPORT_ROW_LIMIT,
  type OverviewSearch,
} from "@/lib/schemas/dashboard";
import { AlertMarkerList } from "../alerts/alert-marker-list";
import { FiringAlerts } from "../alerts/firing-alerts";
import { DownloadLink } from "../ui/download-link";
import { BreakdownTable } from "./breakdown-table";
import { KpiTiles } from "./kpi-tiles";
import { OverviewCharts } from "./overview-charts";

export async function KpiSection({ search, range }: { search: OverviewSearch; range: TimeRange }) {
  const scope = await requireScope(search.tenant);
  const { current, previous } = await sumOverviewTotals(rollupFilterOf(search, scope), range);
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
  const scope = await requireScope(search.tenant);
  const filter = rollupFilterOf(search, scope);
  const [rows, transitions] = await Promise.all([
    sumMetricsByBucket(filter, range, search.split),
    listAlertMarkerEvents(filter, range),
  ]);
  const prepared = prepareTimeSeries(rows, range, now);
  const alerts = prepareAlertMarkers(transitions, range, now);
  return (
    <>
      <OverviewCharts packed={packSeries(prepared)} splitLabel={search.split} alerts={alerts} />
      <AlertMarkerList alerts={alerts} />
    </>
  );
}

/** The firing alert rules of the viewer's tenants (all of them, whatever the filters). */
export async function FiringAlertsSection({ now }: { now: Date }) {
  const scope = await requireScope(undefined);
  const rules = await firingRules(scope);
  return <FiringAlerts rules={rules.map((rule) => prepareRuleView(rule, now))} />;
}

export async function BreakdownSection({
  search,
  range,
}: {
  search: OverviewSearch;
  range: TimeRange;
}) {
  const scope = await requireScope(search.tenant);
  const { lines: sorted, dir } = await listBreakdownLines(search, range, scope);
  const shown = search.lines === "all" ? sorted : sorted.slice(0, BREAKDOWN_TOP_LINES);
  const lines = shown.map((line) => ({
    ...line,
    runsHref: runsHref(runsView.defaults, {
      ...rangeChanges(search, range),
      tenant: line.tenant,
      role: line.role,
      mode: search.mode,
    }),
  }));
  return (
    <section className="panel" aria-labelledby="breakdown-title">
      <div className="section-head">
        <h2 id="breakdown-title">By tenant and role</h2>
        <DownloadLink
          href={exportHref("breakdown", overviewView, search)}
          rowLimit={EXPORT_ROW_LIMIT}
        />
      </div>
      <BreakdownTable
        rows={lines}
        sort={{ id: search.sort, desc: dir === "desc" }}
        sortLinks={sortLinks(BREAKDOWN_SORT_KEYS, { sort: search.sort, dir }, (changes) =>
          overviewHref(search, changes),
        )}
      />
      {sorted.length > BREAKDOWN_TOP_LINES ? (
        <p className="muted small" data-testid="breakdown-lines">
          {search.lines === "all" ? (
            <>
              All {formatCount(sorted.length)} lines.{" "}
              <Link href={overviewHref(search, { lines: "top" })}>
                Show the first {BREAKDOWN_TOP_LINES}
              </Link>
            </>
          ) : (
            <>
              The first {BREAKDOWN_TOP_LINES} of {formatCount(sorted.length)} lines in this order;
              sort by another column, choose a tenant or role, or{" "}
              <Link href={overviewHref(search, { lines: "all" })}>
                show all {formatCount(sorted.length)}
              </Link>
              .
            </>
          )}
        </p>
      ) : null}
    </section>
  );
}
