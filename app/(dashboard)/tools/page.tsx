import type { Metadata } from "next";
import { Suspense } from "react";
import {
  ContextTaxSection,
  HarmfulExamplesSection,
  ToolsSection,
} from "@/components/tools/tools-sections";
import { DashboardFilters } from "@/components/ui/dashboard-filters";
import { LocalTime } from "@/components/ui/local-time";
import { PageHeader } from "@/components/ui/page-header";
import { SectionSkeleton } from "@/components/ui/skeleton";
import { requireScope } from "@/lib/auth/access";
import { describeFallback, resolveTimeRange } from "@/lib/dashboard/time-range";
import { loadFilterChoices } from "@/lib/db/queries/filter-choices";
import { toHourWindow } from "@/lib/db/queries/rollup";
import { parseSearchParams, type RawSearchParams } from "@/lib/schemas/dashboard";
import { toolsSearchSchema } from "@/lib/schemas/tools";

export const metadata: Metadata = { title: "Tools" };

export default async function ToolsPage({
  searchParams,
}: {
  searchParams: Promise<RawSearchParams>;
}) {
  const search = parseSearchParams(toolsSearchSchema, await searchParams);
  const range = resolveTimeRange(search, new Date());
  const hours = toHourWindow(range);
  const choices = await loadFilterChoices(search, await requireScope(search.tenant));
  const sectionKey = JSON.stringify(search);

  return (
    <>
      <PageHeader
        title="Tools"
        subtitle={
          <>
            What offering each tool costs, which tools the narrowing offers, keeps and drops, and
            which it should never drop. Counted per hour:{" "}
            <LocalTime iso={hours.from.toISOString()} /> –{" "}
            <LocalTime iso={hours.to.toISOString()} />
            {describeFallback(range)}
          </>
        }
      />
      <DashboardFilters
        action="/tools"
        label="Tools filters"
        range={range}
        values={search}
        choices={choices}
        hidden={{ sort: search.sort, dir: search.dir }}
      />
      <Suspense
        key={`tax${sectionKey}`}
        fallback={<SectionSkeleton label="Loading context tax" rows={8} />}
      >
        <ContextTaxSection search={search} range={range} />
      </Suspense>
      {search.tool ? (
        <Suspense
          key={`examples${sectionKey}`}
          fallback={<SectionSkeleton label="Loading harmful drops" rows={4} />}
        >
          <HarmfulExamplesSection search={search} range={range} tool={search.tool} />
        </Suspense>
      ) : null}
      <Suspense
        key={`tools${sectionKey}`}
        fallback={<SectionSkeleton label="Loading tools" rows={8} />}
      >
        <ToolsSection search={search} range={range} />
      </Suspense>
    </>
  );
}
