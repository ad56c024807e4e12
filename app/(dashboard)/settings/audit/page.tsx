import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { AuditSection } from "@/components/audit/audit-section";
import { FilterForm, SelectField } from "@/components/ui/filter-form";
import { PageHeader } from "@/components/ui/page-header";
import { RangeField } from "@/components/ui/range-field";
import { SectionSkeleton } from "@/components/ui/skeleton";
import { requireViewer } from "@/lib/auth/access";
import { AUDIT_ACTIONS } from "@/lib/auth/audit";
import { auditScopeIncludes, auditScopeOf } from "@/lib/auth/audit-scope";
import { ALL_TENANTS } from "@/lib/auth/scope";
import { resolveTimeRange } from "@/lib/dashboard/time-range";
import type { AuditFilter } from "@/lib/db/queries/audit";
import { listTenantIds } from "@/lib/db/queries/tenants";
import { auditSearchSchema } from "@/lib/schemas/audit";
import { parseSearchParams, type RawSearchParams } from "@/lib/schemas/dashboard";

export const metadata: Metadata = { title: "Audit log" };

const RANGE_OPTIONS = [
  { value: "all", label: "All time" },
  { value: "1h", label: "Last hour" },
  { value: "24h", label: "Last 24 hours" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
] as const;

const ACTION_OPTIONS = Object.entries(AUDIT_ACTIONS).map(([value, words]) => ({
  value,
  label: words,
}));

/**
 * Who did what, when, from where (SPEC §7). Admins read every entry; maintainers the entries
 * of the tenants they maintain and their own actions; anyone else gets the not-found page, as
 * does a tenant filter outside the viewer's audit scope.
 */
export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<RawSearchParams>;
}) {
  const scope = auditScopeOf(await requireViewer());
  if (!scope) notFound();
  const search = parseSearchParams(auditSearchSchema, await searchParams);
  if (search.tenant !== undefined && !auditScopeIncludes(scope, search.tenant)) notFound();
  const range = resolveTimeRange(search, new Date());
  const tenants = scope.all ? await listTenantIds(ALL_TENANTS) : scope.tenants;
  const filter: AuditFilter = {
    scope,
    action: search.action,
    tenant: search.tenant,
    actorPrefix: search.actor,
    period: range,
  };

  return (
    <>
      <PageHeader
        title="Audit log"
        subtitle={
          range?.fellBack
            ? "The custom range was incomplete, so entries of the last 24 hours are shown."
            : scope.all
              ? "Sign-ins, keys, users and roles: who did what, when, from where. Newest first."
              : "Entries of the tenants you maintain, and your own actions. Newest first."
        }
      />
      <FilterForm action="/settings/audit" label="Audit log filters">
        <RangeField
          key={`${range?.preset ?? "all"}|${search.from ?? ""}|${search.to ?? ""}`}
          value={range?.preset ?? "all"}
          options={RANGE_OPTIONS}
          from={search.from ?? range?.from.toISOString()}
          to={search.to ?? range?.to.toISOString()}
        />
        <SelectField
          name="action"
          label="Action"
          value={search.action}
          options={ACTION_OPTIONS}
          allLabel="All actions"
        />
        <SelectField
          name="tenant"
          label="Tenant"
          value={search.tenant}
          options={tenants.map((tenant) => ({ value: tenant, label: tenant }))}
          allLabel="All tenants"
        />
        <label className="field">
          <span>Email starts with</span>
          <input
            type="search"
            name="actor"
            defaultValue={search.actor ?? ""}
            key={search.actor ?? ""}
            maxLength={320}
            placeholder="who, or the email tried"
            spellCheck={false}
          />
        </label>
      </FilterForm>
      <Suspense
        key={JSON.stringify(search)}
        fallback={<SectionSkeleton label="Loading the audit log" rows={8} />}
      >
        <AuditSection search={search} filter={filter} />
      </Suspense>
    </>
  );
}
