/**
 * Tenants and their API keys. A key is shown once, when it is created; the database keeps
 * only its SHA-256 hash and a short prefix that identifies it in lists and for revocation.
 *
 * A key has one scope: `ingest` keys send events (and nothing else); `configs` keys read and
 * change their tenant's routing configuration through `/api/configs/<tenant>` (for CI
 * pipelines) and cannot ingest. Only a tenant's maintainers and admins create keys.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { TenantScope } from "@/lib/auth/scope";
import { getPool, getPrisma } from "@/lib/db/client";
import type { ApiKeyScope } from "@/lib/schemas/accounts";
import {
  INGEST_LIMIT_FIELDS,
  type IngestLimitField,
  type IngestLimitOverrides,
  NO_OVERRIDES,
} from "@/lib/schemas/ingest-limits";
import { tenantIdSchema } from "@/lib/schemas/tenant";

const KEY_PREFIX_LENGTH = 12;

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export interface CreatedKey {
  key: string;
  prefix: string;
  tenantId: string;
  scope: ApiKeyScope;
}

/** A new random key with what the database keeps of it: its prefix and hash. */
export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = `rl_${randomBytes(24).toString("base64url")}`;
  return { key, prefix: key.slice(0, KEY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

/**
 * Creates the tenant if needed and a new key for it. The key itself is never stored.
 * `createdBy` is the user who made it in the dashboard; the command line leaves it empty.
 */
export async function createApiKey(
  tenantId: string,
  {
    label,
    isDemo = false,
    createdBy = null,
    scope = "ingest",
  }: {
    label?: string | undefined;
    isDemo?: boolean;
    createdBy?: string | null;
    scope?: ApiKeyScope;
  } = {},
): Promise<CreatedKey> {
  const tenant = tenantIdSchema.parse(tenantId);
  const { key, prefix, hash } = generateApiKey();
  const prisma = getPrisma();
  await prisma.$transaction([
    prisma.tenant.upsert({
      where: { id: tenant },
      create: { id: tenant, isDemo },
      update: {},
    }),
    prisma.apiKey.create({
      data: { id: randomUUID(), tenantId: tenant, prefix, hash, label, createdBy, scope },
    }),
  ]);
  return { key, prefix, tenantId: tenant, scope };
}

export interface ApiKeySummary {
  prefix: string;
  tenantId: string;
  /** What the key may do: `ingest` or `configs`. */
  scope: string;
  label: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const SUMMARY_FIELDS = {
  prefix: true,
  tenantId: true,
  scope: true,
  label: true,
  createdAt: true,
  revokedAt: true,
  lastUsedAt: true,
} as const;

export async function listApiKeys(): Promise<ApiKeySummary[]> {
  return getPrisma().apiKey.findMany({
    select: SUMMARY_FIELDS,
    orderBy: [{ tenantId: "asc" }, { createdAt: "asc" }],
  });
}

/** A key as the settings page lists it: with its id (for revocation) and its creator's email. */
export interface ManagedKey extends ApiKeySummary {
  id: string;
  /** The creator's email; null for keys made by `npm run keys` (or whose creator was removed). */
  creatorEmail: string | null;
}

const MANAGED_FIELDS = {
  ...SUMMARY_FIELDS,
  id: true,
  creator: { select: { email: true } },
} as const;

/** At most this many keys are listed at once (far more than any tenant keeps). */
export const MANAGED_KEYS_LIMIT = 2_000;

/** The keys of the tenants in `scope`, by tenant, newest first. */
export async function listApiKeysInScope(scope: TenantScope): Promise<ManagedKey[]> {
  const rows = await getPrisma().apiKey.findMany({
    where: scope.all ? {} : { tenantId: { in: [...scope.tenants] } },
    select: MANAGED_FIELDS,
    orderBy: [{ tenantId: "asc" }, { createdAt: "desc" }, { prefix: "asc" }],
    take: MANAGED_KEYS_LIMIT,
  });
  return rows.map(({ creator, ...key }) => ({ ...key, creatorEmail: creator?.email ?? null }));
}

export type RevokeInScopeResult =
  | { status: "revoked"; key: ApiKeySummary }
  | { status: "already-revoked"; key: ApiKeySummary }
  | { status: "not-found" };

/**
 * Revokes the key with this id when it belongs to a tenant in `scope`. A key of another
 * tenant is answered exactly like a key that does not exist.
 */
export async function revokeApiKeyInScope(
  id: string,
  scope: TenantScope,
): Promise<RevokeInScopeResult> {
  const prisma = getPrisma();
  const where = scope.all ? { id } : { id, tenantId: { in: [...scope.tenants] } };
  const found = await prisma.apiKey.findFirst({ where, select: SUMMARY_FIELDS });
  if (!found) return { status: "not-found" };
  if (found.revokedAt) return { status: "already-revoked", key: found };
  // Only an active key is revoked, so a second click cannot move the revocation time.
  const revokedAt = new Date();
  const { count } = await prisma.apiKey.updateMany({
    where: { ...where, revokedAt: null },
    data: { revokedAt },
  });
  if (count === 0) {
    const again = await prisma.apiKey.findFirst({ where, select: SUMMARY_FIELDS });
    return again ? { status: "already-revoked", key: again } : { status: "not-found" };
  }
  return { status: "revoked", key: { ...found, revokedAt } };
}

export class KeyNotFoundError extends Error {
  override name = "KeyNotFoundError";
}

/**
 * Revokes the one active key whose prefix matches `prefixOrKey` (the prefix `keys list`
 * shows, or the whole key). Refuses an ambiguous or too-short prefix.
 */
export async function revokeApiKey(prefixOrKey: string): Promise<ApiKeySummary> {
  if (prefixOrKey.length < 6) {
    throw new KeyNotFoundError("Give at least 6 characters of the key prefix (see `keys list`).");
  }
  const prefix = prefixOrKey.slice(0, KEY_PREFIX_LENGTH);
  const prisma = getPrisma();
  const matches = await prisma.apiKey.findMany({
    where: { prefix: { startsWith: prefix }, revokedAt: null },
  });
  if (matches.length === 0) {
    throw new KeyNotFoundError(`No active key starts with "${prefix}" (see \`keys list\`).`);
  }
  if (matches.length > 1) {
    const names = matches.map((m) => m.prefix).join(", ");
    throw new KeyNotFoundError(`"${prefix}" matches several keys (${names}); give more of it.`);
  }
  const [match] = matches;
  if (!match) throw new KeyNotFoundError(`No active key starts with "${prefix}".`);
  return prisma.apiKey.update({
    where: { id: match.id },
    data: { revokedAt: new Date() },
    select: SUMMARY_FIELDS,
  });
}

/** An active ingest key: its tenant, and the tenant's stored ingest limits. */
export interface IngestKey {
  tenantId: string;
  keyId: string;
  prefix: string;
  /** The tenant's own limits (null: the default applies). */
  limits: IngestLimitOverrides;
}

/**
 * The active ingest key `key` is, with its tenant's stored ingest limits, or null (also for a
 * `configs` key). Reads the database every time, so a revoked key is refused at once and an
 * admin's change of limits applies to the next request.
 */
export async function authenticateApiKey(key: string): Promise<IngestKey | null> {
  if (!key.startsWith("rl_") || key.length > 200) return null;
  // One round trip: find the active key and its tenant's limits, and record the key's use at
  // most once a minute.
  const { rows } = await getPool().query<
    { tenant_id: string; id: string; prefix: string } & {
      [field in IngestLimitField]: number | null;
    }
  >(
    `WITH found AS (
       SELECT id, tenant_id, prefix, last_used_at FROM api_keys
        WHERE hash = $1 AND revoked_at IS NULL AND scope = 'ingest'
     ),
     touched AS (
       UPDATE api_keys SET last_used_at = now()
         FROM found
        WHERE api_keys.id = found.id
          AND (found.last_used_at IS NULL OR found.last_used_at < now() - interval '1 minute')
     )
     SELECT found.tenant_id, found.id, found.prefix,
            l.tenant_events_per_second AS "tenantEventsPerSecond", l.tenant_burst AS "tenantBurst",
            l.tenant_concurrent_requests AS "tenantConcurrentRequests",
            l.key_events_per_second AS "keyEventsPerSecond", l.key_burst AS "keyBurst",
            l.key_concurrent_requests AS "keyConcurrentRequests"
       FROM found LEFT JOIN tenant_ingest_limits l ON l.tenant_id = found.tenant_id`,
    [hashApiKey(key)],
  );
  const row = rows[0];
  if (!row) return null;
  const limits = { ...NO_OVERRIDES };
  for (const field of INGEST_LIMIT_FIELDS) limits[field] = row[field];
  return { tenantId: row.tenant_id, keyId: row.id, prefix: row.prefix, limits };
}

/** An active key as the configs API sees it. */
export interface AuthenticatedKey {
  id: string;
  tenantId: string;
  prefix: string;
  scope: string;
}

/**
 * The active key `key` is, whatever its scope (the caller decides what the scope allows), or
 * null. Records its use at most once a minute, like ingest.
 */
export async function findActiveApiKey(key: string): Promise<AuthenticatedKey | null> {
  if (!key.startsWith("rl_") || key.length > 200) return null;
  const { rows } = await getPool().query<AuthenticatedKey>(
    `WITH found AS (
       SELECT id, tenant_id, prefix, scope, last_used_at FROM api_keys
        WHERE hash = $1 AND revoked_at IS NULL
     ),
     touched AS (
       UPDATE api_keys SET last_used_at = now()
         FROM found
        WHERE api_keys.id = found.id
          AND (found.last_used_at IS NULL OR found.last_used_at < now() - interval '1 minute')
     )
     SELECT id, tenant_id AS "tenantId", prefix, scope FROM found`,
    [hashApiKey(key)],
  );
  return rows[0] ?? null;
}
