/**
 * Several server processes on one database: `npm start` with WEB_CONCURRENCY=2
 * (scripts/start.mjs), next to the run's own server (a third process, started on its own).
 * Batches are interleaved (a decision and its outcome in different batches, sent to different
 * processes at the same time) and duplicated (every batch sent three times at once: twice
 * through the two-process server, once to the other one). Every event must be stored once,
 * every outcome joined, and every rollup must equal the sums over the raw rows; OTLP exports
 * sent three times at once must leave what one export to one process leaves. The alert
 * evaluator runs in both processes of the pair (2 s slots): a rule crossing its threshold
 * must send one `firing` and one `resolved`, not one per process. Then the supervisor: a
 * worker killed is replaced, SIGTERM stops every process, and a setting every process refuses
 * stops the supervisor instead of restarting workers forever.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DECISIONS_WITH_OUTCOMES } from "@/lib/ingest/decision-outcomes";
import { createApiKey } from "@/lib/keys";
import type { ToolCallOutcome, ToolRoutingDecision } from "@/lib/schemas/events";
import { decisionEvent, outcomeFor, stageRecord } from "@/lib/telemetry/events";
import { type AppServer, startAppServer } from "@/scripts/lib/app-server";
import { findFreePort } from "@/scripts/lib/local-postgres";
import { postBatch } from "../support/http";
import { exportSpans, runAgent } from "../support/otel-agent";
import { rollupDifferences } from "../support/rollup-sums";
import { deleteTenantRows } from "../support/tenant-rows";
import { Receiver } from "../support/webhook-receiver";

const databaseUrl = inject("databaseUrl");
/** The run's own server: one more process on the same database. */
const otherBaseUrl = inject("baseUrl");

let db: pg.Client;
let pair: AppServer;
let output = "";
const receiver = new Receiver();
const tenants: string[] = [];

beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await receiver.start();
  pair = await startAppServer({
    databaseUrl,
    processes: 2,
    env: {
      ROUTELENS_ALERTS: "1",
      ROUTELENS_ALERTS_SLOT_MS: "2000",
      ROUTELENS_ALERTS_RETRY_BASE_MS: "1000",
      ROUTELENS_ALERTS_TIMEOUT_MS: "5000",
    },
    onOutput: (text) => {
      output += text;
    },
  });
});

afterAll(async () => {
  await pair?.stop();
  await receiver.stop();
  for (const tenant of tenants) await deleteTenantRows(db, tenant);
  await db.end();
});

async function newTenant(label: string): Promise<{ tenant: string; key: string }> {
  const tenant = `procs-${label}-${Date.now()}`;
  tenants.push(tenant);
  const { key } = await createApiKey(tenant);
  return { tenant, key };
}

async function waitFor<T>(
  what: string,
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** What the database and the servers' logs say about a rule, for a failure message. */
async function alertDiagnosis(ruleId: string): Promise<string> {
  const { rows } = await db.query(
    `SELECT (SELECT to_jsonb(s) FROM alert_states s WHERE rule_id = $1) AS state,
            (SELECT jsonb_agg(to_jsonb(e) ORDER BY e.minute) FROM alert_events e WHERE rule_id = $1) AS events,
            (SELECT jsonb_agg(jsonb_build_object('kind', d.kind, 'status', d.status,
                      'next', d.next_attempt_at, 'created', d.created_at) ORDER BY d.created_at)
               FROM alert_deliveries d WHERE rule_id = $1) AS deliveries,
            now() AS now`,
    [ruleId],
  );
  const logLines = output
    .split("\n")
    .filter((line) => /alert|error|pg-boss/i.test(line))
    .slice(-20);
  return `database: ${JSON.stringify(rows[0])}\nserver log: ${logLines.join("\n")}`;
}

/** A deterministic shuffle (so a failure can be replayed). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Runs × iterations decisions, varied enough to fill every measure, and their outcomes. */
function runEvents(runs: number, iterations: number) {
  const tools = ["search_docs", "hydrate_context", "create_ticket", "run_sql", "send_email"];
  const base = Date.now() - 3 * 3_600_000;
  const decisions: ToolRoutingDecision[] = [];
  const outcomes: ToolCallOutcome[] = [];
  for (let r = 0; r < runs; r++) {
    const runId = `run-${randomUUID()}`;
    for (let i = 0; i < iterations; i++) {
      const n = r * iterations + i;
      const offered = tools.slice(0, 3 + (n % 3));
      const selected = offered.slice(0, 1 + (n % offered.length));
      const dropped = offered.filter((tool) => !selected.includes(tool));
      const decision = decisionEvent({
        run_id: runId,
        iteration: i,
        role: n % 4 === 0 ? "planner" : "action",
        mode: n % 3 === 0 ? "enforce" : "observe",
        // Spread over three hours, so several minute, hour and (sometimes) day buckets.
        timestamp: new Date(base + n * 47_000).toISOString(),
        offered,
        selected,
        dropped_tokens: dropped.length * 120 + (n % 7),
        trace: [
          stageRecord({
            stage: "intent",
            action: "select",
            kept: selected,
            dropped,
            reinstated: n % 5 === 0 ? selected.slice(0, 1) : [],
          }),
        ],
        warnings: n % 6 === 0 ? [{ code: "empty_palette", stage: "intent" }] : [],
      });
      decisions.push(decision);
      // Calls a dropped tool now and then (a harmful drop), nothing at other times.
      const called = n % 4 === 1 ? [] : n % 4 === 2 && dropped[0] ? [dropped[0]] : selected;
      outcomes.push(outcomeFor(decision, called));
    }
  }
  return { decisions, outcomes };
}

interface Success {
  id: string;
  status: number;
}

describe("several server processes on one database", () => {
  it("stores every event once and keeps every rollup equal to its raw rows, with batches interleaved and duplicated across processes", async () => {
    const { tenant, key } = await newTenant("ingest");
    const { decisions, outcomes } = runEvents(60, 6);
    const events = shuffled([...decisions, ...outcomes], 17);
    const batches: unknown[][] = [];
    for (let i = 0; i < events.length; i += 30) batches.push(events.slice(i, i + 30));

    const successes: Success[] = [];
    const statuses: number[] = [];
    // Waves of four batches, each sent three times at once: 12 concurrent requests.
    for (let i = 0; i < batches.length; i += 4) {
      const sends = batches
        .slice(i, i + 4)
        .flatMap((batch) =>
          [pair.baseUrl, otherBaseUrl, pair.baseUrl].map((url) => ({ url, batch })),
        );
      const responses = await Promise.all(
        sends.map(async ({ url, batch }) => {
          const response = await postBatch(url, key, batch);
          return {
            status: response.status,
            body: (await response.json()) as { successes: Success[] },
          };
        }),
      );
      for (const { status, body } of responses) {
        statuses.push(status);
        successes.push(...body.successes);
      }
    }

    expect(new Set(statuses)).toEqual(new Set([200]));
    // Each event answered three times: created (201) once, a duplicate (200) twice.
    const created = successes.filter((s) => s.status === 201).map((s) => s.id);
    expect(created.length).toBe(events.length);
    expect(new Set(created).size).toBe(events.length);
    expect(successes.length).toBe(3 * events.length);

    const { rows } = await db.query<{
      decisions: number;
      distinct_decisions: number;
      with_outcome: number;
      outcomes: number;
      joined: number;
    }>(
      `SELECT (SELECT count(*)::int FROM decisions WHERE tenant_id = $1) AS decisions,
              (SELECT count(DISTINCT event_id)::int FROM decisions WHERE tenant_id = $1) AS distinct_decisions,
              (SELECT count(*)::int FROM ${DECISIONS_WITH_OUTCOMES} d
                WHERE tenant_id = $1 AND has_outcome) AS with_outcome,
              (SELECT count(*)::int FROM outcomes WHERE tenant_id = $1) AS outcomes,
              (SELECT count(*)::int FROM outcomes WHERE tenant_id = $1 AND joined) AS joined`,
      [tenant],
    );
    expect(rows[0]).toEqual({
      decisions: decisions.length,
      distinct_decisions: decisions.length,
      with_outcome: decisions.length,
      outcomes: outcomes.length,
      joined: outcomes.length,
    });
    expect(await rollupDifferences(db, tenant)).toEqual([]);

    // Both processes of the pair took part: each keeps its connections open (named by
    // PGAPPNAME, routelens-<n>) for a while after use.
    const { rows: names } = await db.query<{ application_name: string }>(
      `SELECT DISTINCT application_name FROM pg_stat_activity
        WHERE datname = current_database() AND application_name LIKE 'routelens-_'
        ORDER BY 1`,
    );
    expect(names.map((row) => row.application_name)).toEqual(["routelens-1", "routelens-2"]);
  });

  it("stores OTLP exports sent to three processes at once as one process stores them once", async () => {
    const once = await newTenant("otlp-once");
    const thrice = await newTenant("otlp-thrice");
    const runs = [];
    for (let i = 0; i < 4; i++) runs.push(await runAgent({ functionId: `agent-${i}` }));
    const target = (baseUrl: string, apiKey: string) => ({
      url: `${baseUrl}/api/otlp/v1/traces`,
      apiKey,
      encoding: "protobuf" as const,
    });
    for (const run of runs) {
      expect((await exportSpans(run.spans, target(otherBaseUrl, once.key))).code).toBe(0);
    }
    const results = await Promise.all(
      runs.flatMap((run) =>
        [pair.baseUrl, otherBaseUrl, pair.baseUrl].map((url) =>
          exportSpans(run.spans, target(url, thrice.key)),
        ),
      ),
    );
    expect(results.map((result) => result.code)).toEqual(results.map(() => 0));

    const stored = async (tenant: string) =>
      (
        await db.query(
          `SELECT (SELECT count(*)::int FROM decisions WHERE tenant_id = $1) AS decisions,
                  (SELECT count(*)::int FROM outcomes WHERE tenant_id = $1) AS outcomes,
                  (SELECT count(*)::int FROM outcomes WHERE tenant_id = $1 AND joined) AS joined,
                  (SELECT count(*)::int FROM otel_spans WHERE tenant_id = $1) AS spans,
                  (SELECT coalesce(jsonb_agg(to_jsonb(r) - 'tenant_id' ORDER BY r.role, r.bucket), '[]')
                     FROM otel_call_rollup_hour r WHERE tenant_id = $1) AS call_rollup`,
          [tenant],
        )
      ).rows[0];
    const expected = await stored(once.tenant);
    expect(expected.decisions).toBeGreaterThan(0);
    expect(expected.spans).toBeGreaterThan(expected.decisions);
    expect(await stored(thrice.tenant)).toEqual(expected);
    expect(await rollupDifferences(db, thrice.tenant)).toEqual([]);
    expect(await rollupDifferences(db, once.tenant)).toEqual([]);
  });

  it("sends one `firing` and one `resolved` for a rule evaluated by two processes", async () => {
    const { tenant, key } = await newTenant("alerts");
    const ruleId = randomUUID();
    await db.query(
      `INSERT INTO alert_rules (id, tenant_id, name, metric, window_minutes, comparison, threshold, min_sample)
       VALUES ($1, $2, 'Empty palettes', 'empty-palette-rate', 5, 'gt', 50, 10)`,
      [ruleId, tenant],
    );
    await db.query(
      `INSERT INTO alert_channels (id, rule_id, tenant_id, kind, url, secret) VALUES ($1, $2, $3, 'webhook', $4, $5)`,
      [randomUUID(), ruleId, tenant, receiver.url, `whsec_test_${randomUUID()}`],
    );
    const send = async (count: number, emptyPalette: boolean) => {
      // Split over several requests, so both processes of the pair serve some.
      for (let i = 0; i < count; i += 10) {
        const batch = Array.from({ length: Math.min(10, count - i) }, () =>
          decisionEvent(
            emptyPalette ? { warnings: [{ code: "empty_palette", stage: "intent" }] } : {},
          ),
        );
        expect((await postBatch(pair.baseUrl, key, batch)).status).toBe(200);
      }
    };
    await send(20, true);
    await waitFor(
      "the firing webhook",
      () => receiver.forRule(ruleId),
      (r) => r.length >= 1,
    );
    // Several slots pass with the rule still firing: nothing more is sent.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(receiver.forRule(ruleId).map((r) => r.json.state)).toEqual(["firing"]);
    await send(60, false);
    await waitFor(
      "the resolved webhook",
      () => receiver.forRule(ruleId),
      (r) => r.length >= 2,
      60_000,
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}\n${await alertDiagnosis(ruleId)}`);
    });
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(receiver.forRule(ruleId).map((r) => r.json.state)).toEqual(["firing", "resolved"]);
    const { rows } = await db.query<{ events: number; attempts: number }>(
      `SELECT (SELECT count(*)::int FROM alert_events WHERE rule_id = $1) AS events,
              (SELECT count(*)::int FROM alert_delivery_attempts a
                 JOIN alert_deliveries d ON d.id = a.delivery_id WHERE d.rule_id = $1) AS attempts`,
      [ruleId],
    );
    expect(rows[0]).toEqual({ events: 2, attempts: 2 });
  }, 120_000);

  it("replaces a worker that dies, and stops every process on SIGTERM", async () => {
    const [supervisor, ...workers] = pair.pids();
    expect(workers.length).toBe(2);
    const victim = workers[0] as number;
    process.kill(victim, "SIGKILL");
    await waitFor(
      "the restart log line",
      () => output,
      (text) =>
        new RegExp(`\\(pid ${victim}\\) exited with signal SIGKILL; starting another`).test(text),
    );
    const replaced = await waitFor(
      "a new worker serving",
      () => pair.pids().slice(1),
      (pids) => pids.length === 2 && !pids.includes(victim),
    );
    await waitFor(
      "the new worker serving",
      () => output,
      (text) =>
        text.includes("is serving") &&
        replaced.every((pid) => text.includes(`(pid ${pid}) is serving`)),
    );
    expect((await fetch(`${pair.baseUrl}/api/health`)).status).toBe(200);

    const exited = new Promise<number | null>((resolve) =>
      pair.child.once("exit", (code) => resolve(code)),
    );
    pair.child.kill("SIGTERM");
    expect(await exited).toBe(143);
    for (const pid of [supervisor, ...replaced]) expect(existsSync(`/proc/${pid}`)).toBe(false);
  });

  it("stops with the error when the server processes cannot start, instead of restarting them", async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      WEB_CONCURRENCY: "2",
      DATABASE_URL: databaseUrl,
      PORT: String(await findFreePort()),
      ROUTELENS_ALERTS: "0",
      ROUTELENS_BACKTESTS: "0",
    };
    delete env.ROUTELENS_AUTH_SECRET;
    const child = spawn(process.execPath, ["scripts/start.mjs"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(text).toContain("ROUTELENS_AUTH_SECRET is not set");
    expect(text).toMatch(/exited with code 1 before serving; stopping/);
    expect(text).not.toContain("starting another");
  });
});
