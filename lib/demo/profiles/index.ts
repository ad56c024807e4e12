/** The demo tenants: one profile per business domain. */
import { analyticsProfile } from "./analytics";
import { pricingProfile } from "./pricing";
import { supportProfile } from "./support";
import type { TenantProfile } from "./types";

export * from "./types";

export const DEMO_PROFILES: readonly TenantProfile[] = [
  pricingProfile,
  supportProfile,
  analyticsProfile,
];

export const DEMO_TENANT_IDS: readonly string[] = DEMO_PROFILES.map((p) => p.tenantId);

/**
 * The profiles named in a comma-separated list of keys or tenant ids ("support,pricing" or
 * "demo-support"); "all" or an empty list means every profile. Throws naming an unknown one.
 */
export function selectProfiles(list: string): TenantProfile[] {
  const names = list
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  if (names.length === 0 || names.includes("all")) return [...DEMO_PROFILES];
  return [...new Set(names)].map((name) => {
    const profile = DEMO_PROFILES.find((p) => p.key === name || p.tenantId === name);
    if (!profile) {
      const known = DEMO_PROFILES.map((p) => p.key).join(", ");
      throw new RangeError(`unknown demo tenant "${name}" (known: ${known}, or all)`);
    }
    return profile;
  });
}
