import type { Metadata } from "next";
import Link from "next/link";
import { LocalTime } from "@/components/ui/local-time";
import { PageHeader } from "@/components/ui/page-header";
import { requireViewer, scopeOf } from "@/lib/auth/access";
import { configHref } from "@/lib/configs/links";
import { listTenantConfigs } from "@/lib/db/queries/routing-configs";

export const metadata: Metadata = { title: "Routing configs" };

/** The tenants the viewer reads, each with its current routing config version (SPEC §10). */
export default async function ConfigsPage() {
  const viewer = await requireViewer();
  const tenants = await listTenantConfigs(scopeOf(viewer));
  return (
    <>
      <PageHeader
        title="Routing configs"
        subtitle="Each tenant's routing configuration as data: palettes per role, trigger keywords, policy and catalogue, with every saved version. Maintainers save new versions here or from CI (PUT /api/configs/<tenant>)."
      />
      {tenants.length === 0 ? (
        <p className="panel" data-testid="configs-empty">
          No tenants yet. Routing configs are stored per tenant.
        </p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" data-testid="configs-table">
            <caption className="visually-hidden">Tenants and their current routing config</caption>
            <thead>
              <tr>
                <th>Tenant</th>
                <th>Current version</th>
                <th className="num">Versions</th>
                <th>Saved</th>
                <th>By</th>
                <th>Note</th>
              </tr>
            </thead>
            <tbody>
              {tenants.map(({ tenantId, current, revisions }) => (
                <tr key={tenantId}>
                  <td>
                    <Link className="cell-link" href={configHref(tenantId)}>
                      {tenantId}
                    </Link>
                  </td>
                  {current ? (
                    <>
                      <td className="mono small">{current.configVersion}</td>
                      <td className="num">{revisions}</td>
                      <td>
                        <LocalTime iso={current.savedAt.toISOString()} style="short" />
                      </td>
                      <td className="small">
                        {current.authorKind === "key" ? "API key · " : ""}
                        {current.authorName}
                      </td>
                      <td className="small">{current.note ?? ""}</td>
                    </>
                  ) : (
                    <td colSpan={5} className="muted small">
                      No config stored yet.
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
