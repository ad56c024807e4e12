/**
 * Who may read and change a tenant's routing configs (SPEC §10), for the configs API and the
 * config pages alike. The caller is a signed-in user or an API key:
 *
 * - a user reads the configs of the tenants they read, and saves new versions of the tenants
 *   they maintain (admins: every tenant); a tenant they may not read is answered as absent;
 * - a key with the `configs` scope reads and saves its own tenant's configs, nothing else; an
 *   `ingest` key may not touch configs at all.
 *
 * Every save that passed the checks writes an audit row: `config-saved` when it added a
 * version, `config-unchanged` when the version was already current.
 */
import "server-only";
import { type ConfigIssue, checkRoutingConfig } from "@/lib/configs/check";
import { type ConfigDiff, diffRoutingConfigs } from "@/lib/configs/config-diff";
import { type ConfigAuthor, type SaveConfigResult, saveRoutingConfig } from "@/lib/configs/store";
import { getCurrentRoutingConfig } from "@/lib/db/queries/routing-configs";
import type { AuthenticatedKey } from "@/lib/keys";
import { canMaintain, canRead, scopeOf, type Viewer } from "./access";
import { recordAudit } from "./audit";
import { ALL_TENANTS, type TenantScope, tenantsScope } from "./scope";

export type ConfigCaller =
  | { kind: "user"; viewer: Viewer }
  | { kind: "key"; key: AuthenticatedKey };

/** Why a caller may not do something: `not-found` (tenant outside them) or `forbidden`. */
export type ConfigAccess =
  | { ok: true; scope: TenantScope }
  | { ok: false; status: "not-found" | "forbidden"; message: string };

const NO_SUCH_TENANT = "No such tenant.";

/** Whether `caller` may read `tenant`'s configs, and the scope to read them with. */
export function configReadAccess(caller: ConfigCaller, tenant: string): ConfigAccess {
  if (caller.kind === "user") {
    return canRead(caller.viewer, tenant)
      ? { ok: true, scope: scopeOf(caller.viewer) }
      : { ok: false, status: "not-found", message: NO_SUCH_TENANT };
  }
  if (caller.key.tenantId !== tenant) {
    return { ok: false, status: "not-found", message: NO_SUCH_TENANT };
  }
  if (caller.key.scope !== "configs") {
    return {
      ok: false,
      status: "forbidden",
      message:
        "This is an ingest key: it sends events only. Reading and changing routing configs takes a key with the configs scope (Settings → Ingest keys, or npm run keys -- create <tenant> --scope configs).",
    };
  }
  return { ok: true, scope: tenantsScope([tenant]) };
}

/** Whether `caller` may save new config versions of `tenant`. */
export function configWriteAccess(caller: ConfigCaller, tenant: string): ConfigAccess {
  const read = configReadAccess(caller, tenant);
  if (!read.ok || caller.kind === "key") return read;
  if (!canMaintain(caller.viewer, tenant)) {
    return {
      ok: false,
      status: "forbidden",
      message: `You read tenant ${tenant} as a viewer: only its maintainers and admins save routing configs.`,
    };
  }
  return { ok: true, scope: caller.viewer.isAdmin ? ALL_TENANTS : read.scope };
}

function authorOf(caller: ConfigCaller): ConfigAuthor {
  return caller.kind === "user"
    ? { kind: "user", userId: caller.viewer.userId, email: caller.viewer.email }
    : { kind: "key", keyId: caller.key.id, prefix: caller.key.prefix };
}

export type SaveConfigAnswer = SaveConfigResult | Extract<ConfigAccess, { ok: false }>;

/**
 * Saves `config` (unknown input: it is checked here) as `tenant`'s current routing config for
 * `caller`, after the access check; writes the audit row.
 */
export async function saveConfigAs(
  caller: ConfigCaller,
  tenant: string,
  input: { config: unknown; note?: string | undefined },
  requestHeaders: Headers | null = null,
): Promise<SaveConfigAnswer> {
  const access = configWriteAccess(caller, tenant);
  if (!access.ok) return access;
  const result = await saveRoutingConfig({
    tenant,
    config: input.config,
    note: input.note,
    author: authorOf(caller),
  });
  if (result.status === "saved" || result.status === "unchanged") {
    await recordAudit({
      action: result.status === "saved" ? "config-saved" : "config-unchanged",
      actorId: caller.kind === "user" ? caller.viewer.userId : null,
      actorEmail: caller.kind === "user" ? caller.viewer.email : null,
      tenantId: tenant,
      target: result.configVersion,
      detail: {
        revision: result.revision,
        ...(caller.kind === "key" ? { key: caller.key.prefix } : {}),
        ...(result.status === "saved" ? { previousVersion: result.previousVersion } : {}),
      },
      headers: requestHeaders,
    });
  }
  return result;
}

/** What saving `config` would do, shown before it is saved. */
export type ConfigPreview =
  | {
      ok: true;
      configVersion: string;
      /** False when the version is already the current one: saving adds no history entry. */
      changed: boolean;
      currentVersion: string | null;
      diff: ConfigDiff;
    }
  | { ok: false; issues: ConfigIssue[] }
  | Extract<ConfigAccess, { ok: false }>;

/** The version `config` would get and its diff against `tenant`'s current config. */
export async function previewConfigAs(
  caller: ConfigCaller,
  tenant: string,
  config: unknown,
): Promise<ConfigPreview> {
  const access = configWriteAccess(caller, tenant);
  if (!access.ok) return access;
  const checked = checkRoutingConfig(config);
  if (!checked.ok) return { ok: false, issues: checked.issues };
  const current = await getCurrentRoutingConfig(access.scope, tenant);
  return {
    ok: true,
    configVersion: checked.configVersion,
    changed: current?.configVersion !== checked.configVersion,
    currentVersion: current?.configVersion ?? null,
    diff: diffRoutingConfigs(current?.config ?? null, checked.config),
  };
}
