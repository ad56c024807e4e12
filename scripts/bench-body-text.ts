/**
 * `npm run bench:body-text` — what reading a request body as text costs the
 * server's thread, in this process (no server, no database):
 *
 * - `Buffer#toString("latin1")` of ASCII bodies from 64 kB to 2 MB, per MB: Node 20 copies a
 *   text of 128 kB to 1 MB into a large-object heap string many times more slowly than a
 *   shorter text, or a longer one (an external string);
 * - reading and parsing ingest batches of 150 to 1,000 events (decisions each followed by its
 *   outcome) with a plain `toString("latin1")` and with `utf8Text` (lib/ingest/request.ts),
 *   which reads a body of that middle size as a slice of an external string, side by side.
 *
 * Each figure is the median, over several rounds, of the process's CPU time per call;
 * nothing is asserted.
 */
import { utf8Text } from "@/lib/ingest/request";
import { benchDecisionsWithOutcomes } from "./lib/bench-events";

const ROUNDS = 7;
const MB = 1_000_000;

/**
 * The median CPU time per call of each of `runs`, measured in alternating rounds (the order
 * turned around every round), so that the state of the heap weighs on each alike.
 */
function sideBySide(calls: number, runs: readonly (() => unknown)[], rounds: number): number[] {
  const times = runs.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? runs.keys() : [...runs.keys()].reverse();
    for (const which of order) {
      const run = runs[which] as () => unknown;
      const before = process.cpuUsage();
      for (let i = 0; i < calls; i++) run();
      const used = process.cpuUsage(before);
      times[which]?.push((used.user + used.system) / 1000 / calls);
    }
  }
  return times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)] as number);
}

console.log("Buffer#toString('latin1') of an ASCII body");
for (const bytes of [64_000, 120_000, 140_000, 300_000, 700_000, 1_000_000, 1_100_000, 2_000_000]) {
  const body = Buffer.from("x".repeat(bytes));
  const [ms = Number.NaN] = sideBySide(100, [() => body.toString("latin1")], ROUNDS);
  console.log(
    `  ${String(bytes).padStart(9)} bytes  ${ms.toFixed(3).padStart(7)} ms  ${((ms * MB) / bytes).toFixed(2).padStart(6)} ms per MB`,
  );
}

const bodyOf = (events: number) => {
  const batch = benchDecisionsWithOutcomes(events / 2, 1, new Date(Date.now() - 3_600_000));
  return Buffer.from(JSON.stringify({ batch: batch.slice(0, events) }));
};

// A server has parsed many batches before: the first rounds of a fresh process, whose heap
// and external-memory limits are still small, made either way look slower than it is.
const warmUp = bodyOf(500);
for (let i = 0; i < 200; i++) {
  JSON.parse(utf8Text(warmUp));
  JSON.parse(warmUp.toString("latin1"));
}

console.log("read and parse an ingest batch: plain toString('latin1') | utf8Text");
for (const events of [150, 250, 400, 500, 750, 1_000]) {
  const body = bodyOf(events);
  const [plain = Number.NaN, sliced = Number.NaN] = sideBySide(
    20,
    [() => JSON.parse(body.toString("latin1")), () => JSON.parse(utf8Text(body))],
    ROUNDS * 4,
  );
  console.log(
    `  ${String(events).padStart(5)} events  ${(body.length / MB).toFixed(2)} MB  ${plain.toFixed(2).padStart(6)} ms | ${sliced.toFixed(2).padStart(6)} ms`,
  );
}
