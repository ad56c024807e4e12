/**
 * The run trace page's sections: the run's summary with links to its iterations with issues,
 * and one page of its iterations. Each is an async server component reading
 * `lib/db/queries/run-trace`.
 */
import Link from "next/link";
import { formatCount } from "@/lib/dashboard/format";
import { describeIssues, issueTone } from "@/lib/dashboard/issue-kinds";
import { describePage } from "@/lib/dashboard/pagination";
import { groupToolRuns } from "@/lib/dashboard/tool-runs";
import { prepareRunTrace } from "@/lib/dashboard/trace";
import type { RunRow } from "@/lib/dashboard/types";
import { runTraceHref } from "@/lib/dashboard/url";
import {
  countRunDecisions,
  countRunDecisionsWithIssues,
  type IterationMark,
  listPageSpans,
  listRunDecisions,
  listRunIssueMarks,
  listRunOutcomes,
} from "@/lib/db/queries/run-trace";
import { type RunTraceSearch, TRACE_PAGE_SIZE } from "@/lib/schemas/dashboard";
import { LocalTime } from "../ui/local-time";
import { Pager } from "../ui/pager";
import { IterationCard } from "./iteration-card";

/** Iterations, roles, modes, first and last seen, tokens and issue counts of the run. */
function RunFigures({ run }: { run: RunRow }) {
  return (
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
  );
}

/** A link per iteration with an issue, to its place on its page. */
function IssueLinks({
  tenant,
  runId,
  marks,
}: {
  tenant: string;
  runId: string;
  marks: IterationMark[];
}) {
  if (marks.length === 0) return null;
  return (
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
              prefetch={false}
            >
              #{mark.iteration}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export async function RunSummarySection({
  tenant,
  runId,
  run,
}: {
  tenant: string;
  runId: string;
  run: RunRow;
}) {
  const marks = await listRunIssueMarks(tenant, runId);
  return (
    <section className="panel" aria-label="Run summary">
      <RunFigures run={run} />
      <IssueLinks tenant={tenant} runId={runId} marks={marks} />
    </section>
  );
}

/** One page of the run's iterations (all, or those with issues) and their outcomes. */
async function loadIterations(tenant: string, runId: string, search: RunTraceSearch) {
  const total = await (search.issues ? countRunDecisionsWithIssues : countRunDecisions)(
    tenant,
    runId,
  );
  const info = describePage(search.page, TRACE_PAGE_SIZE, total);
  const decisions = await listRunDecisions(tenant, runId, {
    offset: info.offset,
    limit: TRACE_PAGE_SIZE,
    issuesOnly: search.issues,
  });
  const iterations = decisions.map((decision) => decision.iteration);
  const [outcomes, spans] = await Promise.all([
    decisions.length > 0
      ? listRunOutcomes(tenant, runId, Math.min(...iterations), Math.max(...iterations))
      : [],
    listPageSpans(
      tenant,
      runId,
      decisions.map((decision) => decision.id),
    ),
  ]);
  const toolRuns = groupToolRuns(spans.calls, spans.toolRuns);
  return { info, views: prepareRunTrace(decisions, outcomes, toolRuns) };
}

export async function IterationsSection({
  tenant,
  runId,
  search,
}: {
  tenant: string;
  runId: string;
  search: RunTraceSearch;
}) {
  const { info, views } = await loadIterations(tenant, runId, search);
  const openAll = views.length <= 5;
  const hrefFor = (page: number) => runTraceHref(tenant, runId, { page, issues: search.issues });
  return (
    <>
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
      <Pager info={info} hrefFor={hrefFor} noun="iterations" label="Iteration pages" />
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
        <Pager info={info} hrefFor={hrefFor} noun="iterations" label="Iteration pages, bottom" />
      ) : null}
    </>
  );
}
