/**
 * `npm run simulate` — demo traffic from agents that really use the selection core, sent to a
 * Routelens server through the telemetry client.
 *
 *   npm run simulate -- --backfill 7d            a week of history, as fast as the server takes it
 *   npm run simulate -- --live                   real-time traffic until Ctrl-C
 *   npm run simulate -- --backfill 1d --live     both
 *
 * Keys: --key (or ROUTELENS_API_KEY) sends everything to that key's tenant; otherwise each demo
 * tenant uses its own key from .data/demo-keys.json, which `npm run dev` writes when it loads
 * the demo. See `--help` for every option.
 */
import { existsSync, readFileSync } from "node:fs";
import {
  parseKeysFile,
  parseSimulateArgs,
  SIMULATE_USAGE,
  type SimulateOptions,
  UsageError,
} from "@/lib/demo/simulate-options";
import { DemoTraffic, type RunPlan } from "@/lib/demo/traffic";
import type { TelemetryEvent } from "@/lib/schemas/events";
import {
  ingestUrl,
  RoutelensClient,
  type TelemetryDeliveryError,
  type TelemetryStats,
} from "@/lib/telemetry/client";

const WEEK_MS = 7 * 86_400_000;
const BATCH_SIZE = 500;

/** A failure the user can act on: printed as one sentence, no stack trace. */
class Stop extends Error {
  override name = "Stop";
}

/** Which key sends which demo tenant's traffic. */
function resolveKeys(options: SimulateOptions): Map<string, string> {
  const tenants = options.profiles.map((p) => p.tenantId);
  if (options.key) return new Map(tenants.map((tenant) => [tenant, options.key as string]));
  if (!existsSync(options.keysFile)) {
    throw new Stop(
      options.keysFileGiven
        ? `Keys file ${options.keysFile} does not exist.`
        : "No API key: pass --key <key> or set ROUTELENS_API_KEY (create one with `npm run keys -- create <tenant>`), or run `npm run dev` once to create the demo tenants' keys.",
    );
  }
  const keys = parseKeysFile(readFileSync(options.keysFile, "utf8"), options.keysFile);
  const missing = tenants.filter((tenant) => !keys[tenant]);
  if (missing.length > 0) {
    throw new Stop(
      `${options.keysFile} has no key for ${missing.join(", ")}; pass --key, or --tenants with the tenants it has.`,
    );
  }
  return new Map(tenants.map((tenant) => [tenant, keys[tenant] as string]));
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error && error.name === "TimeoutError") return "no answer within 10 s";
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  if (cause && typeof cause === "object") {
    if ("code" in cause && cause.code) return String(cause.code);
    if (cause instanceof Error) return cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Posts an empty batch: proves the server is there and takes the key, storing nothing. */
async function checkServer(endpoint: string, key: string): Promise<void> {
  const url = ingestUrl(endpoint);
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ batch: [] }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new Stop(
      `Cannot reach Routelens at ${endpoint} (${describeNetworkError(error)}); is the server running (npm run dev), or is --endpoint wrong?`,
    );
  }
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  if (response.status === 200) return;
  if (response.status === 401) {
    throw new Stop(
      `Routelens at ${endpoint} refused the API key ${key.slice(0, 12)}… (${body.error ?? "401"}); check --key or ROUTELENS_API_KEY, or create one with \`npm run keys -- create <tenant>\`.`,
    );
  }
  if (response.status === 404) {
    throw new Stop(`${url} answered 404: is ${endpoint} a Routelens server?`);
  }
  if (response.status === 503) {
    throw new Stop(
      `Routelens at ${endpoint} is up but its database is unavailable; try again shortly.`,
    );
  }
  throw new Stop(
    `Routelens at ${endpoint} answered ${response.status} to a test request${body.error ? `: ${body.error}` : ""}.`,
  );
}

const number = (value: number) => Math.round(value).toLocaleString("en-US");

function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes}m${String(seconds % 60).padStart(2, "0")}s`
    : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

function spanLabel(ms: number): string {
  for (const [unit, size] of [
    ["d", 86_400_000],
    ["h", 3_600_000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms / 60_000}m`;
}

class Simulation {
  /** One client per key; several demo tenants share one when they share a key. */
  private readonly clients = new Map<string, RoutelensClient>();
  private readonly byTenant = new Map<string, RoutelensClient>();
  private fatal: Stop | null = null;
  private shownRejections = 0;
  decisions = 0;
  outcomes = 0;
  stopping = false;

  constructor(
    private readonly options: SimulateOptions,
    keys: Map<string, string>,
  ) {
    const distinct = new Set(keys.values());
    const perClient = Math.max(1, Math.ceil(options.concurrency / distinct.size));
    for (const [tenant, key] of keys) {
      let client = this.clients.get(key);
      if (!client) {
        client = new RoutelensClient({
          endpoint: options.endpoint,
          apiKey: key,
          batchSize: BATCH_SIZE,
          flushIntervalMs: 1_000,
          maxBufferedEvents: 20_000,
          maxConcurrentRequests: perClient,
          onError: (error) => this.onError(error),
        });
        this.clients.set(key, client);
      }
      this.byTenant.set(tenant, client);
    }
  }

  private onError(error: TelemetryDeliveryError): void {
    if (error.kind === "event_rejected") {
      // Counted as failed in the stats; show the first few so a bug is visible.
      if (this.shownRejections++ < 3) console.error(`\nrejected: ${error.message}`);
      return;
    }
    if (this.fatal) return;
    if (error.kind === "request_rejected" && error.status === 401) {
      this.fatal = new Stop(
        `Routelens refused the API key mid-run (${error.message}); was it revoked?`,
      );
    } else if (error.kind === "gave_up") {
      this.fatal = new Stop(`Lost Routelens at ${this.options.endpoint}: ${error.message}.`);
    } else {
      this.fatal = new Stop(`Routelens rejected a batch: ${error.message}.`);
    }
  }

  /** Throws the first fatal delivery problem, if any. */
  check(): void {
    if (this.fatal) throw this.fatal;
  }

  async send(tenantId: string, events: readonly TelemetryEvent[]): Promise<void> {
    const client = this.byTenant.get(tenantId);
    if (!client) throw new Error(`no client for ${tenantId}`);
    await client.waitForRoom(BATCH_SIZE * 4);
    for (const event of events) {
      client.record(event);
      if (event.type === "tool_routing_decision") this.decisions++;
      else this.outcomes++;
    }
  }

  stats(): TelemetryStats {
    const total: TelemetryStats = {
      sent: 0,
      failed: 0,
      dropped: 0,
      buffered: 0,
      inFlight: 0,
      retries: 0,
      requests: 0,
    };
    for (const client of this.clients.values()) {
      const s = client.stats();
      for (const key of Object.keys(total) as (keyof TelemetryStats)[]) total[key] += s[key];
    }
    return total;
  }

  async close(deadlineMs: number): Promise<TelemetryStats> {
    await Promise.all([...this.clients.values()].map((client) => client.close({ deadlineMs })));
    return this.stats();
  }
}

/** A status line on a terminal (redrawn in place); nothing otherwise. */
class Progress {
  private readonly tty = process.stderr.isTTY === true;
  private lastWidth = 0;

  show(line: string): void {
    if (!this.tty) return;
    const padded = line.padEnd(this.lastWidth);
    this.lastWidth = line.length;
    process.stderr.write(`\r${padded}`);
  }

  /** Clears the status line, so the summary that follows stands alone. */
  done(): void {
    if (this.tty && this.lastWidth > 0) process.stderr.write(`\r${" ".repeat(this.lastWidth)}\r`);
    this.lastWidth = 0;
  }
}

/** Sends a backfill, newest runs first; false when it was stopped before the end. */
async function backfill(
  simulation: Simulation,
  traffic: DemoTraffic,
  span: number,
  now: number,
  progress: Progress,
): Promise<boolean> {
  const plans: RunPlan[] = traffic.plan(new Date(now - span), new Date(now)).reverse();
  const estimate = traffic.estimateDecisions(plans);
  const started = performance.now();
  let lastDraw = 0;
  for (let i = 0; i < plans.length && !simulation.stopping; i++) {
    simulation.check();
    const plan = plans[i] as RunPlan;
    const run = await traffic.simulate(plan, { notAfter: now });
    await simulation.send(run.tenantId, run.events);
    // Simulating is CPU work resolved in microtasks; let responses and timers in between.
    await new Promise((resolve) => setImmediate(resolve));
    const elapsed = performance.now() - started;
    if (elapsed - lastDraw > 250) {
      lastDraw = elapsed;
      const { sent } = simulation.stats();
      const done = (i + 1) / plans.length;
      const left = done > 0.01 ? (elapsed / done) * (1 - done) : Number.NaN;
      progress.show(
        `backfill ${spanLabel(span)}: ${Math.floor(done * 100)}% · ${number(simulation.decisions)} of ~${number(estimate)} decisions · ${number(sent)} events sent · ${number(sent / (elapsed / 1000))} events/s · ${Number.isNaN(left) ? "estimating" : `${duration(left)} left`}`,
      );
    }
  }
  return !simulation.stopping;
}

/** Real-time traffic: runs are planned a minute ahead, their events released at their time. */
async function live(
  simulation: Simulation,
  traffic: DemoTraffic,
  from: number,
  progress: Progress,
): Promise<void> {
  const pending: { at: number; tenantId: string; event: TelemetryEvent }[] = [];
  let planned = from;
  let lastLine = Date.now();
  const tty = process.stderr.isTTY === true;
  console.error("live: sending demo traffic in real time; Ctrl-C stops");
  while (!simulation.stopping) {
    simulation.check();
    const now = Date.now();
    while (planned < now + 60_000) {
      const next = planned + 60_000;
      for (const plan of traffic.plan(new Date(planned), new Date(next))) {
        const run = await traffic.simulate(plan);
        for (const event of run.events) {
          pending.push({ at: Date.parse(event.timestamp), tenantId: run.tenantId, event });
        }
      }
      planned = next;
      pending.sort((a, b) => a.at - b.at);
    }
    let due = 0;
    while (due < pending.length && (pending[due]?.at ?? Number.POSITIVE_INFINITY) <= now) due++;
    for (const { tenantId, event } of pending.splice(0, due))
      await simulation.send(tenantId, [event]);
    const { sent } = simulation.stats();
    if (tty) {
      progress.show(
        `live: ${number(simulation.decisions)} decisions, ${number(sent)} events sent · ${pending.length} scheduled`,
      );
    } else if (now - lastLine >= 60_000) {
      lastLine = now;
      console.log(
        `live: ${number(simulation.decisions)} decisions, ${number(sent)} events sent so far`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function main(argv: string[]): Promise<number> {
  let options: SimulateOptions;
  try {
    options = parseSimulateArgs(argv, process.env);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`simulate: ${error.message}\n\n${SIMULATE_USAGE}`);
      return 2;
    }
    throw error;
  }
  if (options.help) {
    console.log(SIMULATE_USAGE);
    return 0;
  }

  const keys = resolveKeys(options);
  for (const key of new Set(keys.values())) await checkServer(options.endpoint, key);

  const started = Date.now();
  const span = options.backfillMs ?? 0;
  const story =
    span > 0
      ? { from: new Date(started - span), to: new Date(started) }
      : { from: new Date(started - WEEK_MS), to: new Date(started) };
  const traffic = new DemoTraffic({
    profiles: options.profiles,
    story,
    seed: options.seed,
    decisionsPerDay: options.decisionsPerDay,
  });
  const simulation = new Simulation(options, keys);
  const progress = new Progress();
  let backfillCut = false;
  process.on("SIGINT", () => {
    if (simulation.stopping) process.exit(130);
    simulation.stopping = true;
  });

  const tenants = options.profiles.map((p) => p.tenantId).join(", ");
  const clock = performance.now();
  let failure: Stop | null = null;
  try {
    if (span > 0) backfillCut = !(await backfill(simulation, traffic, span, started, progress));
    if (options.live && !simulation.stopping) await live(simulation, traffic, started, progress);
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    failure = error;
  }
  progress.show(
    `finishing: delivering ${number(simulation.stats().buffered + simulation.stats().inFlight)} events…`,
  );
  const stats = await simulation.close(failure ? 2_000 : 120_000);
  progress.done();
  try {
    simulation.check();
  } catch (error) {
    failure ??= error as Stop;
  }
  const seconds = (performance.now() - clock) / 1000;
  const what = [span > 0 ? `${spanLabel(span)} backfill` : "", options.live ? "live" : ""]
    .filter(Boolean)
    .join(" + ");
  console.log(
    `${backfillCut ? "Backfill interrupted: " : ""}${number(simulation.decisions)} decisions and ${number(simulation.outcomes)} outcomes for ${tenants} (${what}, seed ${options.seed}) · ${number(stats.sent)} events stored in ${seconds.toFixed(1)} s (${number(stats.sent / seconds)} events/s) · ${number(stats.failed)} failed, ${number(stats.retries)} retried`,
  );
  if (failure) {
    console.error(failure.message);
    return 1;
  }
  if (stats.failed > 0) return 1;
  return backfillCut ? 130 : 0;
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    if (error instanceof Stop || error instanceof UsageError) {
      console.error(error.message);
      process.exit(1);
    }
    console.error(error);
    process.exit(1);
  });
