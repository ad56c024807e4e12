/**
 * `npm run fuzz` — seeded fuzzing of the ingest API over real HTTP, longer than CI's run.
 *
 * Starts a scratch embedded PostgreSQL and a production build (`next start`) on it, sends
 * mutated requests from two tenants at once (scripts/lib/fuzz-requests.ts) and checks, as
 * tests/integration/fuzz.test.ts does: no 5xx, every valid event stored exactly once, nothing
 * invalid stored, answers that agree with what is stored, rollups equal to the sums of the
 * raw rows. Prints the statuses and every failure; exits 1 when there is one.
 *
 *   npm run fuzz -- [--requests 20000] [--seed 1] [--concurrency 4] [--port 0]
 */
import pg from "pg";
import { rollupDifferences } from "@/tests/support/rollup-sums";
import { ensureBuild, startAppServer } from "./lib/app-server";
import { parseCommandLine, positiveWholeNumber } from "./lib/command-line";
import { runFuzz } from "./lib/fuzz-run";
import { startScratchDatabase } from "./lib/scratch-database";
import { seedApiKey } from "./lib/seed-key";

async function main() {
  const { values } = parseCommandLine(
    {
      requests: { type: "string" },
      seed: { type: "string" },
      concurrency: { type: "string" },
      port: { type: "string" },
    },
    "usage: npm run fuzz -- [--requests 20000] [--seed 1] [--concurrency 4] [--port N]",
  );
  const requests = positiveWholeNumber("requests", values.requests, 20_000);
  const seed = positiveWholeNumber("seed", values.seed, 1);
  const concurrency = positiveWholeNumber("concurrency", values.concurrency, 4);
  const port = values.port === undefined ? 0 : positiveWholeNumber("port", values.port, 0);
  const log = (line: string) => console.error(`· ${line}`);

  ensureBuild(log);
  const scratch = await startScratchDatabase("fuzz", log);
  const databaseUrl = scratch.url;
  const tenants = [
    { id: "fuzz-a", key: await seedApiKey(databaseUrl, "fuzz-a") },
    { id: "fuzz-b", key: await seedApiKey(databaseUrl, "fuzz-b") },
  ] as const;
  const app = await startAppServer({ databaseUrl, port });
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  let failed = false;
  try {
    log(
      `sending ${requests} mutated requests with seed ${seed}, ${concurrency} in flight per tenant`,
    );
    const started = performance.now();
    const report = await runFuzz({
      target: { baseUrl: app.baseUrl, tenants, db },
      seed,
      requests,
      concurrency,
      onProgress: (sent) => log(`${sent} requests sent`),
    });
    const rollups = [
      ...(await rollupDifferences(db, tenants[0].id)),
      ...(await rollupDifferences(db, tenants[1].id)),
    ];
    const seconds = (performance.now() - started) / 1000;
    console.log(`\nFuzz run, seed ${seed}: ${report.requests} requests in ${seconds.toFixed(1)} s`);
    console.log(
      `  statuses  ${Object.entries(report.statuses)
        .map(([status, n]) => `${status}×${n}`)
        .join(" ")}`,
    );
    console.log(`  events    ${report.events} tracked by id, ${report.stored} stored`);
    console.log(
      `  failures  ${report.failures.length}${report.failures.length === 50 ? " (first 50)" : ""}`,
    );
    for (const line of report.failures) console.log(`    ${line}`);
    console.log(
      `  rollups   ${rollups.length === 0 ? "equal to the raw sums" : `${rollups.length} rows differ`}`,
    );
    for (const line of rollups.slice(0, 20)) console.log(`    ${line}`);
    failed = report.failures.length > 0 || rollups.length > 0;
  } finally {
    await db.end();
    await app.stop();
    await scratch.drop();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
