import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { BacktestReplaySection } from "@/components/run-trace/backtest-replay-section";
import { IterationsSection, RunSummarySection } from "@/components/run-trace/run-trace-sections";
import { DownloadLink } from "@/components/ui/download-link";
import { PageHeader } from "@/components/ui/page-header";
import { requireScope } from "@/lib/auth/access";
import { readRunId, runExportHref, runsHref, runsView, runTraceHref } from "@/lib/dashboard/url";
import { getRun, listTenantsOfRun } from "@/lib/db/queries/runs";
import {
  parseSearchParams,
  type RawSearchParams,
  RUN_EXPORT_ROW_LIMIT,
  runTraceSearchSchema,
} from "@/lib/schemas/dashboard";

interface Props {
  params: Promise<{ runId: string }>;
  searchParams: Promise<RawSearchParams>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const runId = readRunId((await params).runId);
  return { title: runId === null ? "Run not found" : `Run ${runId.slice(0, 60)}` };
}

/** Run ids are unique per tenant only: without `tenant`, a run id may name several runs. */
function TenantChoice({ runId, tenants }: { runId: string; tenants: string[] }) {
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

export default async function RunTracePage({ params, searchParams }: Props) {
  const runId = readRunId((await params).runId);
  if (runId === null) notFound();
  const search = parseSearchParams(runTraceSearchSchema, await searchParams);

  const scope = await requireScope(search.tenant);
  const tenants = search.tenant ? [search.tenant] : await listTenantsOfRun(runId, scope);
  if (tenants.length > 1) return <TenantChoice runId={runId} tenants={tenants} />;
  const tenant = tenants[0];
  const run = tenant === undefined ? null : await getRun(tenant, runId);
  if (tenant === undefined || !run) notFound();

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
      {search.backtest !== undefined && search.iteration !== undefined ? (
        <BacktestReplaySection
          scope={scope}
          tenant={tenant}
          runId={runId}
          backtestId={search.backtest}
          iteration={search.iteration}
        />
      ) : null}
      <RunSummarySection tenant={tenant} runId={runId} run={run} />
      <IterationsSection tenant={tenant} runId={runId} search={search} />
    </>
  );
}
