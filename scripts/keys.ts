/**
 * `npm run keys -- create <tenant> [--label text] [--scope ingest|configs]` ·
 * `npm run keys -- list` · `npm run keys -- revoke <key-prefix>` ·
 * `npm run keys -- limits <tenant> [--tenantEventsPerSecond N …] [--default]`
 *
 * `limits` prints a tenant's ingest limits (docs/LIMITS.md), or stores its own values: any of
 * `--tenantEventsPerSecond`, `--tenantBurst`, `--tenantConcurrentRequests`,
 * `--keyEventsPerSecond`, `--keyBurst`, `--keyConcurrentRequests` (an empty value: the
 * default); the others keep their stored values. `--default` puts the tenant back on the
 * defaults. The change applies from the tenant's next ingest request.
 *
 * `--scope configs` makes a key for CI pipelines that read and change the tenant's routing
 * configs (`/api/configs/<tenant>`); it cannot send events. The default is an ingest key.
 *
 * `create` prints the new key alone on the last line of stdout, so scripts can capture it
 * with `tail -n 1`.
 */
import { getTenantLimits, setTenantLimits, UnknownTenantError } from "@/lib/ingest/limit-settings";
import { defaultIngestLimits } from "@/lib/ingest/limits";
import { createApiKey, KeyNotFoundError, listApiKeys, revokeApiKey } from "@/lib/keys";
import { type ApiKeyScope, apiKeyScopeSchema } from "@/lib/schemas/accounts";
import {
  INGEST_LIMIT_FIELD_INFO,
  INGEST_LIMIT_FIELDS,
  type IngestLimitOverrides,
  limitValueSchema,
  NO_OVERRIDES,
} from "@/lib/schemas/ingest-limits";
import { failUsage, parseCommandLine } from "./lib/command-line";
import { runDatabaseCommand } from "./lib/database-command";

const USAGE = `usage:
  npm run keys -- create <tenant> [--label <text>] [--scope ingest|configs]
  npm run keys -- list
  npm run keys -- revoke <key-prefix>
  npm run keys -- limits <tenant> [--tenantEventsPerSecond <n>] [--tenantBurst <n>]
      [--tenantConcurrentRequests <n>] [--keyEventsPerSecond <n>] [--keyBurst <n>]
      [--keyConcurrentRequests <n>] [--default]`;

type KeysCommand =
  | { name: "create"; tenant: string; label: string | undefined; scope: ApiKeyScope }
  | { name: "list" }
  | { name: "revoke"; prefix: string }
  | {
      name: "limits";
      tenant: string;
      /** The values given (null: the default), or null to print the limits only. */
      changes: Partial<IngestLimitOverrides> | null;
      reset: boolean;
    };

/** The command line, checked before any database is opened. */
function readCommand(): KeysCommand {
  const { values, positionals } = parseCommandLine(
    {
      label: { type: "string" },
      scope: { type: "string" },
      default: { type: "boolean" },
      ...Object.fromEntries(INGEST_LIMIT_FIELDS.map((field) => [field, { type: "string" }])),
    } as const,
    USAGE,
    { allowPositionals: true },
  );
  const [command, target, ...extra] = positionals;
  if (extra.length > 0) failUsage(`unexpected argument "${extra[0]}"\n${USAGE}`);
  if (values.label !== undefined && command !== "create") {
    failUsage(`--label applies to create only\n${USAGE}`);
  }
  if (values.scope !== undefined && command !== "create") {
    failUsage(`--scope applies to create only\n${USAGE}`);
  }
  const scope = apiKeyScopeSchema.safeParse(values.scope ?? "ingest");
  if (!scope.success) failUsage(`--scope must be ingest or configs\n${USAGE}`);
  switch (command) {
    case "create":
      if (!target) failUsage(`create: missing <tenant>\n${USAGE}`);
      return { name: "create", tenant: target, label: values.label, scope: scope.data };
    case "list":
      if (target) failUsage(`unexpected argument "${target}"\n${USAGE}`);
      return { name: "list" };
    case "revoke":
      if (!target) failUsage(`revoke: missing <key-prefix>\n${USAGE}`);
      return { name: "revoke", prefix: target };
    case "limits": {
      if (!target) failUsage(`limits: missing <tenant>\n${USAGE}`);
      const given = values as Record<string, string | boolean | undefined>;
      const changes: Partial<IngestLimitOverrides> = {};
      for (const field of INGEST_LIMIT_FIELDS) {
        const text = given[field];
        if (typeof text !== "string") continue;
        const parsed = limitValueSchema(INGEST_LIMIT_FIELD_INFO[field].measure)
          .nullable()
          .safeParse(text.trim() === "" ? null : text);
        if (!parsed.success) {
          failUsage(`--${field} ${parsed.error.issues[0]?.message ?? "is not valid"}\n${USAGE}`);
        }
        changes[field] = parsed.data;
      }
      const reset = given.default === true;
      if (reset && Object.keys(changes).length > 0) {
        failUsage(`--default cannot be given with values\n${USAGE}`);
      }
      return {
        name: "limits",
        tenant: target,
        changes: reset || Object.keys(changes).length > 0 ? changes : null,
        reset,
      };
    }
    default:
      failUsage(command ? `unknown command "${command}"\n${USAGE}` : USAGE);
  }
}

async function main(command: KeysCommand) {
  switch (command.name) {
    case "create": {
      const created = await createApiKey(command.tenant, {
        label: command.label,
        scope: command.scope,
      });
      const use =
        created.scope === "configs"
          ? " (configs: for /api/configs/<tenant>; it cannot ingest)"
          : "";
      console.log(`Created key ${created.prefix}… for tenant ${created.tenantId}${use}.`);
      console.log("It is shown once; store it now. Send it as: Authorization: Bearer <key>");
      console.log(created.key);
      return;
    }
    case "list": {
      const keys = await listApiKeys();
      if (keys.length === 0) {
        console.log("No keys yet. Create one with: npm run keys -- create <tenant>");
        return;
      }
      for (const key of keys) {
        const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : "active";
        const used = key.lastUsedAt ? `last used ${key.lastUsedAt.toISOString()}` : "never used";
        console.log(
          `${key.prefix}  ${key.tenantId}  ${key.scope}  ${state}  created ${key.createdAt.toISOString()}  ${used}${key.label ? `  ${key.label}` : ""}`,
        );
      }
      return;
    }
    case "revoke": {
      const revoked = await revokeApiKey(command.prefix);
      console.log(`Revoked key ${revoked.prefix}… of tenant ${revoked.tenantId}.`);
      return;
    }
    case "limits": {
      let row = await getTenantLimits(command.tenant);
      if (command.changes) {
        const overrides = command.reset ? NO_OVERRIDES : { ...row.overrides, ...command.changes };
        row = await setTenantLimits(command.tenant, overrides);
        console.log(
          `Saved the ingest limits of tenant ${command.tenant}; they apply from its next request.`,
        );
      }
      const defaults = defaultIngestLimits();
      for (const field of INGEST_LIMIT_FIELDS) {
        const { scope, measure, label } = INGEST_LIMIT_FIELD_INFO[field];
        const own = row.overrides[field];
        console.log(
          `${label}: ${own === null ? `${defaults[scope][measure]} (default)` : `${own} (own)`}`,
        );
      }
      return;
    }
  }
}

runDatabaseCommand(readCommand, main, (error) => {
  if (error instanceof KeyNotFoundError || error instanceof UnknownTenantError) {
    return error.message;
  }
  if (error && typeof error === "object" && "issues" in error) {
    return `tenant: ${(error as { issues: { message: string }[] }).issues.map((i) => i.message).join(", ")}`;
  }
  return null;
});
