/**
 * The environment, read and checked once. A missing or malformed variable fails at start
 * with a sentence naming the variable and the rule it broke.
 */
import { z } from "zod";
import { limitValueSchema } from "./schemas/ingest-limits";

const booleanFlag = z
  .enum(["0", "1", "true", "false"], { error: "must be 0, 1, true or false" })
  .transform((value) => value === "1" || value === "true");

const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// connection URL")
    .optional(),
  PORT: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 65535")
    .max(65535, "must be between 1 and 65535")
    .default(3000),
  DATABASE_POOL_MAX: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(200, "must be at most 200")
    .default(10),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce
    .number({ error: "must be a whole number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(100, "must be at least 100 ms")
    .max(60_000, "must be at most 60000 ms")
    .default(3_000),
  // PostgreSQL's parallel workers per query (max_parallel_workers_per_gather) for the app's
  // connections. 0: every dashboard read sums a few thousand rollup rows, for which starting
  // workers costs more than it saves (a 7-day chart's read: 74 ms with two workers, 16 ms
  // without; docs/PERFORMANCE.md, "Dashboard"), and a worker would take a core from the
  // server and the other requests.
  DATABASE_PARALLEL_WORKERS: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "must be at least 0")
    .max(64, "must be at most 64")
    .default(0),
  // PostgreSQL's work_mem for the app's connections, in MiB: the memory one sort or hash of a
  // query may use before it spills to disk. The tools page groups tens of thousands of
  // per-tool rollup rows by text keys; under PostgreSQL's default of 4 MiB the planner sorts
  // them (on disk) instead of hashing them (the context tax per day: 340 → 65 ms).
  DATABASE_WORK_MEM_MB: z.coerce
    .number({ error: "must be a whole number of MiB" })
    .int("must be a whole number of MiB")
    .min(1, "must be at least 1 MiB")
    .max(2048, "must be at most 2048 MiB")
    .default(16),
  ROUTELENS_DEMO: booleanFlag.default(true),
  // Reverse proxies in front of the app that append the client address to X-Forwarded-For
  // (README, "Client addresses"). 0: clients connect directly.
  ROUTELENS_TRUST_PROXY: z.coerce
    .number({ error: "must be a whole number of proxies" })
    .int("must be a whole number of proxies")
    .min(0, "must be at least 0")
    .max(10, "must be at most 10")
    .default(0),
  // Bytes of ingest bodies read and parsed at once per process; beyond it requests get 503 and
  // Retry-After. 20 MiB is four full 5 MiB batches: their parsed objects (a few times the text)
  // stay far below the 512 MiB a server should need, while ingest at full speed holds about
  // 1.5 MiB (two batches of 500 decisions in flight). One tenant's requests may hold at most
  // half of it, so one tenant cannot get another's refused. Tests lower it to reach the limit.
  ROUTELENS_INGEST_PARSE_MIB: z.coerce
    .number({ error: "must be a whole number of MiB" })
    .int("must be a whole number of MiB")
    .min(1, "must be at least 1 MiB")
    .max(1024, "must be at most 1024 MiB")
    .default(20),
  // Ingest bodies parsed and their events checked in a thread of their own
  // (lib/ingest/job-checker.ts), so that the server's main thread answers other requests,
  // health checks and database replies meanwhile. false: in each request's thread (one thread
  // and its heap fewer; docs/PERFORMANCE.md, "The checking thread", measures both).
  ROUTELENS_INGEST_CHECK_THREAD: booleanFlag.default(true),
  // Ingest requests of one tenant parsed and checked at once per process
  // (lib/ingest/tenant-slots.ts); the tenant's further requests wait in its own line, never
  // refused for it. One: checking is CPU on one thread (the checking thread's), so a second
  // request of the same tenant checked at once finishes no sooner in all, it only doubles what
  // every other request waits behind (docs/RELIABILITY.md, "Health connection, held 429s,
  // ingest line per tenant").
  ROUTELENS_INGEST_TENANT_SLOTS: z.coerce
    .number({ error: "must be a whole number of requests" })
    .int("must be a whole number of requests")
    .min(1, "must be at least 1")
    .max(64, "must be at most 64")
    .default(1),
  // Ingest limits per process (docs/LIMITS.md, lib/ingest/limits.ts): events per second with a
  // burst, and requests in progress at once, for each tenant (all its keys together) and for
  // each API key; beyond them 429 with Retry-After. An admin may store other values for a
  // tenant. The defaults are above what one process stores (about 10,000 decisions/s, 20,000 events/s with outcomes, on 2 cores), so a
  // lone tenant, and every benchmark, is never slowed by them; 32 requests in flight let the
  // hostile benchmark's 24 parse-amplification requests reach the parse budget they test.
  ROUTELENS_INGEST_TENANT_EVENTS_PER_SECOND: limitValueSchema("eventsPerSecond").default(50_000),
  ROUTELENS_INGEST_TENANT_BURST: limitValueSchema("burst").default(100_000),
  ROUTELENS_INGEST_TENANT_CONCURRENT_REQUESTS: limitValueSchema("concurrentRequests").default(32),
  ROUTELENS_INGEST_KEY_EVENTS_PER_SECOND: limitValueSchema("eventsPerSecond").default(50_000),
  ROUTELENS_INGEST_KEY_BURST: limitValueSchema("burst").default(100_000),
  ROUTELENS_INGEST_KEY_CONCURRENT_REQUESTS: limitValueSchema("concurrentRequests").default(32),
  // CSV downloads streaming at once per process (lib/dashboard/export-route.ts); more wait
  // for a slot or get 503 with Retry-After. One: the server writes CSV on one thread, so a
  // second download streaming at once finishes no sooner in all, it only doubles what every
  // other request waits behind (docs/RELIABILITY.md measures 1 against 2: the same downloads
  // served in the same time, health p99 68-82 ms against 121-127 ms).
  ROUTELENS_EXPORT_STREAMS: z.coerce
    .number({ error: "must be a whole number of downloads" })
    .int("must be a whole number of downloads")
    .min(1, "must be at least 1")
    .max(64, "must be at most 64")
    .default(1),
  // How long a CSV download waits in line for a slot before it gets 503. Tests raise it so that
  // a line is served whatever the machine's speed.
  ROUTELENS_EXPORT_WAIT_MS: z.coerce
    .number({ error: "must be a whole number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(0, "must be at least 0 ms")
    .max(600_000, "must be at most 600000 ms")
    .default(5_000),
  // The downloads read in batches from the raw tables (a run's iterations, the runs list)
  // written in a thread of their own with its own database connections
  // (lib/dashboard/export-streams.ts), so that the main thread answers other requests
  // meanwhile. false: in the request's thread (docs/RELIABILITY.md, "4. Unbounded run export",
  // measures both).
  ROUTELENS_EXPORT_THREAD: booleanFlag.default(true),
  // The address people open Routelens at, e.g. https://routelens.example.com (README, "Running
  // Routelens for a team"). Sign-in links and cookies use it, and sign-in forms are accepted
  // only from it. Unset: http on localhost or 127.0.0.1, any port.
  ROUTELENS_URL: z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .optional(),
  // Signs session cookies and one-time links: at least 32 random characters
  // (`openssl rand -base64 32`). Required by `npm start`; `npm run dev` keeps one in .data/.
  ROUTELENS_AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  // Alerts (docs/ALERTS.md): the evaluator and the delivery jobs run in every server process
  // (pg-boss makes them run once between them). 0 turns them off in this process; the servers
  // tests start set 0 unless a test asks for alerts.
  ROUTELENS_ALERTS: booleanFlag.default(true),
  // Backtests (docs/BACKTESTS.md) run in every server process unless 0 (one at a time per
  // process; pg-boss runs each once between them).
  ROUTELENS_BACKTESTS: booleanFlag.default(true),
  // Reads a backtest job keeps in flight, each on a database connection of its own.
  ROUTELENS_BACKTEST_READS: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 8")
    .max(8, "must be between 1 and 8")
    .default(1),
  // Test-only: the length of an evaluated slot. 60000 (a minute, driven by a pg-boss cron
  // schedule) outside tests; tests set a few seconds so minutes pass in seconds.
  ROUTELENS_ALERTS_SLOT_MS: z.coerce
    .number({ error: "must be a whole number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(500, "must be at least 500 ms")
    .max(60_000, "must be at most 60000 ms")
    .refine((ms) => 60_000 % ms === 0, "must divide a minute (60000 ms) evenly")
    .default(60_000),
  // The first retry gap of a failed delivery; it doubles per attempt up to an hour, for 24 hours.
  // Tests lower it.
  ROUTELENS_ALERTS_RETRY_BASE_MS: z.coerce
    .number({ error: "must be a whole number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(100, "must be at least 100 ms")
    .max(3_600_000, "must be at most 3600000 ms")
    .default(30_000),
  // How long a webhook or Slack request may take before it counts as failed.
  ROUTELENS_ALERTS_TIMEOUT_MS: z.coerce
    .number({ error: "must be a whole number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(100, "must be at least 100 ms")
    .max(60_000, "must be at most 60000 ms")
    .default(10_000),
  // Single sign-on with any OpenID Connect provider (README, "Single sign-on"): all three or none.
  ROUTELENS_OIDC_ISSUER: z.url({ error: "must be the provider's issuer URL" }).optional(),
  ROUTELENS_OIDC_CLIENT_ID: z.string().min(1).optional(),
  ROUTELENS_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  // The sign-in button's label, e.g. "Okta".
  ROUTELENS_OIDC_NAME: z
    .string()
    .min(1)
    .max(60, "must be at most 60 characters")
    .default("single sign-on"),
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses an environment object; throws an EnvError naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = envSchema.safeParse(cleaned);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
  throw new EnvError(`Invalid environment: ${lines.join("; ")}.`);
}

let cached: Env | undefined;

/** The process environment, validated on first use and cached. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
