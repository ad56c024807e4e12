/**
 * `npx tsx scripts/bench-otlp-map.ts [--exports 20] [--rounds 5] [--baseline <dir>]` — the
 * server's CPU per LLM-call span between the request body and the database, in this process
 * (no server, no database): the exports of `npm run bench:otlp` (500 LLM-call spans with 20
 * tool definitions each plus their tool spans), built before the clock starts, then per export
 * the protobuf decoding (`decodeTraceExport`, with its bounds walk), the mapping (`mapSpan` of every span), the decision and outcome rows (`toDecisionRow`,
 * `toOutcomeRow`) and the rollup deltas (`aggregateDeltas`), as `lib/otlp/store.ts` computes
 * them, in CPU time of this process (so a busy machine slows it less than it slows wall time). With `--baseline`, a directory holding other versions of `decode.ts`,
 * `mapping.ts` and `rollups.ts` (for example copied from an earlier commit, with their imports;
 * without `decode.ts` the current decoding is used) is timed on the same exports, round by round alternating with the current code. Prints µs per LLM-call span
 * of CPU (the median round) of each; nothing is asserted.
 */
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { toDecisionRow, toOutcomeRow } from "@/lib/ingest/events";
import type { JoinedDecision } from "@/lib/ingest/rollups";
import { benchExports } from "./lib/bench-otlp-spans";
import { parseCommandLine, positiveWholeNumber } from "./lib/command-line";

const PER_EXPORT = 500;
const TENANT = "bench-map";

interface Modules {
  label: string;
  decodeTraceExport: typeof import("@/lib/otlp/decode").decodeTraceExport;
  mapSpan: typeof import("@/lib/otlp/mapping").mapSpan;
  aggregateDeltas: typeof import("@/lib/ingest/rollups").aggregateDeltas;
}

/** CPU time of this process so far, in µs (user + system: waiting for a busy CPU not counted). */
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/**
 * One export as the route and the store handle it; answers [decoding µs, mapping µs, rows and
 * rollups µs] of CPU.
 */
function handle(modules: Modules, body: Uint8Array): [number, number, number] {
  const start = cpu();
  const spans = modules.decodeTraceExport(body, "protobuf");
  const t0 = cpu();
  const mapped = spans.map(modules.mapSpan);
  const t1 = cpu();
  const decisions = [];
  const joined: JoinedDecision[] = [];
  let iteration = 0;
  for (const result of mapped) {
    if (result.kind !== "llm_call" || result.decision === null) continue;
    iteration += 1;
    const row = {
      ...toDecisionRow(TENANT, { ...result.decision.event, iteration }),
      mode: result.decision.mode,
    };
    decisions.push(row);
    if (result.outcome === null) continue;
    const outcome = toOutcomeRow(TENANT, { ...result.outcome, iteration });
    joined.push({ ...row, called: outcome.called, harmful_tools: [] });
  }
  modules.aggregateDeltas(decisions, joined);
  return [t0 - start, t1 - t0, cpu() - t1];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

async function main() {
  const { values } = parseCommandLine(
    { exports: { type: "string" }, rounds: { type: "string" }, baseline: { type: "string" } },
    "usage: npx tsx scripts/bench-otlp-map.ts [--exports 20] [--rounds 5] [--baseline <dir>]",
  );
  const exportCount = positiveWholeNumber("exports", values.exports, 20);
  const rounds = positiveWholeNumber("rounds", values.rounds, 5);
  const variants: Modules[] = [
    {
      label: "current",
      decodeTraceExport: (await import("@/lib/otlp/decode")).decodeTraceExport,
      mapSpan: (await import("@/lib/otlp/mapping")).mapSpan,
      aggregateDeltas: (await import("@/lib/ingest/rollups")).aggregateDeltas,
    },
  ];
  if (values.baseline) {
    const dir = path.resolve(values.baseline);
    variants.push({
      label: values.baseline,
      decodeTraceExport: existsSync(path.join(dir, "decode.ts"))
        ? (await import(path.join(dir, "decode.ts"))).decodeTraceExport
        : (await import("@/lib/otlp/decode")).decodeTraceExport,
      mapSpan: (await import(path.join(dir, "mapping.ts"))).mapSpan,
      aggregateDeltas: (await import(path.join(dir, "rollups.ts"))).aggregateDeltas,
    });
  }
  const built = benchExports(
    exportCount * PER_EXPORT,
    PER_EXPORT,
    7,
    new Date(Date.now() - 3_600_000),
    "bench-map",
  );
  const exports = built.bodies;
  const calls = exportCount * PER_EXPORT;
  const loadAtStart = loadavg()[0]?.toFixed(2);
  const results = new Map(
    variants.map((v) => [
      v.label,
      { decode: [] as number[], map: [] as number[], rest: [] as number[] },
    ]),
  );
  // A warm-up round, then the timed ones, alternating which variant goes first.
  for (let round = 0; round <= rounds; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) {
      let decode = 0;
      let map = 0;
      let rest = 0;
      for (const body of exports) {
        const [d, m, r] = handle(variant, body);
        decode += d;
        map += m;
        rest += r;
      }
      if (round === 0) continue;
      results.get(variant.label)?.decode.push(decode / calls);
      results.get(variant.label)?.map.push(map / calls);
      results.get(variant.label)?.rest.push(rest / calls);
    }
  }
  console.log(
    `\nper LLM-call span, ${exportCount} exports of ${PER_EXPORT}, median of ${rounds} rounds (load ${loadAtStart} at start, ${loadavg()[0]?.toFixed(2)} after)`,
  );
  for (const [label, { decode, map, rest }] of results) {
    const together = median(decode) + median(map) + median(rest);
    console.log(
      `  ${label.padEnd(28)} decoding ${median(decode).toFixed(1)} µs, mapping ${median(map).toFixed(1)} µs, rows and rollups ${median(rest).toFixed(1)} µs, together ${together.toFixed(1)} µs`,
    );
  }
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  });
