/** Links of the config pages: a config version, its rollouts view, a backtest of it. */
import { rolloutsHref, rolloutsView } from "@/lib/rollouts/url";

/** `/configs/<tenant>`, or one stored version of it. */
export function configHref(tenant: string, version?: string): string {
  const path = `/configs/${encodeURIComponent(tenant)}`;
  return version ? `${path}?version=${encodeURIComponent(version)}` : path;
}

export function configEditHref(tenant: string): string {
  return `/configs/${encodeURIComponent(tenant)}/edit`;
}

/** The new-backtest page with this tenant and stored config version chosen. */
export function backtestConfigHref(tenant: string, version: string): string {
  const query = new URLSearchParams({ tenant, config: version });
  return `/backtests/new?${query.toString()}`;
}

/**
 * The rollouts view of the tenant over the last 30 days comparing `version` with the version
 * before it (or with everything before, for the first one).
 */
export function versionRolloutsHref(
  tenant: string,
  version: string,
  previousVersion: string | null,
): string {
  return rolloutsHref(rolloutsView.defaults, {
    range: "30d",
    tenant,
    after: version,
    before: previousVersion ?? undefined,
  });
}
