/**
 * `npm run bench:prune-palettes` — how long `npm run prune` takes to delete tool lists, and
 * for how long each of its chunks holds ingest back.
 *
 * Starts a scratch embedded PostgreSQL, fills `palettes` with `--lists` lists spread over 20
 * tenants, every other one last named 60 days ago and the rest today, and runs the palette step
 * of retention (`prunePalettes`, 5,000 lists a chunk, each behind the palette gate that every
 * ingest transaction passes) with a 30-day horizon. Prints the lists deleted, the chunks, the
 * time in all and the median and longest chunk: ingest waits at most that long per chunk (plus
 * whatever the transactions already in progress take).
 *
 *   npm run bench:prune-palettes -- [--lists 1000000]
 */
import pg from "pg";
import { migrate } from "@/lib/db/migrate";
import { prunePalettes } from "@/lib/ingest/palettes";
import { parseCommandLine, positiveWholeNumber } from "./lib/command-line";
import { dropDatabase, ensureDatabase, startLocalPostgres } from "./lib/local-postgres";

const DAY_MS = 86_400_000;

async function main() {
  const { values } = parseCommandLine(
    { lists: { type: "string" } },
    "usage: npm run bench:prune-palettes -- [--lists 1000000]",
  );
  const lists = positiveWholeNumber("lists", values.lists, 1_000_000);
  const server = await startLocalPostgres({ dataDir: ".data/bench-pg", port: 0 });
  const database = `bench_prune_palettes_${Date.now()}`;
  await ensureDatabase(server.adminUrl, database);
  const pool = new pg.Pool({ connectionString: server.urlFor(database), max: 2 });
  try {
    await migrate(server.urlFor(database));
    let started = performance.now();
    await pool.query(
      `INSERT INTO palettes (tenant_id, hash, tools, last_day)
       SELECT 'tenant-' || (i % 20), sha256(i::text::bytea),
              ARRAY['tool_' || i, 'search_docs', 'create_ticket', 'refund_order'],
              (now() AT TIME ZONE 'UTC')::date - CASE WHEN i % 2 = 0 THEN 60 ELSE 0 END
         FROM generate_series(1, $1::int) AS i`,
      [lists],
    );
    await pool.query("VACUUM ANALYZE palettes");
    console.log(
      `· ${lists} lists stored in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    started = performance.now();
    let chunkStarted = started;
    const chunkMs: number[] = [];
    const deleted = await prunePalettes(pool, new Date(Date.now() - 30 * DAY_MS), {
      chunkSize: 5_000,
      onChunk: () => {
        const now = performance.now();
        chunkMs.push(now - chunkStarted);
        chunkStarted = now;
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const sorted = [...chunkMs].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    const longest = sorted[sorted.length - 1] ?? 0;
    console.log(`  lists deleted    ${deleted} of ${lists}, in ${chunkMs.length} chunks`);
    console.log(`  time             ${seconds.toFixed(2)} s`);
    console.log(
      `  chunk median     ${median.toFixed(0)} ms, longest ${longest.toFixed(0)} ms (chunk ${chunkMs.indexOf(longest) + 1})`,
    );
  } finally {
    await pool.end();
    await dropDatabase(server.adminUrl, database);
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
