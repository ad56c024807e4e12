/**
 * `npm run bench:duplicate-batches` — what a client retrying requests still in flight costs.
 *
 * A telemetry client whose request times out sends the batch again while the first request
 * may still be stored. This benchmark starts a scratch embedded PostgreSQL and the production
 * build (`npm start`, two server processes by default, so that the two copies are checked and
 * stored side by side), then sends `--pairs` batches of decisions and their outcomes, each one
 * twice at once, one pair after another. It prints the requests' latencies, the deadlocks
 * PostgreSQL broke meanwhile (each costs the two requests `deadlock_timeout`, a second by
 * default, and a retry), and checks that every event was stored once.
 *
 *   npm run bench:duplicate-batches -- [--pairs 30] [--batch 500] [--processes 2]
 *
 * Figures are printed; nothing is asserted but the stored counts.
 */
import pg from "pg";
import { ensureBuild, startAppServer } from "./lib/app-server";
import { percentile } from "./lib/bench-args";
import { benchDecisionsWithOutcomes } from "./lib/bench-events";
import { parseCommandLine, positiveWholeNumber } from "./lib/command-line";
import { postIngest } from "./lib/ingest-request";
import { startScratchDatabase } from "./lib/scratch-database";
import { seedApiKey } from "./lib/seed-key";

const TENANT = "bench-duplicates";

async function main() {
  const { values } = parseCommandLine(
    { pairs: { type: "string" }, batch: { type: "string" }, processes: { type: "string" } },
    "usage: npm run bench:duplicate-batches -- [--pairs 30] [--batch 500] [--processes 2]",
  );
  const pairs = positiveWholeNumber("pairs", values.pairs, 30);
  const batch = positiveWholeNumber("batch", values.batch, 500);
  const processes = positiveWholeNumber("processes", values.processes, 2);
  const log = (line: string) => console.error(`· ${line}`);
  ensureBuild(log);
  const scratch = await startScratchDatabase("bench_duplicates", log);
  const url = scratch.url;
  const key = await seedApiKey(url, TENANT);
  const app = await startAppServer({ databaseUrl: url, processes });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const start = new Date(Date.now() - 10 * 60_000);
    // Decisions, each followed by its outcome; warm-up batches of other runs go first, one per
    // process and two at a time, so that no measured request compiles a route.
    const warmUp = benchDecisionsWithOutcomes(batch, 7, start, {}).map((event) => ({
      ...event,
      event_id: `warm-${event.event_id}`,
      run_id: `warm-${event.run_id}`,
    }));
    const events = benchDecisionsWithOutcomes((pairs * batch) / 2, 42, start, {});
    const send = async (body: string): Promise<number> => {
      const started = performance.now();
      const response = await postIngest(`${app.baseUrl}/api/ingest`, key, body);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`a batch was answered ${response.status}`);
      return performance.now() - started;
    };
    const warmBody = JSON.stringify({ batch: warmUp });
    for (let i = 0; i < processes; i++) await Promise.all([send(warmBody), send(warmBody)]);
    const deadlocksBefore = await deadlocks(db);
    log(
      `sending ${pairs} batches of ${batch} events, each twice at once, to ${processes} processes`,
    );
    const latencies: number[] = [];
    for (let i = 0; i < pairs; i++) {
      const body = JSON.stringify({ batch: events.slice(i * batch, (i + 1) * batch) });
      latencies.push(...(await Promise.all([send(body), send(body)])));
    }
    // A server's connections report their counts to PostgreSQL's statistics when they close.
    await app.stop();
    const broken = (await deadlocks(db)) - deadlocksBefore;
    const timeout = (await db.query<{ deadlock_timeout: string }>("SHOW deadlock_timeout")).rows[0]
      ?.deadlock_timeout;
    const stored = await db.query<{ decisions: number; outcomes: number }>(
      `SELECT (SELECT count(*) FROM decisions WHERE tenant_id = $1 AND run_id NOT LIKE 'warm-%')::int AS decisions,
              (SELECT count(*) FROM outcomes WHERE tenant_id = $1 AND run_id NOT LIKE 'warm-%')::int AS outcomes`,
      [TENANT],
    );
    const expected = events.length / 2;
    const { decisions, outcomes } = stored.rows[0] ?? { decisions: 0, outcomes: 0 };
    const sorted = [...latencies].sort((a, b) => a - b);
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(`
Duplicate batches
  batches sent twice at once   ${pairs} of ${batch} events, ${processes} server processes
  deadlocks broken             ${broken} (deadlock_timeout ${timeout})
  request latency              p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, slowest ${ms(sorted.at(-1) ?? 0)}
  stored once                  ${decisions} of ${expected} decisions, ${outcomes} of ${expected} outcomes`);
    if (decisions !== expected || outcomes !== expected) {
      throw new Error("a duplicated batch was stored other than once");
    }
  } finally {
    await db.end();
    await app.stop();
    await scratch.drop();
  }
}

/** Deadlocks PostgreSQL has broken in `db`'s database since its statistics were reset. */
async function deadlocks(db: pg.Client): Promise<number> {
  await db.query("SELECT pg_stat_clear_snapshot()");
  const { rows } = await db.query<{ deadlocks: string }>(
    "SELECT deadlocks::text FROM pg_stat_database WHERE datname = current_database()",
  );
  return Number(rows[0]?.deadlocks ?? 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
