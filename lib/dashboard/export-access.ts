/**
 * Who may download what. Every CSV download passes through here (from `csvExportRoute`) after
 * its query is read and before anything is loaded, so a rule added here covers every export.
 *
 * Today the dashboard has no accounts: whoever reaches it reads every tenant, and nothing is
 * refused. With accounts (SPEC: scoping), this is where an unauthenticated request gets 401 and
 * a tenant the user may not read gets 404, as if it did not exist.
 */

/** The query fields an access rule can look at. */
export interface ExportScope {
  tenant?: string | undefined;
}

/** Null when the request may go on; otherwise the response that refuses it. */
export async function checkExportAccess(
  _request: Request,
  _scope: ExportScope,
): Promise<Response | null> {
  return null;
}
