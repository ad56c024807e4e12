/** `npm run db:migrate`: applies pending migrations to DATABASE_URL. */
import { migrate } from "@/lib/db/migrate";
import { env } from "@/lib/env";
import { parseCommandLine } from "./lib/command-line";

async function main() {
  parseCommandLine({}, "usage: npm run db:migrate   (takes no arguments; reads DATABASE_URL)");
  const url = env().DATABASE_URL;
  if (!url) {
    console.error("DATABASE_URL is not set: point it at the PostgreSQL to migrate.");
    process.exit(2);
  }
  const result = await migrate(url, { log: (line) => console.log(line) });
  console.log(
    result.applied.length === 0
      ? `Database is up to date (${result.alreadyApplied} migrations applied).`
      : `Applied ${result.applied.length} migration(s).`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
