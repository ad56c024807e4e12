/**
 * A tenant's stored ingest limits (`tenant_ingest_limits`), as admins read and change them
 * (docs/LIMITS.md). Ingest reads them with the key
 * (`authenticateApiKey` in lib/keys.ts), so a change applies to the tenant's next request.
 */
import { getPrisma } from "@/lib/db/client";
import {
  INGEST_LIMIT_FIELDS,
  type IngestLimitOverrides,
  NO_OVERRIDES,
} from "@/lib/schemas/ingest-limits";

export class UnknownTenantError extends Error {
  override name = "UnknownTenantError";
}

/** A tenant with its stored values (null: the default). */
export interface TenantLimitsRow {
  tenantId: string;
  overrides: IngestLimitOverrides;
  /** When they were last saved; null when the tenant has none. */
  updatedAt: Date | null;
}

function overridesOf(row: Partial<IngestLimitOverrides> | null | undefined): IngestLimitOverrides {
  const overrides = { ...NO_OVERRIDES };
  if (row) for (const field of INGEST_LIMIT_FIELDS) overrides[field] = row[field] ?? null;
  return overrides;
}

/** Every tenant (demo tenants too) with its stored limits, by id; at most `limit`. */
export async function listTenantLimits(limit = 2_000): Promise<TenantLimitsRow[]> {
  const tenants = await getPrisma().tenant.findMany({
    select: { id: true, ingestLimits: true },
    orderBy: { id: "asc" },
    take: limit,
  });
  return tenants.map((tenant) => ({
    tenantId: tenant.id,
    overrides: overridesOf(tenant.ingestLimits),
    updatedAt: tenant.ingestLimits?.updatedAt ?? null,
  }));
}

/** The stored limits of `tenantId`; throws `UnknownTenantError` when there is no such tenant. */
export async function getTenantLimits(tenantId: string): Promise<TenantLimitsRow> {
  const tenant = await getPrisma().tenant.findUnique({
    where: { id: tenantId },
    select: { id: true, ingestLimits: true },
  });
  if (!tenant) throw new UnknownTenantError(`No tenant "${tenantId}".`);
  return {
    tenantId: tenant.id,
    overrides: overridesOf(tenant.ingestLimits),
    updatedAt: tenant.ingestLimits?.updatedAt ?? null,
  };
}

/**
 * Stores `overrides` as the tenant's limits (null: the default); all null deletes the row.
 * `updatedBy` is the admin's user id; the command line leaves it empty. Throws
 * `UnknownTenantError` when there is no such tenant.
 */
export async function setTenantLimits(
  tenantId: string,
  overrides: IngestLimitOverrides,
  updatedBy: string | null = null,
): Promise<TenantLimitsRow> {
  const prisma = getPrisma();
  const exists = await prisma.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
  if (!exists) throw new UnknownTenantError(`No tenant "${tenantId}".`);
  const values = overridesOf(overrides);
  if (INGEST_LIMIT_FIELDS.every((field) => values[field] === null)) {
    await prisma.tenantIngestLimits.deleteMany({ where: { tenantId } });
    return { tenantId, overrides: values, updatedAt: null };
  }
  const saved = await prisma.tenantIngestLimits.upsert({
    where: { tenantId },
    create: { tenantId, ...values, updatedBy },
    update: { ...values, updatedBy, updatedAt: new Date() },
  });
  return { tenantId, overrides: overridesOf(saved), updatedAt: saved.updatedAt };
}
