import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ConfigHistory } from "@/components/configs/config-history";
import { ConfigSummary } from "@/components/configs/config-summary";
import { LocalTime } from "@/components/ui/local-time";
import { PageHeader } from "@/components/ui/page-header";
import { canMaintain, requireViewer, scopeForTenant } from "@/lib/auth/access";
import { prepareConfigView } from "@/lib/configs/config-view";
import { backtestConfigHref, configEditHref, configHref } from "@/lib/configs/links";
import {
  getCurrentRoutingConfig,
  getRoutingConfigVersion,
  getTenantConfigSummary,
  listConfigVersionsWithTraffic,
  listRoutingConfigHistory,
} from "@/lib/db/queries/routing-configs";
import { configPageSearchSchema, configTenantSchema } from "@/lib/schemas/config-api";
import { parseSearchParams, type RawSearchParams } from "@/lib/schemas/dashboard";

export const metadata: Metadata = { title: "Routing config" };

/**
 * One tenant's routing config: the current version (or `?version=`) readable, and its
 * history with what changed at each version. Maintainers get "New version"; everyone who reads
 * the tenant can open a backtest of any version.
 */
export default async function TenantConfigPage({
  params,
  searchParams,
}: {
  params: Promise<{ tenant: string }>;
  searchParams: Promise<RawSearchParams>;
}) {
  const parsedTenant = configTenantSchema.safeParse((await params).tenant);
  if (!parsedTenant.success) notFound();
  const tenant = parsedTenant.data;
  const viewer = await requireViewer();
  const scope = scopeForTenant(viewer, tenant);
  const summary = await getTenantConfigSummary(scope, tenant);
  if (!summary) notFound();
  const { version, saved, changed } = parseSearchParams(configPageSearchSchema, await searchParams);
  const [shown, current, history] = await Promise.all([
    version
      ? getRoutingConfigVersion(scope, tenant, { version })
      : getCurrentRoutingConfig(scope, tenant),
    getCurrentRoutingConfig(scope, tenant),
    listRoutingConfigHistory(scope, tenant),
  ]);
  if (version && !shown) notFound();
  const withTraffic = await listConfigVersionsWithTraffic(
    scope,
    tenant,
    history.map((entry) => entry.configVersion),
  );
  const maintainer = canMaintain(viewer, tenant);
  const isCurrent = shown !== null && shown.revision === current?.revision;

  return (
    <>
      <PageHeader
        title={`Routing config · ${tenant}`}
        subtitle={
          <>
            <Link href="/configs">Routing configs</Link>
            {current ? (
              <>
                {" "}
                · current version <span className="mono">{current.configVersion}</span> (revision{" "}
                {current.revision})
              </>
            ) : null}
          </>
        }
        actions={
          <>
            {shown ? (
              <Link className="button" href={backtestConfigHref(tenant, shown.configVersion)}>
                Backtest this config
              </Link>
            ) : null}
            {maintainer ? (
              <Link className="button button-primary" href={configEditHref(tenant)}>
                New version
              </Link>
            ) : null}
          </>
        }
      />
      {saved ? (
        <p className="panel notice" role="status" data-testid="config-saved">
          {changed === "1"
            ? `Saved: version ${saved} is now the current config.`
            : `Version ${saved} is already the current config: nothing was added to the history.`}
        </p>
      ) : null}
      {maintainer ? null : (
        <p className="panel notice" data-testid="config-read-only">
          You read this tenant's routing config as a viewer: its maintainers and admins save new
          versions.
        </p>
      )}
      {shown ? (
        <section className="panel" aria-labelledby="config-title">
          <h2 id="config-title">
            {isCurrent ? "Current config" : `Revision ${shown.revision}`}{" "}
            <span className="mono small" data-testid="config-version">
              {shown.configVersion}
            </span>
          </h2>
          <p className="muted small">
            Saved <LocalTime iso={shown.savedAt.toISOString()} style="datetime" /> by{" "}
            {shown.authorKind === "key" ? "API key " : ""}
            {shown.authorName}
            {shown.note ? ` — ${shown.note}` : ""}
            {isCurrent ? null : (
              <>
                {" "}
                · <Link href={configHref(tenant)}>Show the current config</Link>
              </>
            )}
          </p>
          <ConfigSummary view={prepareConfigView(shown.config)} />
        </section>
      ) : (
        <p className="panel" data-testid="config-none">
          No routing config stored for {tenant} yet.
          {maintainer ? (
            <>
              {" "}
              <Link href={configEditHref(tenant)}>Save the first version</Link>, or PUT it from CI
              (PUT /api/configs/{tenant}).
            </>
          ) : null}
        </p>
      )}
      {history.length > 0 ? (
        <section className="panel" aria-labelledby="history-title">
          <h2 id="history-title">History</h2>
          <ConfigHistory
            tenant={tenant}
            currentRevision={current?.revision ?? null}
            rows={history.map((entry) => ({
              revision: entry.revision,
              configVersion: entry.configVersion,
              previousVersion: entry.previousVersion,
              savedAt: entry.savedAt.toISOString(),
              authorKind: entry.authorKind,
              authorName: entry.authorName,
              note: entry.note,
              diff: entry.diff,
              hasTraffic: withTraffic.has(entry.configVersion),
            }))}
          />
        </section>
      ) : null}
    </>
  );
}
