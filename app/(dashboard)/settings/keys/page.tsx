import type { Metadata } from "next";
import { CreateKeyForm } from "@/components/settings/create-key-form";
import { IngestLimitsForm } from "@/components/settings/ingest-limits-form";
import { IngestLimitsTable } from "@/components/settings/ingest-limits-table";
import { KeysTable } from "@/components/settings/keys-table";
import { PageHeader } from "@/components/ui/page-header";
import { requireViewer } from "@/lib/auth/access";
import { loadKeysPage } from "@/lib/auth/key-management";
import { loadLimitsSection } from "@/lib/auth/limit-management";

export const metadata: Metadata = { title: "Ingest keys" };

/** Ingest keys of the tenants the viewer maintains (every tenant for an admin). */
export default async function KeysPage() {
  const viewer = await requireViewer();
  const [page, limits] = await Promise.all([loadKeysPage(viewer), loadLimitsSection(viewer)]);
  const subtitle = (
    <>
      Agents send events to <code>/api/ingest</code> with{" "}
      <code>Authorization: Bearer &lt;key&gt;</code>. A key is shown once, when it is created; a
      revoked key is refused from its next request.
    </>
  );

  if (!page.canManage) {
    const tenants = [...viewer.roles.keys()].sort();
    return (
      <>
        <PageHeader title="Ingest keys" subtitle={subtitle} />
        <section className="panel" data-testid="keys-not-maintainer">
          <p>
            A tenant's ingest keys are created and revoked by a maintainer of that tenant or by an
            admin of this Routelens.{" "}
            {tenants.length > 0
              ? `You read ${tenants.join(", ")} as a viewer; ask one of its maintainers for a key, or to make you a maintainer.`
              : "You are not a member of any tenant yet; ask an admin to add you to one."}
          </p>
        </section>
      </>
    );
  }

  return (
    <>
      <PageHeader title="Ingest keys" subtitle={subtitle} />
      <section className="panel" aria-labelledby="create-key-title">
        <h2 id="create-key-title">Create a key</h2>
        {page.tenantChoices.length === 0 && !page.canCreateTenant ? (
          <p className="muted">No tenant to create a key for.</p>
        ) : (
          <CreateKeyForm tenants={page.tenantChoices} canCreateTenant={page.canCreateTenant} />
        )}
      </section>
      <section aria-labelledby="keys-title">
        <div className="section-head">
          <h2 id="keys-title">Keys</h2>
        </div>
        {page.keys.length === 0 ? (
          <p className="panel" data-testid="keys-empty">
            {page.canCreateTenant && page.tenantChoices.length === 0
              ? "No tenants and no keys yet. Type a tenant id above and create its first key: the tenant is created with it, and your agents send events with the key."
              : "No keys yet. Create one above, give it to your agent as its Bearer token, and its events appear on the overview and runs pages."}
          </p>
        ) : (
          <KeysTable rows={page.keys} />
        )}
      </section>
      {limits ? (
        <section className="panel" aria-labelledby="ingest-limits-title">
          <h2 id="ingest-limits-title">Ingest limits</h2>
          <p className="muted">
            Events per second with a burst, and requests in progress at once, for each tenant (all
            its keys together) and for each of its keys, per server process. Beyond them ingest
            answers 429 with Retry-After and stores nothing of the request. An empty field takes the
            default (set by the <code>ROUTELENS_INGEST_*</code> variables); a change applies to the
            tenant's next request. See docs/LIMITS.md.
          </p>
          <IngestLimitsTable section={limits} />
          <IngestLimitsForm section={limits} />
        </section>
      ) : null}
    </>
  );
}
