/**
 * Routing configurations stored per tenant (SPEC §10): the current one, its history with a
 * diff against the version before each, one version, and saving a new one. A save whose
 * configVersion equals the current one adds no history entry and says so. Reads take the
 * viewer's `TenantScope`; a tenant outside it reads as absent.
 */
import "server-only";
import type { TenantScope } from "@/lib/auth/scope";
import { scopeIncludes, tenantsScope } from "@/lib/auth/scope";
import { type ConfigDiff, diffRoutingConfigs } from "@/lib/configs/config-diff";
import type { ConfigAuthor } from "@/lib/configs/store";
import { getPool } from "@/lib/db/client";
import { SqlParams, whereClause } from "./sql";

export {
  type ConfigAuthor,
  type ConfigToStore,
  type SaveConfigResult,
  type StoreConfigResult,
  saveRoutingConfig,
  storeRoutingConfig,
} from "@/lib/configs/store";

/** One stored version of a tenant's routing configuration. */
export interface StoredRoutingConfig {
  tenantId: string;
  /** 1, 2, 3, … per tenant. */
  revision: number;
  configVersion: string;
  /** The configuration's JSON form, as saved. */
  config: unknown;
  note: string | null;
  savedAt: Date;
  authorKind: ConfigAuthor["kind"];
  /** The user's email, the key's prefix, or the system's name ("demo"). */
  authorName: string;
}

/** A version in a tenant's history, with what changed since the version before it. */
export interface RoutingConfigHistoryEntry extends StoredRoutingConfig {
  /** Against the previous revision; everything reads as added for the first one. */
  diff: ConfigDiff;
  /** The previous revision's configVersion, or null for the first one. */
  previousVersion: string | null;
}

/** A tenant in the configs list, with its current version if it has one. */
export interface TenantConfigSummary {
  tenantId: string;
  current: Omit<StoredRoutingConfig, "config" | "tenantId"> | null;
  /** How many versions are stored. */
  revisions: number;
}

interface ConfigRow {
  tenant_id: string;
  revision: number;
  config_version: string;
  config: unknown;
  note: string | null;
  saved_at: Date;
  author_kind: ConfigAuthor["kind"];
  author_name: string;
}

const COLUMNS = `tenant_id, revision, config_version, config, note, saved_at, author_kind, author_name`;

function toStored(row: ConfigRow): StoredRoutingConfig {
  return {
    tenantId: row.tenant_id,
    revision: row.revision,
    configVersion: row.config_version,
    config: row.config,
    note: row.note,
    savedAt: row.saved_at,
    authorKind: row.author_kind,
    authorName: row.author_name,
  };
}

/** At most this many versions of one tenant are listed (far more than anyone saves). */
export const CONFIG_HISTORY_LIMIT = 500;

/** The tenant's current configuration (its highest revision), or null when none is stored. */
export async function getCurrentRoutingConfig(
  scope: TenantScope,
  tenant: string,
): Promise<StoredRoutingConfig | null> {
  if (!scopeIncludes(scope, tenant)) return null;
  const { rows } = await getPool().query<ConfigRow>(
    `SELECT ${COLUMNS} FROM routing_configs WHERE tenant_id = $1 ORDER BY revision DESC LIMIT 1`,
    [tenant],
  );
  return rows[0] ? toStored(rows[0]) : null;
}

/**
 * One stored version: by configVersion (the newest revision carrying it, since a version can
 * come back) or by revision number. Null when the tenant is outside `scope` or has no such one.
 */
export async function getRoutingConfigVersion(
  scope: TenantScope,
  tenant: string,
  which: { version: string } | { revision: number },
): Promise<StoredRoutingConfig | null> {
  if (!scopeIncludes(scope, tenant)) return null;
  const byVersion = "version" in which;
  const { rows } = await getPool().query<ConfigRow>(
    `SELECT ${COLUMNS} FROM routing_configs
      WHERE tenant_id = $1 AND ${byVersion ? "config_version" : "revision"} = $2
      ORDER BY revision DESC LIMIT 1`,
    [tenant, byVersion ? which.version : which.revision],
  );
  return rows[0] ? toStored(rows[0]) : null;
}

/** The tenant's versions, newest first, each with its diff against the one before it. */
export async function listRoutingConfigHistory(
  scope: TenantScope,
  tenant: string,
): Promise<RoutingConfigHistoryEntry[]> {
  if (!scopeIncludes(scope, tenant)) return [];
  // One more than shown, so the oldest one shown still has its predecessor to diff against.
  const { rows } = await getPool().query<ConfigRow>(
    `SELECT ${COLUMNS} FROM routing_configs WHERE tenant_id = $1
      ORDER BY revision DESC LIMIT $2`,
    [tenant, CONFIG_HISTORY_LIMIT + 1],
  );
  const stored = rows.map(toStored);
  return stored.slice(0, CONFIG_HISTORY_LIMIT).map((entry, index) => {
    const previous = stored[index + 1] ?? null;
    return {
      ...entry,
      diff: diffRoutingConfigs(previous?.config ?? null, entry.config),
      previousVersion: previous?.configVersion ?? null,
    };
  });
}

/** Every tenant in `scope` with its current configuration's version, when and by whom. */
export async function listTenantConfigs(scope: TenantScope): Promise<TenantConfigSummary[]> {
  const params = new SqlParams();
  const tenantConditions = scope.all ? [] : [`t.id = ANY(${params.add(scope.tenants)}::text[])`];
  const { rows } = await getPool().query<
    Omit<ConfigRow, "tenant_id" | "config"> & { id: string; revisions: number }
  >(
    `SELECT t.id, c.revision, c.config_version, c.note, c.saved_at, c.author_kind, c.author_name,
            c.revision AS revisions
       FROM tenants t
       LEFT JOIN LATERAL (
         SELECT revision, config_version, note, saved_at, author_kind, author_name
           FROM routing_configs WHERE tenant_id = t.id ORDER BY revision DESC LIMIT 1
       ) c ON true
      ${whereClause(tenantConditions)}
      ORDER BY t.id LIMIT 1000`,
    params.values,
  );
  return rows.map((row) => ({
    tenantId: row.id,
    revisions: row.revisions ?? 0,
    current:
      row.revision === null
        ? null
        : {
            revision: row.revision,
            configVersion: row.config_version,
            note: row.note,
            savedAt: row.saved_at,
            authorKind: row.author_kind,
            authorName: row.author_name,
          },
  }));
}

/** A stored version in a list of choices (the new-backtest form offers them). */
export interface StoredConfigChoice {
  revision: number;
  configVersion: string;
  savedAt: Date;
  note: string | null;
  authorName: string;
}

/** The tenant's stored versions, newest first, without their JSON. */
export async function listStoredConfigVersions(
  scope: TenantScope,
  tenant: string,
): Promise<StoredConfigChoice[]> {
  if (!scopeIncludes(scope, tenant)) return [];
  const { rows } = await getPool().query<{
    revision: number;
    config_version: string;
    saved_at: Date;
    note: string | null;
    author_name: string;
  }>(
    `SELECT revision, config_version, saved_at, note, author_name FROM routing_configs
      WHERE tenant_id = $1 ORDER BY revision DESC LIMIT $2`,
    [tenant, CONFIG_HISTORY_LIMIT],
  );
  return rows.map((row) => ({
    revision: row.revision,
    configVersion: row.config_version,
    savedAt: row.saved_at,
    note: row.note,
    authorName: row.author_name,
  }));
}

/** One tenant's line of the configs list, or null when it is outside `scope` or absent. */
export async function getTenantConfigSummary(
  scope: TenantScope,
  tenant: string,
): Promise<TenantConfigSummary | null> {
  if (!scopeIncludes(scope, tenant)) return null;
  const [summary] = await listTenantConfigs(tenantsScope([tenant]));
  return summary ?? null;
}

/**
 * Which of `versions` the tenant's recorded decisions carry (from the hourly rollups), so the
 * history links a version to the rollouts view only when there is traffic to show.
 */
export async function listConfigVersionsWithTraffic(
  scope: TenantScope,
  tenant: string,
  versions: readonly string[],
): Promise<Set<string>> {
  if (!scopeIncludes(scope, tenant) || versions.length === 0) return new Set();
  const { rows } = await getPool().query<{ config_version: string }>(
    `SELECT DISTINCT config_version FROM rollup_hour
      WHERE tenant_id = $1 AND config_version = ANY($2::text[])`,
    [tenant, [...versions]],
  );
  return new Set(rows.map((row) => row.config_version));
}
