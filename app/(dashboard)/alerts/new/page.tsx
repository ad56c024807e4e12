import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RuleForm } from "@/components/alerts/rule-form";
import { PageHeader } from "@/components/ui/page-header";
import { maintainedTenants, requireViewer, scopeOf } from "@/lib/auth/access";
import { listTenantIds } from "@/lib/db/queries/tenants";

export const metadata: Metadata = { title: "New alert rule" };

/** A new alert rule, for a tenant the viewer maintains (any tenant, or all, for an admin). */
export default async function NewAlertRulePage() {
  const viewer = await requireViewer();
  const maintained = maintainedTenants(viewer);
  if (maintained !== null && maintained.length === 0) notFound();
  const tenants = maintained?.sort() ?? (await listTenantIds(scopeOf(viewer)));
  return (
    <>
      <PageHeader
        title="New alert rule"
        subtitle="The rule is evaluated every minute from the rollups. Its value over its window now is shown below as you fill it in."
      />
      <section className="panel" aria-label="Rule">
        <RuleForm tenants={tenants} allowAllTenants={viewer.isAdmin} />
      </section>
    </>
  );
}
