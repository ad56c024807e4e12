// Runs `prisma generate` without network access.
//
// Prisma's CLI wants a schema-engine binary even for `generate`, and would download one.
// Generation does not use it, so any existing file satisfies the check; migrations are
// applied by the project's own migrator (scripts/migrate.ts), never by `prisma migrate`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = "/bin/false";
}
env.PRISMA_HIDE_UPDATE_MESSAGE = "1";
env.CHECKPOINT_DISABLE = "1";

const result = spawnSync("npx", ["--no-install", "prisma", "generate"], {
  stdio: "inherit",
  env,
});
process.exit(result.status ?? 1);
