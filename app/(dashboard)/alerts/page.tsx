import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { RulesTable } from "@/components/alerts/rules-table";
import { PageHeader } from "@/components/ui/page-header";
import { prepareRuleViews, ruleHref } from "@/lib/alerts/rule-view";
import { maintainedTenants, requireViewer, scopeOf } from "@/lib/auth/access";
import { listRules } from "@/lib/db/queries/alerts";
import { alertsSearchSchema } from "@/lib/schemas/alert-pages";
import { parseSearchParams, type RawSearchParams } from "@/lib/schemas/dashboard";

export const metadata: Metadata = { title: "Alerts" };

/** The alert rules of the viewer's tenants with their state and last value (SPEC §9). */
export default async function AlertsPage({
  searchParams,
}: {
  searchParams: Promise<RawSearchParams>;
}) {
  // Messages link to `/alerts?rule=<id>`: the rule's own page.
  const { rule } = parseSearchParams(alertsSearchSchema, await searchParams);
  if (rule) redirect(ruleHref(rule));
  const viewer = await requireViewer();
  const now = new Date();
  const rules = await listRules(scopeOf(viewer));
  const maintained = maintainedTenants(viewer);
  const canCreate = maintained === null || maintained.length > 0;
  return (
    <>
      <PageHeader
        title="Alerts"
        subtitle="Rules on routing health, evaluated every minute from the rollups; a rule fires when its metric over its window crosses its threshold, and its channels are told."
        actions={
          canCreate ? (
            <Link href="/alerts/new" className="button button-primary">
              New rule
            </Link>
          ) : null
        }
      />
      {canCreate ? null : (
        <p className="panel notice" data-testid="alerts-read-only">
          You read these rules as a viewer. A tenant's rules are created and changed by its
          maintainers and by admins.
        </p>
      )}
      {rules.length === 0 ? (
        <p className="panel" data-testid="rules-empty">
          {canCreate
            ? "No alert rules yet. Create one to be told when a tenant's routing drops tools the model needs, its palettes come back empty, or its agents go silent."
            : "No alert rules for your tenants yet."}
        </p>
      ) : (
        <RulesTable rows={prepareRuleViews(rules, now)} />
      )}
    </>
  );
}
