/** Small helpers shared by the benchmark scripts. */
import { spawn } from "node:child_process";
import http from "node:http";

/** The nearest-rank percentile `p` (0–100) of `values`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/**
 * The `count` slowest of `latencies` (ms, in the order the requests were sent) with their
 * requests' numbers, slowest first: "#2 335 ms, #74 282 ms". With 100 requests the p99 is the
 * second of them, so this says whether it is a run's start (a new tenant's first requests) or
 * a moment later in the run.
 */
export function slowestRequests(latencies: readonly number[], count: number): string {
  return latencies
    .map((ms, i) => ({ ms, request: i + 1 }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map(({ ms, request }) => `#${request} ${ms.toFixed(0)} ms`)
    .join(", ");
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
  /** Each request's latency in ms, in the order the requests were sent. */
  latencies: number[];
  failures: number;
  requests: number;
  /** CPU seconds (user and system) the load process itself used while sending. */
  cpuSeconds: number;
}

/**
 * Keep-alive connections for `postBodies`: the warm-up's connections carry the timed requests.
 * (An idle kept-alive socket does not keep a process running: the agent unrefs it.)
 */
const loadAgent = new http.Agent({ keepAlive: true });

/**
 * One POST of `body` with node:http, read to its end; answers the status. The load processes
 * post with node:http rather than `fetch`, which copies every body through a web stream first:
 * with it, the OTLP load process took 3.6–4.1 s of the two cores' 19–22 s per run, CPU taken
 * from the server and PostgreSQL it measures (docs/PERFORMANCE.md, "a leaner load process").
 */
function postOnce(target: URL, headers: Record<string, string>, body: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      target,
      {
        method: "POST",
        agent: loadAgent,
        headers: { ...headers, "Content-Length": String(body.byteLength) },
      },
      (response) => {
        response.on("data", () => {});
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
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
  const target = new URL(url);
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": contentType };
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  async function worker() {
    while (next < bodies.length) {
      const index = next++;
      const t0 = performance.now();
      const status = await postOnce(target, headers, bodies[index] as Uint8Array);
      latencies[index] = performance.now() - t0;
      if (status !== 200) {
        failures++;
        if (failures === 1) console.error(`first failure: ${status}`);
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const cpu = process.cpuUsage(cpuBefore);
  return {
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    latencies,
    failures,
    requests: bodies.length,
  };
}
