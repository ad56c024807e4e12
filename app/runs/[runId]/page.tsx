import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { IterationCard } from "@/components/run-trace/iteration-card";
import { DownloadLink } from "@/components/ui/download-link";
import { LocalTime } from "@/components/ui/local-time";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { formatCount } from "@/lib/dashboard/format";
import { describeIssues, issueTone } from "@/lib/dashboard/issue-kinds";
import { describePage } from "@/lib/dashboard/pagination";
import { prepareRunTrace } from "@/lib/dashboard/trace";
import { readRunId, runExportHref, runsHref, runsView, runTraceHref } from "@/lib/dashboard/url";
import {
  countRunDecisions,
  countRunDecisionsWithIssues,
  listRunDecisions,
  listRunIssueMarks,
  listRunOutcomes,
} from "@/lib/db/queries/run-trace";
import { getRun, listTenantsOfRun } from "@/lib/db/queries/runs";
import {
  parseSearchParams,
  type RawSearchParams,
  RUN_EXPORT_ROW_LIMIT,
  runTraceSearchSchema,
  TRACE_PAGE_SIZE,
} from "@/lib/schemas/dashboard";

interface Props {
  params: Promise<{ runId: string }>;
  searchParams: Promise<RawSearchParams>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const runId = readRunId((await params).runId);
  return { title: runId === null ? "Run not found" : `Run ${runId.slice(0, 60)}` };
}

export default async function RunTracePage({ params, searchParams }: Props) {
  const runId = readRunId((await params).runId);
  if (runId === null) notFound();
  const search = parseSearchParams(runTraceSearchSchema, await searchParams);

  let tenantId = search.tenant;
  if (!tenantId) {
    const tenants = await listTenantsOfRun(runId);
    if (tenants.length === 0) notFound();
    if (tenants.length > 1) {
      return (
        <>
          <PageHeader title={`Run ${runId}`} subtitle="This run id exists for several tenants." />
          <ul className="panel link-list">
            {tenants.map((tenant) => (
              <li key={tenant}>
                <Link href={runTraceHref(tenant, runId)}>{tenant}</Link>
              </li>
            ))}
          </ul>
        </>
      );
    }
    tenantId = tenants[0] as string;
  }

  const [run, total, marks] = await Promise.all([
    getRun(tenantId, runId),
    search.issues
      ? countRunDecisionsWithIssues(tenantId, runId)
      : countRunDecisions(tenantId, runId),
    listRunIssueMarks(tenantId, runId),
  ]);
  if (!run) notFound();

  const info = describePage(search.page, TRACE_PAGE_SIZE, total);
  const decisions = await listRunDecisions(tenantId, runId, {
    offset: info.offset,
    limit: TRACE_PAGE_SIZE,
    issuesOnly: search.issues,
  });
  const iterations = decisions.map((decision) => decision.iteration);
  const outcomes =
    decisions.length > 0
      ? await listRunOutcomes(tenantId, runId, Math.min(...iterations), Math.max(...iterations))
      : [];
  const views = prepareRunTrace(decisions, outcomes);
  const openAll = views.length <= 5;
  const tenant = tenantId;

  return (
    <>
      <PageHeader
        title={
          <>
            Run <span className="mono break">{runId}</span>
          </>
        }
        subtitle={
          <>
            Tenant <strong>{tenant}</strong> ·{" "}
            <Link href={runsHref(runsView.defaults, { tenant })}>all runs of this tenant</Link>
          </>
        }
        actions={
          <DownloadLink
            href={runExportHref({ tenant, runId })}
            rowLimit={RUN_EXPORT_ROW_LIMIT}
            label="Download iterations CSV"
          />
        }
      />

      <section className="panel" aria-label="Run summary">
        <dl className="meta-grid" data-testid="run-summary">
          <div>
            <dt>Iterations</dt>
            <dd>
              {formatCount(run.decisions)}
              {run.maxIteration + 1 !== run.decisions ? (
                <span className="muted"> (highest #{run.maxIteration})</span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt>Roles</dt>
            <dd>{run.roles.join(", ")}</dd>
          </div>
          <div>
            <dt>Modes</dt>
            <dd>{run.modes.join(", ")}</dd>
          </div>
          <div>
            <dt>First seen</dt>
            <dd>
              <LocalTime iso={run.firstSeen} />
            </dd>
          </div>
          <div>
            <dt>Last seen</dt>
            <dd>
              <LocalTime iso={run.lastSeen} />
            </dd>
          </div>
          <div>
            <dt>Dropped tokens (est.)</dt>
            <dd>{formatCount(run.droppedTokens)}</dd>
          </div>
          <div>
            <dt>Reinstatements</dt>
            <dd>{formatCount(run.reinstatements)}</dd>
          </div>
          <div>
            <dt>Empty-palette warnings</dt>
            <dd>{formatCount(run.emptyPaletteWarnings)}</dd>
          </div>
          <div>
            <dt>Stage errors</dt>
            <dd>{formatCount(run.stageErrors)}</dd>
          </div>
          <div>
            <dt>Harmful drops</dt>
            <dd>{formatCount(run.harmfulDrops)}</dd>
          </div>
        </dl>
        {marks.length > 0 ? (
          <div className="issue-jump">
            <h2 className="small-heading">Iterations with issues</h2>
            <ul className="issue-links">
              {marks.map((mark) => (
                <li key={mark.position}>
                  <Link
                    href={`${runTraceHref(tenant, runId, {
                      page: Math.floor(mark.position / TRACE_PAGE_SIZE) + 1,
                    })}#iteration-${mark.iteration}`}
                    title={describeIssues(mark)}
                    className={`is-${issueTone(mark)}`}
                  >
                    #{mark.iteration}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>

      <div className="section-head">
        <h2>Iterations</h2>
        <nav className="segmented" aria-label="Which iterations">
          <Link
            href={runTraceHref(tenant, runId)}
            aria-current={search.issues ? undefined : "true"}
          >
            all
          </Link>
          <Link
            href={runTraceHref(tenant, runId, { issues: true })}
            aria-current={search.issues ? "true" : undefined}
          >
            with issues only
          </Link>
        </nav>
      </div>
      <Pager
        info={info}
        hrefFor={(page) => runTraceHref(tenant, runId, { page, issues: search.issues })}
        noun="iterations"
        label="Iteration pages"
      />
      {views.length === 0 ? (
        <p className="panel muted">
          {search.issues ? "No iteration of this run has an issue." : "No iterations stored."}
        </p>
      ) : (
        <ol className="iteration-list" data-testid="iterations">
          {views.map((view) => (
            <IterationCard key={view.key} view={view} open={openAll || view.hasIssues} />
          ))}
        </ol>
      )}
      {info.pageCount > 1 ? (
        <Pager
          info={info}
          hrefFor={(page) => runTraceHref(tenant, runId, { page, issues: search.issues })}
          noun="iterations"
          label="Iteration pages, bottom"
        />
      ) : null}
    </>
  );
}
