/**
 * `npm run prune -- --older-than 30d`: deletes decisions, outcomes, runs and rollups older
 * than the horizon, in bounded chunks that do not block ingest.
 */
import { getPool } from "@/lib/db/client";
import { parseDuration, pruneOlderThan } from "@/lib/db/prune";
import { failUsage, parseCommandLine } from "./lib/command-line";
import { openDevDatabase } from "./lib/dev-database";

const USAGE = "usage: npm run prune -- --older-than <N>(m|h|d|w)   e.g. --older-than 30d";

async function main() {
  const { values } = parseCommandLine({ "older-than": { type: "string" } }, USAGE);
  const value = values["older-than"];
  if (!value) failUsage(`--older-than is required\n${USAGE}`);
  const ms = parseDuration(value);
  if (ms === null) {
    failUsage(`--older-than: "${value}" is not a duration like 30d, 12h, 90m or 2w\n${USAGE}`);
  }
  const database = await openDevDatabase();
  try {
    const horizon = new Date(Date.now() - ms);
    console.log(`Pruning everything before ${horizon.toISOString()}…`);
    const result = await pruneOlderThan(getPool(), horizon, {
      onProgress: (table, deleted) => console.log(`  ${table}: deleted ${deleted}`),
    });
    console.log(
      `Done: ${result.decisions} decisions, ${result.outcomes} outcomes, ${result.runs} runs, ${result.spans} OpenTelemetry spans, ${result.rollupRows} rollup rows and ${result.palettes} tool lists deleted.`,
    );
  } finally {
    await getPool().end();
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
