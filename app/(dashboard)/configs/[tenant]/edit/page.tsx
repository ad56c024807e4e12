import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ConfigEditor } from "@/components/configs/config-editor";
import { PageHeader } from "@/components/ui/page-header";
import { canMaintain, requireViewer, scopeForTenant } from "@/lib/auth/access";
import { configHref } from "@/lib/configs/links";
import { getCurrentRoutingConfig, getTenantConfigSummary } from "@/lib/db/queries/routing-configs";
import { configTenantSchema } from "@/lib/schemas/config-api";

export const metadata: Metadata = { title: "New routing config version" };

/** A config to start from when a tenant has none: one role, the default always-include. */
const STARTER = {
  roleTools: { action: ["hydrate_context"] },
  alwaysInclude: ["hydrate_context"],
  triggerKeywords: {},
  policy: { maxSafetyLevel: "write" },
};

/**
 * A new version of a tenant's routing config, for its maintainers and admins (anyone else gets
 * the not-found page): paste JSON, upload a file or use the form, preview, save.
 */
export default async function EditConfigPage({ params }: { params: Promise<{ tenant: string }> }) {
  const parsed = configTenantSchema.safeParse((await params).tenant);
  if (!parsed.success) notFound();
  const tenant = parsed.data;
  const viewer = await requireViewer();
  const scope = scopeForTenant(viewer, tenant);
  if (!canMaintain(viewer, tenant)) notFound();
  const summary = await getTenantConfigSummary(scope, tenant);
  if (!summary) notFound();
  const current = await getCurrentRoutingConfig(scope, tenant);
  return (
    <>
      <PageHeader
        title={`New version · ${tenant}`}
        subtitle={
          <>
            <Link href={configHref(tenant)}>Routing config of {tenant}</Link> · starts from{" "}
            {current ? (
              <span className="mono">{current.configVersion}</span>
            ) : (
              "an example (no config stored yet)"
            )}
            . Preview shows the version and what changes before anything is saved.
          </>
        }
      />
      <section className="panel" aria-label="Config">
        <ConfigEditor
          tenant={tenant}
          initialText={JSON.stringify(current?.config ?? STARTER, null, 2)}
        />
      </section>
    </>
  );
}
