/** Small helpers shared by the benchmark scripts. */
import { spawn } from "node:child_process";

/** The nearest-rank percentile `p` (0–100) of `values`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** The ingest load process prints this line when its warm-up is over and the timed run begins. */
export const TIMED_RUN_STARTS = "timed run starts";

/** The hostile-load probe process prints this line once it is warm and ready to measure. */
export const PROBE_READY = "probe ready";

/**
 * Runs a benchmark's load client (`scripts/lib/<client>.ts`) in a process of its own, calls
 * `onTimedRun` when it prints `TIMED_RUN_STARTS`, and resolves with the JSON of its last line.
 */
export function runLoadProcess<Result>(
  client: string,
  args: string[],
  onTimedRun: () => void,
): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["--no-install", "tsx", `scripts/lib/${client}.ts`, ...args], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => {
      const before = out;
      out += chunk;
      if (!before.includes(TIMED_RUN_STARTS) && out.includes(TIMED_RUN_STARTS)) onTimedRun();
    });
    child.on("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "{}"))
        : reject(new Error(`load process exited ${code}`)),
    );
  });
}

/** What a load client measured while posting its request bodies. */
export interface SendResult {
  seconds: number;
  latencies: number[];
  failures: number;
  requests: number;
}

/**
 * Posts `bodies` to `url` with `concurrency` requests in flight, each read to its end, and
 * times every request; an answer other than 200 counts as a failure (the first is printed).
 */
export async function postBodies(
  url: string,
  key: string,
  bodies: readonly Uint8Array[],
  contentType: string,
  concurrency: number,
): Promise<SendResult> {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  async function worker() {
    while (next < bodies.length) {
      const body = bodies[next++] as Uint8Array<ArrayBuffer>;
      const t0 = performance.now();
      const response = await fetch(url, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": contentType },
        body,
      });
      await response.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (response.status !== 200) {
        failures++;
        if (failures === 1) console.error(`first failure: ${response.status}`);
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return {
    seconds: (performance.now() - started) / 1000,
    latencies,
    failures,
    requests: bodies.length,
  };
}
