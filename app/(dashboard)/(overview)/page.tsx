import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { Suspense } from "react";
import { GettingStarted, NoTenantsYet } from "@/components/overview/getting-started";
import {
  BreakdownSection,
  ChartsSection,
  FiringAlertsSection,
  KpiSection,
} from "@/components/overview/overview-sections";
import { DashboardFilters } from "@/components/ui/dashboard-filters";
import { LiveRefresh } from "@/components/ui/live-refresh";
import { LocalTime } from "@/components/ui/local-time";
import { PageHeader } from "@/components/ui/page-header";
import { SectionSkeleton } from "@/components/ui/skeleton";
import { requireScope } from "@/lib/auth/access";
import { listFilterChoices } from "@/lib/dashboard/filter-choices";
import {
  describeFallback,
  describeGranularity,
  resolveTimeRange,
} from "@/lib/dashboard/time-range";
import { overviewHref } from "@/lib/dashboard/url";
import { hasAnyDecisions, listTenantRolePairs } from "@/lib/db/queries/overview";
import { listTenantIds } from "@/lib/db/queries/tenants";
import {
  overviewSearchSchema,
  parseSearchParams,
  type RawSearchParams,
  SPLIT_KEYS,
} from "@/lib/schemas/dashboard";

export const metadata: Metadata = { title: "Overview" };

async function requestOrigin(): Promise<string> {
  const list = await headers();
  const host = list.get("x-forwarded-host") ?? list.get("host") ?? "localhost:3000";
  const proto = list.get("x-forwarded-proto") ?? "http";
  return `${proto}://${host}`;
}

export default async function OverviewPage({
  searchParams,
}: {
  searchParams: Promise<RawSearchParams>;
}) {
  const search = parseSearchParams(overviewSearchSchema, await searchParams);
  const now = new Date();
  const range = resolveTimeRange(search, now);
  const scope = await requireScope(search.tenant);
  const [hasData, pairs, tenantIds] = await Promise.all([
    hasAnyDecisions(scope),
    listTenantRolePairs(scope),
    listTenantIds(scope),
  ]);

  if (!scope.all && scope.tenants.length === 0) {
    return (
      <>
        <PageHeader title="Overview" />
        <NoTenantsYet />
      </>
    );
  }
  if (!hasData) {
    return (
      <>
        <PageHeader title="Overview" />
        <GettingStarted origin={await requestOrigin()} now={now} />
      </>
    );
  }

  const choices = listFilterChoices(pairs, tenantIds, search);
  return (
    <>
      <PageHeader
        title="Overview"
        subtitle={
          <>
            {range.label}: <LocalTime iso={range.from.toISOString()} /> –{" "}
            <LocalTime iso={range.to.toISOString()} />, {range.bucketCount} buckets{" "}
            {describeGranularity(range.granularity)}
            {describeFallback(range)}
          </>
        }
        actions={<LiveRefresh interval={search.live} />}
      />
      <Suspense fallback={null}>
        <FiringAlertsSection now={now} />
      </Suspense>
      <DashboardFilters
        action="/"
        label="Overview filters"
        range={range}
        values={search}
        choices={choices}
        hidden={{
          split: search.split,
          sort: search.sort,
          dir: search.dir,
          live: search.live,
          // The default (the first lines) stays out of the URL.
          lines: search.lines === "all" ? search.lines : undefined,
        }}
      />
      <Suspense fallback={<SectionSkeleton label="Loading key figures" rows={3} />}>
        <KpiSection search={search} range={range} />
      </Suspense>
      <div className="section-head">
        <h2>Over time</h2>
        <nav className="segmented" aria-label="Split series by">
          {SPLIT_KEYS.map((split) => (
            <Link
              key={split}
              href={overviewHref(search, { split })}
              aria-current={search.split === split ? "true" : undefined}
              scroll={false}
            >
              by {split}
            </Link>
          ))}
        </nav>
      </div>
      <Suspense fallback={<SectionSkeleton label="Loading charts" rows={6} />}>
        <ChartsSection search={search} range={range} now={now} />
      </Suspense>
      <Suspense fallback={<SectionSkeleton label="Loading breakdown" rows={5} />}>
        <BreakdownSection search={search} range={range} />
      </Suspense>
    </>
  );
}
