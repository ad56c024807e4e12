import type { Metadata } from "next";
import { Suspense } from "react";
import { MethodNote, ObservationalNote } from "@/components/rollouts/method-note";
import { RolloutFilters } from "@/components/rollouts/rollout-filters";
import {
  ConfigComparisonSection,
  ModeComparisonSection,
  VerdictSection,
} from "@/components/rollouts/rollout-sections";
import { LocalTime } from "@/components/ui/local-time";
import { PageHeader } from "@/components/ui/page-header";
import { SectionSkeleton } from "@/components/ui/skeleton";
import { requireScope } from "@/lib/auth/access";
import {
  describeFallback,
  describeGranularity,
  resolveTimeRange,
} from "@/lib/dashboard/time-range";
import { loadFilterChoices } from "@/lib/db/queries/filter-choices";
import { parseSearchParams, type RawSearchParams } from "@/lib/schemas/dashboard";
import { rolloutsSearchSchema } from "@/lib/schemas/rollouts";

export const metadata: Metadata = { title: "Rollouts" };

export default async function RolloutsPage({
  searchParams,
}: {
  searchParams: Promise<RawSearchParams>;
}) {
  const search = parseSearchParams(rolloutsSearchSchema, await searchParams);
  const now = new Date();
  const range = resolveTimeRange(search, now);
  const choices = await loadFilterChoices(search, await requireScope(search.tenant));
  const sectionKey = JSON.stringify(search);

  return (
    <>
      <PageHeader
        title="Rollouts"
        subtitle={
          <>
            If this narrowing is enforced, what breaks and what is saved? {range.label}:{" "}
            <LocalTime iso={range.from.toISOString()} /> –{" "}
            <LocalTime iso={range.to.toISOString()} />, charts{" "}
            {describeGranularity(range.granularity)}
            {describeFallback(range)}
          </>
        }
      />
      <RolloutFilters search={search} range={range} choices={choices} />
      <ObservationalNote />
      <Suspense
        key={`verdict${sectionKey}`}
        fallback={<SectionSkeleton label="Loading verdict" rows={4} />}
      >
        <VerdictSection search={search} range={range} />
      </Suspense>
      <Suspense
        key={`mode${sectionKey}`}
        fallback={<SectionSkeleton label="Loading observe vs enforce" rows={8} />}
      >
        <ModeComparisonSection search={search} range={range} now={now} />
      </Suspense>
      <Suspense
        key={`config${sectionKey}`}
        fallback={<SectionSkeleton label="Loading config comparison" rows={8} />}
      >
        <ConfigComparisonSection search={search} range={range} now={now} />
      </Suspense>
      <MethodNote />
    </>
  );
}
