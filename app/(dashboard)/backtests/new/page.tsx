import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { BacktestForm } from "@/components/backtests/backtest-form";
import { PageHeader } from "@/components/ui/page-header";
import { canMaintain, maintainedTenants, requireViewer, scopeOf } from "@/lib/auth/access";
import {
  type BacktestFormValues,
  initialFormValues,
  rerunFormValues,
  type StoredConfigChoice,
  storedConfigChoice,
} from "@/lib/backtest/form-values";
import { getBacktest } from "@/lib/db/queries/backtests";
import { listTenantRolePairs } from "@/lib/db/queries/overview";
import { listStoredConfigVersions } from "@/lib/db/queries/routing-configs";
import { listTenantIds } from "@/lib/db/queries/tenants";
import { newBacktestSearchSchema } from "@/lib/schemas/backtest-pages";
import { parseSearchParams, type RawSearchParams } from "@/lib/schemas/dashboard";

export const metadata: Metadata = { title: "New backtest" };

/**
 * A new backtest, for a tenant the viewer maintains (any tenant for an admin). The configs
 * pages link here with `?tenant=&config=<version>`; a backtest's Run again with `?rerun=<id>`.
 */
export default async function NewBacktestPage({
  searchParams,
}: {
  searchParams: Promise<RawSearchParams>;
}) {
  const search = parseSearchParams(newBacktestSearchSchema, await searchParams);
  const viewer = await requireViewer();
  const scope = scopeOf(viewer);
  const maintained = maintainedTenants(viewer);
  if (maintained !== null && maintained.length === 0) notFound();
  const tenants = maintained?.sort() ?? (await listTenantIds(scope));

  const [pairs, versions] = await Promise.all([
    listTenantRolePairs(scope),
    Promise.all(tenants.map((tenant) => listStoredConfigVersions(scope, tenant))),
  ]);
  const rolesByTenant: Record<string, string[]> = {};
  for (const { tenant, role } of pairs) {
    rolesByTenant[tenant] = [...(rolesByTenant[tenant] ?? []), role];
  }
  const configsByTenant: Record<string, StoredConfigChoice[]> = {};
  tenants.forEach((tenant, index) => {
    configsByTenant[tenant] = (versions[index] ?? []).map(storedConfigChoice);
  });

  const rerun = search.rerun ? await getBacktest(search.rerun, scope) : null;
  const tenant =
    search.tenant !== undefined && tenants.includes(search.tenant) ? search.tenant : tenants[0];
  const initial: BacktestFormValues =
    rerun && canMaintain(viewer, rerun.tenantId)
      ? rerunFormValues(rerun)
      : initialFormValues(tenant, search.config, (configsByTenant[tenant ?? ""] ?? []).length > 0);

  return (
    <>
      <PageHeader
        title="New backtest"
        subtitle={
          <>
            <Link href="/backtests">Backtests</Link> · every recorded decision in the window is
            replayed through the candidate in enforce mode and joined with what the model called.
          </>
        }
      />
      <section className="panel" aria-label="Backtest">
        <BacktestForm
          tenants={tenants}
          rolesByTenant={rolesByTenant}
          configsByTenant={configsByTenant}
          initial={initial}
          now={new Date().toISOString()}
        />
      </section>
    </>
  );
}
