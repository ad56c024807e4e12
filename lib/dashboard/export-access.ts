/**
 * Who may download what. Every CSV download passes through here (from `csvExportRoute`) after
 * its query is read and before anything is loaded, so the rule covers every export: no
 * signed-in user → 401; a tenant the user may not read → 404, as if it did not exist;
 * otherwise the user's tenant scope, which the loader's queries take.
 */
import "server-only";
import { canRead, scopeOf, type TenantScope, viewerOfRequest } from "@/lib/auth/access";

/** The query fields an access rule can look at. */
export interface ExportScope {
  tenant?: string | undefined;
}

/** The viewer's scope when the request may go on; otherwise the response that refuses it. */
export async function checkExportAccess(
  request: Request,
  query: ExportScope,
): Promise<TenantScope | Response> {
  const viewer = await viewerOfRequest(request);
  if (!viewer) {
    return Response.json(
      { error: "Sign in to download: this export needs a signed-in user." },
      { status: 401, headers: { "Cache-Control": "no-store" } },
    );
  }
  if (query.tenant !== undefined && !canRead(viewer, query.tenant)) {
    return Response.json({ error: "No such tenant." }, { status: 404 });
  }
  return scopeOf(viewer);
}
