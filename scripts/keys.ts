/**
 * `npm run keys -- create <tenant> [--label text]` · `npm run keys -- list` ·
 * `npm run keys -- revoke <key-prefix>`
 *
 * `create` prints the new key alone on the last line of stdout, so scripts can capture it
 * with `tail -n 1`.
 */
import { getPool } from "@/lib/db/client";
import { createApiKey, KeyNotFoundError, listApiKeys, revokeApiKey } from "@/lib/keys";
import { openDevDatabase } from "./lib/dev-database";

const USAGE = `usage:
  npm run keys -- create <tenant> [--label <text>]
  npm run keys -- list
  npm run keys -- revoke <key-prefix>`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  switch (command) {
    case "create": {
      const tenant = rest[0];
      if (!tenant || tenant.startsWith("--")) fail(`create: missing <tenant>\n${USAGE}`);
      const labelAt = rest.indexOf("--label");
      const label = labelAt >= 0 ? rest[labelAt + 1] : undefined;
      const created = await createApiKey(tenant, { label });
      console.log(`Created key ${created.prefix}… for tenant ${created.tenantId}.`);
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
          `${key.prefix}  ${key.tenantId}  ${state}  created ${key.createdAt.toISOString()}  ${used}${key.label ? `  ${key.label}` : ""}`,
        );
      }
      return;
    }
    case "revoke": {
      const prefix = rest[0];
      if (!prefix) fail(`revoke: missing <key-prefix>\n${USAGE}`);
      const revoked = await revokeApiKey(prefix);
      console.log(`Revoked key ${revoked.prefix}… of tenant ${revoked.tenantId}.`);
      return;
    }
    default:
      fail(command ? `unknown command "${command}"\n${USAGE}` : USAGE);
  }
}

async function run() {
  const database = await openDevDatabase();
  try {
    await main(process.argv.slice(2));
  } finally {
    await getPool().end();
    await database.close();
  }
}

run().catch((error: unknown) => {
  if (error instanceof KeyNotFoundError) fail(error.message);
  if (error && typeof error === "object" && "issues" in error) {
    fail(
      `tenant: ${(error as { issues: { message: string }[] }).issues.map((i) => i.message).join(", ")}`,
    );
  }
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
