/**
 * `npx tsx scripts/bench-otlp-store.ts [--exports 40] [--concurrency 2] [--baseline <module>]` — what
 * `storeSpans` (lib/otlp/store.ts) alone costs per export, in this process against a scratch
 * embedded PostgreSQL (no HTTP server): the exports of `npm run bench:otlp` (500 LLM-call spans
 * with 20 tool definitions each plus their tool spans), decoded once before the clock starts,
 * stored `--concurrency` at a time (each in a transaction of its own, as the server stores
 * them). With `--baseline`, a second module exporting `storeSpans` (for example another version
 * of lib/otlp/store.ts copied next to it) stores the same exports under another tenant,
 * alternating group by group with the current one, so that both see the same load on a
 * shared machine. Prints LLM-call spans/s and p50/p99 per export of each; nothing is asserted.
 */
import { loadavg } from "node:os";
import path from "node:path";
import { migrate } from "@/lib/db/migrate";
import type { OtlpSpan, SpanStoreResult } from "@/lib/otlp/types";
import { percentile } from "./lib/bench-args";
import { decodedBenchExports } from "./lib/bench-otlp-spans";
import { parseCommandLine, positiveWholeNumber } from "./lib/command-line";
import { dropDatabase, ensureDatabase, startLocalPostgres } from "./lib/local-postgres";

type Store = (tenant: string, spans: OtlpSpan[]) => Promise<SpanStoreResult>;

const PER_EXPORT = 500;
const WARMUP_EXPORTS = 4;

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

async function main() {
  const { values } = parseCommandLine(
    {
      exports: { type: "string" },
      concurrency: { type: "string" },
      baseline: { type: "string" },
    },
    "usage: npx tsx scripts/bench-otlp-store.ts [--exports 40] [--concurrency 2] [--baseline <module>]",
  );
  const concurrency = positiveWholeNumber("concurrency", values.concurrency, 2);
  const exportCount = positiveWholeNumber("exports", values.exports, 40);
  const log = (line: string) => console.error(`· ${line}`);

  const server = await startLocalPostgres({ dataDir: ".data/bench-pg", port: 0, log });
  const database = `bench_otlp_store_${Date.now()}`;
  await ensureDatabase(server.adminUrl, database);
  await migrate(server.urlFor(database));
  process.env.DATABASE_URL = server.urlFor(database);
  const { getPool } = await import("@/lib/db/client");
  const variants: { label: string; tenant: string; store: Store; times: number[]; wall: number }[] =
    [
      {
        label: "lib/otlp/store.ts",
        tenant: "bench-current",
        store: (await import("@/lib/otlp/store")).storeSpans,
        times: [],
        wall: 0,
      },
    ];
  if (values.baseline) {
    const module = (await import(path.resolve(values.baseline))) as { storeSpans: Store };
    variants.push({
      label: values.baseline,
      tenant: "bench-baseline",
      store: module.storeSpans,
      times: [],
      wall: 0,
    });
  }

  try {
    const exports = decodedBenchExports(exportCount + WARMUP_EXPORTS, PER_EXPORT);
    log(
      `${exports.length} exports of ${PER_EXPORT} LLM-call spans decoded; ${WARMUP_EXPORTS} warm-up, then ${exportCount} timed per variant, ${concurrency} in flight, alternating; load ${load()}`,
    );
    const loadAtStart = load();
    for (let i = 0; i < exports.length; i += concurrency) {
      const group = exports.slice(i, i + concurrency);
      // Alternate which variant goes first, so neither always follows the other.
      const order = (i / concurrency) % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) {
        const groupStart = performance.now();
        const times = await Promise.all(
          group.map(async (spans) => {
            const t0 = performance.now();
            const result = await variant.store(variant.tenant, spans);
            if (result.rejectedSpans > 0) {
              throw new Error(`${variant.label}: ${result.errorMessage}`);
            }
            return performance.now() - t0;
          }),
        );
        if (i >= WARMUP_EXPORTS) {
          variant.times.push(...times);
          variant.wall += performance.now() - groupStart;
        }
      }
    }
    const pool = getPool();
    console.log(
      `\nstoreSpans alone, exports of ${PER_EXPORT} LLM-call spans, ${concurrency} in flight`,
    );
    for (const variant of variants) {
      const { rows } = await pool.query<{ decisions: number; spans: number }>(
        `SELECT (SELECT count(*)::int FROM decisions WHERE tenant_id = $1) AS decisions,
                (SELECT count(*)::int FROM otel_spans WHERE tenant_id = $1) AS spans`,
        [variant.tenant],
      );
      const total = variant.wall / 1000;
      console.log(
        `  ${variant.label.padEnd(34)} ${Math.round((variant.times.length * PER_EXPORT) / total)} LLM-call spans/s, ` +
          `p50 ${percentile(variant.times, 50).toFixed(0)} ms, p99 ${percentile(variant.times, 99).toFixed(0)} ms per export ` +
          `(stored ${rows[0]?.decisions} decisions, ${rows[0]?.spans} spans)`,
      );
    }
    console.log(`  load average: ${loadAtStart} at start, ${load()} after`);
    await pool.end();
  } finally {
    await dropDatabase(server.adminUrl, database).catch(() => {});
    if (!server.reused) await server.stop();
  }
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  });
