/**
 * A tenant's ingest limits on the keys page (docs/LIMITS.md): admins only. The viewer is
 * passed in, so the server action (`key-actions.ts`) stays thin and the rule is tested without
 * a browser. The stored values are read by ingest with each request's key, so a saved change
 * applies to the tenant's next request.
 */
import "server-only";
import { listTenantLimits, setTenantLimits, UnknownTenantError } from "@/lib/ingest/limit-settings";
import { defaultIngestLimits } from "@/lib/ingest/limits";
import {
  INGEST_LIMIT_FIELDS,
  type IngestLimitOverrides,
  type IngestLimits,
  ingestLimitsFormSchema,
} from "@/lib/schemas/ingest-limits";
import type { Viewer } from "./access";
import { recordAudit } from "./audit";
import { type FormState, formError, readForm, typedValues } from "./form-state";

/** What the limits section shows an admin: the defaults and every tenant's own values. */
export interface LimitsSectionData {
  defaults: IngestLimits;
  tenants: { tenantId: string; overrides: IngestLimitOverrides; updatedAt: string | null }[];
}

/** The limits section for `viewer`, or null for anyone but an admin. */
export async function loadLimitsSection(viewer: Viewer): Promise<LimitsSectionData | null> {
  if (!viewer.isAdmin) return null;
  const tenants = await listTenantLimits();
  return {
    defaults: defaultIngestLimits(),
    tenants: tenants.map((row) => ({
      tenantId: row.tenantId,
      overrides: row.overrides,
      updatedAt: row.updatedAt?.toISOString() ?? null,
    })),
  };
}

const ADMINS_ONLY = "Only an admin of this Routelens changes a tenant's ingest limits.";

/**
 * Saves the limits form for `viewer` (an admin): each field a whole number, or empty for the
 * default. Writes an `ingest-limits-changed` audit row with the values saved.
 */
export async function saveLimitsAs(
  viewer: Viewer,
  form: FormData,
  requestHeaders: Headers | null = null,
): Promise<FormState> {
  if (!viewer.isAdmin) return { error: ADMINS_ONLY };
  const read = readForm(ingestLimitsFormSchema, form);
  if (!read.ok) return read.state;
  const { limitsTenant: tenant, ...values } = read.data;
  const overrides = Object.fromEntries(
    INGEST_LIMIT_FIELDS.map((field) => [field, (values[field] as number | null) ?? null]),
  ) as IngestLimitOverrides;
  try {
    await setTenantLimits(tenant, overrides, viewer.userId);
  } catch (error) {
    if (error instanceof UnknownTenantError) {
      return formError("limitsTenant", "is not a tenant: pick one of the list", typedValues(form));
    }
    throw error;
  }
  const stored = Object.fromEntries(
    INGEST_LIMIT_FIELDS.filter((field) => overrides[field] !== null).map((field) => [
      field,
      overrides[field],
    ]),
  );
  await recordAudit({
    action: "ingest-limits-changed",
    actorId: viewer.userId,
    actorEmail: viewer.email,
    tenantId: tenant,
    target: tenant,
    detail: stored,
    headers: requestHeaders,
  });
  const count = Object.keys(stored).length;
  return {
    done:
      count === 0
        ? `Tenant ${tenant} has the default ingest limits again, from its next request.`
        : `Ingest limits of tenant ${tenant} saved (${count} of its own, the rest default); they apply from its next request.`,
  };
}
