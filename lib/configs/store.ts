/**
 * Writing a tenant's routing configuration (SPEC §10): a new revision, unless the version is
 * already the current one. Not server-only, so the demo loader (a script) stores the demo
 * tenants' histories through the same function as the API and the pages; reads are in
 * `lib/db/queries/routing-configs.ts`.
 */
import { getPool } from "@/lib/db/client";
import { type ConfigIssue, checkRoutingConfig } from "./check";

/** Who saved a version. */
export type ConfigAuthor =
  | { kind: "user"; userId: string; email: string }
  | { kind: "key"; keyId: string; prefix: string }
  | { kind: "system"; name: string };

/** A configuration to store, already checked against the schema and versioned. */
export interface ConfigToStore {
  tenant: string;
  /** The JSON form, as checked. */
  config: unknown;
  configVersion: string;
  note?: string | null | undefined;
  author: ConfigAuthor;
  /** When it took effect; now unless given (the demo's history). */
  savedAt?: Date | undefined;
}

export type StoreConfigResult =
  | { status: "saved"; revision: number; configVersion: string; previousVersion: string | null }
  | { status: "unchanged"; revision: number; configVersion: string }
  | { status: "no-tenant" };

/**
 * Stores `input` as the tenant's new current configuration, unless its configVersion is the
 * current one: then nothing is written and the answer says `unchanged`. Saves of one tenant
 * are taken one at a time (its tenants row is locked), so two saves never get one revision.
 */
export async function storeRoutingConfig(input: ConfigToStore): Promise<StoreConfigResult> {
  const client = await getPool().connect();
  try {
    await client.query("BEGIN");
    const tenant = await client.query("SELECT id FROM tenants WHERE id = $1 FOR UPDATE", [
      input.tenant,
    ]);
    if (tenant.rowCount === 0) {
      await client.query("ROLLBACK");
      return { status: "no-tenant" };
    }
    const { rows } = await client.query<{ revision: number; config_version: string }>(
      `SELECT revision, config_version FROM routing_configs WHERE tenant_id = $1
        ORDER BY revision DESC LIMIT 1`,
      [input.tenant],
    );
    const current = rows[0];
    if (current && current.config_version === input.configVersion) {
      await client.query("ROLLBACK");
      return {
        status: "unchanged",
        revision: current.revision,
        configVersion: input.configVersion,
      };
    }
    const revision = (current?.revision ?? 0) + 1;
    const { author } = input;
    await client.query(
      `INSERT INTO routing_configs
         (tenant_id, revision, config_version, config, note, saved_at, author_kind,
          author_user_id, author_key_id, author_name)
       VALUES ($1, $2, $3, $4, $5, COALESCE($6, now()), $7, $8, $9, $10)`,
      [
        input.tenant,
        revision,
        input.configVersion,
        JSON.stringify(input.config),
        input.note ?? null,
        input.savedAt ?? null,
        author.kind,
        author.kind === "user" ? author.userId : null,
        author.kind === "key" ? author.keyId : null,
        (author.kind === "user"
          ? author.email
          : author.kind === "key"
            ? `key ${author.prefix}…`
            : author.name
        ).slice(0, 400),
      ],
    );
    await client.query("COMMIT");
    return {
      status: "saved",
      revision,
      configVersion: input.configVersion,
      previousVersion: current?.config_version ?? null,
    };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** True when the tenant has any stored configuration (the demo seeds only tenants without). */
export async function hasRoutingConfigs(tenant: string): Promise<boolean> {
  const { rows } = await getPool().query<{ exists: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM routing_configs WHERE tenant_id = $1) AS exists",
    [tenant],
  );
  return rows[0]?.exists ?? false;
}

export type SaveConfigResult = StoreConfigResult | { status: "invalid"; issues: ConfigIssue[] };

/**
 * Checks `input` against the schema, computes its version, and stores it as the tenant's
 * current configuration (or answers `unchanged` when that version is already current).
 * Who may save is decided by the caller (`lib/auth/config-management.ts`).
 */
export async function saveRoutingConfig(input: {
  tenant: string;
  config: unknown;
  note?: string | null | undefined;
  author: ConfigAuthor;
  savedAt?: Date | undefined;
}): Promise<SaveConfigResult> {
  const checked = checkRoutingConfig(input.config);
  if (!checked.ok) return { status: "invalid", issues: checked.issues };
  return storeRoutingConfig({
    tenant: input.tenant,
    config: checked.config,
    configVersion: checked.configVersion,
    note: input.note,
    author: input.author,
    savedAt: input.savedAt,
  });
}
