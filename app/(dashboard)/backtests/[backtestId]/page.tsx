import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { BacktestProgress } from "@/components/backtests/backtest-progress";
import { BacktestResultSections } from "@/components/backtests/backtest-result";
import { ConfirmedAction } from "@/components/ui/confirmed-action";
import { LocalTime } from "@/components/ui/local-time";
import { PageHeader } from "@/components/ui/page-header";
import { canMaintain, requireViewer, scopeOf } from "@/lib/auth/access";
import { cancelBacktest } from "@/lib/auth/backtest-actions";
import {
  describeEnding,
  describeRoles,
  prepareState,
  shortVersion,
} from "@/lib/backtest/result-view";
import { newBacktestHref, readBacktestId } from "@/lib/backtest/url";
import { getBacktest } from "@/lib/db/queries/backtests";
import { backtestSearchSchema } from "@/lib/schemas/backtest-pages";
import { parseSearchParams, type RawSearchParams } from "@/lib/schemas/dashboard";

export const metadata: Metadata = { title: "Backtest" };

interface Props {
  params: Promise<{ backtestId: string }>;
  searchParams: Promise<RawSearchParams>;
}

/**
 * One backtest, linkable: while it runs, its progress (refreshing itself) and Cancel; once done,
 * its result; a failed or cancelled one says so and what to do next. A backtest outside the
 * viewer's tenants is answered as if it did not exist.
 */
export default async function BacktestPage({ params, searchParams }: Props) {
  const id = readBacktestId((await params).backtestId);
  if (id === null) notFound();
  const search = parseSearchParams(backtestSearchSchema, await searchParams);
  const viewer = await requireViewer();
  const backtest = await getBacktest(id, scopeOf(viewer));
  if (!backtest) notFound();
  const maintainer = canMaintain(viewer, backtest.tenantId);
  const state = prepareState(backtest.state, backtest.progress);
  const ending = describeEnding(backtest.state, backtest.progress, backtest.error);
  const candidateVersion = backtest.result?.candidateVersion;

  return (
    <>
      <PageHeader
        title={
          <>
            Backtest of <span className="break">{backtest.tenantId}</span>
          </>
        }
        subtitle={
          <>
            <Link href="/backtests">Backtests</Link> · {describeRoles(backtest.roles)} ·{" "}
            <LocalTime iso={backtest.from.toISOString()} /> –{" "}
            <LocalTime iso={backtest.to.toISOString()} /> · started by{" "}
            {backtest.createdBy?.email ?? "a script"},{" "}
            <LocalTime iso={backtest.createdAt.toISOString()} style="short" />
          </>
        }
        actions={
          maintainer ? (
            <Link href={newBacktestHref({ rerun: backtest.id })} className="button button-quiet">
              Run again
            </Link>
          ) : null
        }
      />

      <section className="panel" aria-label="State" data-testid="backtest-status">
        <dl className="meta-grid">
          <div>
            <dt>Candidate</dt>
            <dd className="mono">
              {candidateVersion ? shortVersion(candidateVersion) : "(version when it starts)"}
            </dd>
          </div>
          <div>
            <dt>Baseline</dt>
            <dd>
              {backtest.baseline === null ? (
                "what was recorded"
              ) : (
                <span className="mono">
                  {backtest.result?.baselineVersion
                    ? shortVersion(backtest.result.baselineVersion)
                    : "given"}
                </span>
              )}
            </dd>
          </div>
          <div>
            <dt>Verdict threshold</dt>
            <dd>{backtest.thresholdPercent}% harmful drops</dd>
          </div>
          {backtest.finishedAt ? (
            <div>
              <dt>Finished</dt>
              <dd>
                <LocalTime iso={backtest.finishedAt.toISOString()} style="short" />
              </dd>
            </div>
          ) : null}
        </dl>
        <BacktestProgress view={state} />
        {maintainer && state.cancellable ? (
          <ConfirmedAction
            action={cancelBacktest}
            fields={{ id: backtest.id }}
            openLabel="Cancel"
            openAriaLabel="Cancel this backtest"
            warning="Stop this backtest? What it replayed so far is kept, but it will have no verdict."
            confirmLabel="Cancel the backtest"
            pendingLabel="Cancelling…"
          />
        ) : null}
      </section>

      {ending ? (
        <section className="panel notice" role="status" data-testid="backtest-ending">
          <h2>{ending.title}</h2>
          <p>{ending.text}</p>
          {maintainer ? (
            <p>
              <Link href={newBacktestHref({ rerun: backtest.id })}>
                Run it again with the same settings
              </Link>
            </p>
          ) : (
            <p className="muted small">Its tenant's maintainers can run it again.</p>
          )}
        </section>
      ) : null}

      {backtest.state === "done" && backtest.result ? (
        <BacktestResultSections backtest={backtest} result={backtest.result} search={search} />
      ) : null}
    </>
  );
}
