import type { Metadata } from "next";
import { Suspense } from "react";
import { RunsSection } from "@/components/runs/runs-sections";
import { DashboardFilters } from "@/components/ui/dashboard-filters";
import { LiveRefresh } from "@/components/ui/live-refresh";
import { PageHeader } from "@/components/ui/page-header";
import { SectionSkeleton } from "@/components/ui/skeleton";
import { requireScope } from "@/lib/auth/access";
import { resolveTimeRange } from "@/lib/dashboard/time-range";
import { loadFilterChoices } from "@/lib/db/queries/filter-choices";
import {
  parseSearchParams,
  type RawSearchParams,
  RUN_PAGE_SIZES,
  runsSearchSchema,
} from "@/lib/schemas/dashboard";

export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage({
  searchParams,
}: {
  searchParams: Promise<RawSearchParams>;
}) {
  const search = parseSearchParams(runsSearchSchema, await searchParams);
  const range = resolveTimeRange(search, new Date());
  const choices = await loadFilterChoices(search, await requireScope(search.tenant));
  const fellBack = range?.fellBack ?? false;

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
        allTime
        range={range}
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
        <RunsSection search={search} range={range} />
      </Suspense>
    </>
  );
}
