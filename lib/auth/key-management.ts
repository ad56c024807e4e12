/**
 * Ingest keys on the settings page (SPEC §7): which keys a viewer sees, and creating and
 * revoking them. The viewer is passed in, so the server actions (`key-actions.ts`) stay thin
 * and the rules are tested without a browser. A maintainer manages their tenants' keys, an
 * admin every tenant's; a key or tenant outside that is answered as if it did not exist.
 */
import "server-only";
import { listTenantIds } from "@/lib/db/queries/tenants";
import { createApiKey, listApiKeysInScope, revokeApiKeyInScope } from "@/lib/keys";
import { createKeyFormSchema, revokeKeyFormSchema } from "@/lib/schemas/accounts";
import { canMaintain, maintainedTenants, type Viewer } from "./access";
import { recordAudit } from "./audit";
import { type FormState, formError, readForm, typedValues } from "./form-state";
import { ALL_TENANTS, type TenantScope, tenantsScope } from "./scope";

/** The tenants whose keys `viewer` manages: every tenant for an admin. */
export function keyScopeOf(viewer: Viewer): TenantScope {
  const tenants = maintainedTenants(viewer);
  return tenants === null ? ALL_TENANTS : tenantsScope(tenants);
}

/** One row of the keys table; instants as ISO strings for the client. */
export interface KeyRow {
  id: string;
  tenantId: string;
  prefix: string;
  /** ingest or configs. */
  scope: string;
  label: string | null;
  /** The creator's email, or null when the key was made on the command line. */
  creatorEmail: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface KeysPageData {
  /** False for a viewer who maintains no tenant: the page explains who manages keys. */
  canManage: boolean;
  /** The tenants the create form offers, sorted. */
  tenantChoices: string[];
  /** Admins may name a tenant that does not exist yet; creating its key creates it. */
  canCreateTenant: boolean;
  keys: KeyRow[];
}

/** What the keys page shows `viewer`: nothing of any key unless they maintain a tenant. */
export async function loadKeysPage(viewer: Viewer): Promise<KeysPageData> {
  const scope = keyScopeOf(viewer);
  const canManage = scope.all || scope.tenants.length > 0;
  if (!canManage) return { canManage, tenantChoices: [], canCreateTenant: false, keys: [] };
  const [tenantChoices, keys] = await Promise.all([
    scope.all ? listTenantIds(ALL_TENANTS) : Promise.resolve([...scope.tenants]),
    listApiKeysInScope(scope),
  ]);
  return {
    canManage,
    tenantChoices,
    canCreateTenant: viewer.isAdmin,
    keys: keys.map((key) => ({
      id: key.id,
      tenantId: key.tenantId,
      prefix: key.prefix,
      scope: key.scope,
      label: key.label,
      creatorEmail: key.creatorEmail,
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      revokedAt: key.revokedAt?.toISOString() ?? null,
    })),
  };
}

/** The same words for a tenant that does not exist and one the viewer may not manage. */
const TENANT_NOT_MANAGED =
  "is not a tenant whose keys you manage: pick one of the list (a maintainer or admin of the tenant creates its keys)";
const KEY_NOT_FOUND =
  "No such key among the keys you manage. It may belong to a tenant you do not maintain; reload the page to see the current list.";

/**
 * Creates a key from the create form's fields for `viewer`. The answer carries the new key
 * once (`secret`); nothing stores it. Writes a `key-created` audit row.
 */
export async function createKeyAs(
  viewer: Viewer,
  form: FormData,
  requestHeaders: Headers | null = null,
): Promise<FormState> {
  const read = readForm(createKeyFormSchema, form);
  if (!read.ok) return read.state;
  const { tenant, label, scope } = read.data;
  // Only admins create tenants; for anyone else an unknown tenant is one they do not maintain.
  if (!canMaintain(viewer, tenant)) {
    return formError("tenant", TENANT_NOT_MANAGED, typedValues(form));
  }
  const created = await createApiKey(tenant, { label, scope, createdBy: viewer.userId });
  await recordAudit({
    action: "key-created",
    actorId: viewer.userId,
    actorEmail: viewer.email,
    tenantId: created.tenantId,
    target: created.prefix,
    detail: label ? { label, scope } : { scope },
    headers: requestHeaders,
  });
  return {
    done: `${scope === "configs" ? "Configs key" : "Key"} ${created.prefix}… created for tenant ${created.tenantId}.`,
    secret: created.key,
  };
}

/** Revokes the key the revoke form names, for `viewer`; writes a `key-revoked` audit row. */
export async function revokeKeyAs(
  viewer: Viewer,
  form: FormData,
  requestHeaders: Headers | null = null,
): Promise<FormState> {
  const read = readForm(revokeKeyFormSchema, form);
  if (!read.ok) return read.state;
  const result = await revokeApiKeyInScope(read.data.keyId, keyScopeOf(viewer));
  if (result.status === "not-found") return { error: KEY_NOT_FOUND };
  const { key } = result;
  if (result.status === "already-revoked") {
    return { done: `Key ${key.prefix}… was already revoked.` };
  }
  await recordAudit({
    action: "key-revoked",
    actorId: viewer.userId,
    actorEmail: viewer.email,
    tenantId: key.tenantId,
    target: key.prefix,
    headers: requestHeaders,
  });
  return {
    done: `Key ${key.prefix}… of tenant ${key.tenantId} revoked: it is refused from now on.`,
  };
}
