import type { Metadata } from "next";
import Link from "next/link";
import { BacktestsTable } from "@/components/backtests/backtests-table";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { maintainedTenants, requireViewer, scopeForTenant } from "@/lib/auth/access";
import { prepareBacktestRows } from "@/lib/backtest/result-view";
import { backtestHref, backtestsView, newBacktestHref } from "@/lib/backtest/url";
import { describePage } from "@/lib/dashboard/pagination";
import { listCandidateSums } from "@/lib/db/queries/backtest-verdicts";
import { countBacktests, listBacktests } from "@/lib/db/queries/backtests";
import { BACKTESTS_PAGE_SIZE, backtestsSearchSchema } from "@/lib/schemas/backtest-pages";
import { parseSearchParams, type RawSearchParams } from "@/lib/schemas/dashboard";

export const metadata: Metadata = { title: "Backtests" };

/** The backtests of the viewer's tenants (SPEC §10), newest first, a page at a time. */
export default async function BacktestsPage({
  searchParams,
}: {
  searchParams: Promise<RawSearchParams>;
}) {
  const search = parseSearchParams(backtestsSearchSchema, await searchParams);
  const viewer = await requireViewer();
  const scope = scopeForTenant(viewer, search.tenant);
  const total = await countBacktests(scope, search.tenant);
  // A page past the end shows the last one.
  const info = describePage(search.page, BACKTESTS_PAGE_SIZE, total);
  const backtests = await listBacktests(scope, {
    tenantId: search.tenant,
    limit: BACKTESTS_PAGE_SIZE,
    offset: info.offset,
  });
  const sums = await listCandidateSums(
    scope,
    backtests.filter((backtest) => backtest.state === "done").map((backtest) => backtest.id),
  );
  const hrefFor = (page: number) => backtestsView.href(search, { page });
  const maintained = maintainedTenants(viewer);
  const canStart = maintained === null || maintained.length > 0;
  return (
    <>
      <PageHeader
        title="Backtests"
        subtitle="A candidate routing config replayed over a tenant's recorded decisions: which calls the model would have lost, and what it would save, before it is enforced."
        actions={
          canStart ? (
            <Link
              href={newBacktestHref({ tenant: search.tenant })}
              className="button button-primary"
            >
              New backtest
            </Link>
          ) : null
        }
      />
      {canStart ? null : (
        <p className="panel notice" data-testid="backtests-read-only">
          You read these backtests as a viewer. A tenant's backtests are started by its maintainers
          and by admins.
        </p>
      )}
      {search.tenant ? (
        <p className="small">
          Tenant <strong>{search.tenant}</strong> only ·{" "}
          <Link href="/backtests">backtests of every tenant you read</Link>
        </p>
      ) : null}
      <section className="panel" aria-label="Backtests">
        <div className="section-head">
          <Pager info={info} hrefFor={hrefFor} noun="backtests" label="Backtest pages" />
        </div>
        <BacktestsTable rows={prepareBacktestRows(backtests, sums, (id) => backtestHref(id))} />
        {info.pageCount > 1 ? (
          <Pager info={info} hrefFor={hrefFor} noun="backtests" label="Backtest pages, bottom" />
        ) : null}
      </section>
    </>
  );
}
