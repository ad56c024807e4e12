/**
 * `npm run simulate` against the test server (argument errors, a wrong key, an unreachable
 * server, a short backfill stored for every demo tenant), and the demo loader and reset that
 * `npm run dev` and `npm run demo:reset` use.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getPool } from "@/lib/db/client";
import { TENANT_SCOPED_TABLES } from "@/lib/db/tenant-tables";
import { DEMO_PROFILES, DEMO_TENANT_IDS } from "@/lib/demo/profiles";
import { unroutedDemoRuns } from "@/lib/demo/unrouted";
import { offeredOf } from "@/lib/ingest/palettes";
import { createApiKey } from "@/lib/keys";
import { storeSpans } from "@/lib/otlp/store";
import { decisionEvent, outcomeFor } from "@/lib/telemetry/events";
import {
  deleteDemoData,
  hasNoDecisions,
  loadDemoTraffic,
  loadUnroutedDemo,
} from "@/scripts/lib/demo-loader";
import { findFreePort } from "@/scripts/lib/local-postgres";
import { postBatch } from "../support/http";

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function simulate(args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/simulate.ts", ...args], {
      env: { ...process.env, ROUTELENS_API_KEY: "", ROUTELENS_ENDPOINT: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

const STACK_FRAME = /^\s+at /m;

async function query<T extends pg.QueryResultRow>(
  url: string,
  sql: string,
  params: unknown[] = [],
) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe("npm run simulate", () => {
  const baseUrl = inject("baseUrl");
  const databaseUrl = inject("databaseUrl");
  const dir = mkdtempSync(path.join(tmpdir(), "routelens-simulate-"));
  const keysFile = path.join(dir, "keys.json");

  beforeAll(async () => {
    const keys: Record<string, string> = {};
    for (const tenant of DEMO_TENANT_IDS) {
      keys[tenant] = (await createApiKey(tenant, { label: "demo", isDemo: true })).key;
    }
    writeFileSync(keysFile, JSON.stringify({ keys }));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [["--backfill", "7days"], "--backfill"],
    [["--live", "--tenants", "billing"], "--tenants"],
    [["--live", "--colour", "red"], "--colour"],
    [[], "--backfill <span>, --live"],
  ])("rejects %j with a usage message naming the argument", async (args, named) => {
    const result = await simulate(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(named);
    expect(result.stderr).toContain("usage: npm run simulate");
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it("stops with one sentence on a wrong key", async () => {
    const result = await simulate(["--backfill", "1h", "--endpoint", baseUrl, "--key", "rl_wrong"]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^Routelens at .* refused the API key rl_wrong/);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it("stops with one sentence when the server is unreachable", async () => {
    const port = await findFreePort();
    const result = await simulate([
      "--live",
      "--endpoint",
      `http://127.0.0.1:${port}`,
      "--key",
      "rl_x",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(
      /^Cannot reach Routelens at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    );
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it("says how to get a key when there is none", async () => {
    const result = await simulate([
      "--live",
      "--endpoint",
      baseUrl,
      "--keys-file",
      path.join(dir, "none.json"),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/does not exist/);
  });

  it("backfills every demo tenant through the real pipeline; the summary matches the rows", async () => {
    // A whole day, so every tenant's busy hours are in the window whatever the clock says
    // (a tenant's night, weekend or not, can have no traffic for hours).
    const result = await simulate([
      "--backfill",
      "1d",
      "--endpoint",
      baseUrl,
      "--keys-file",
      keysFile,
      "--per-day",
      "1200",
      "--seed",
      "11",
    ]);
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.code).toBe(0);
    // Not a terminal: one summary line, no progress redraws.
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
    const match =
      /^([\d,]+) decisions and ([\d,]+) outcomes for demo-pricing, demo-support, demo-analytics \(1d backfill, seed 11\) · ([\d,]+) events stored/.exec(
        result.stdout.trim(),
      );
    expect(match).not.toBeNull();
    const reported = Number(match?.[1]?.replaceAll(",", ""));
    expect(reported).toBeGreaterThan(50);

    const rows = await query<{
      tenant_id: string;
      decisions: number;
      versions: number;
      observe: number;
    }>(
      databaseUrl,
      `SELECT tenant_id, count(*)::int AS decisions, count(DISTINCT config_version)::int AS versions,
              sum((mode = 'observe')::int)::int AS observe
         FROM decisions WHERE tenant_id = ANY($1::text[]) GROUP BY tenant_id ORDER BY tenant_id`,
      [DEMO_TENANT_IDS],
    );
    expect(rows.map((r) => r.tenant_id)).toEqual([...DEMO_TENANT_IDS].sort());
    expect(rows.reduce((sum, r) => sum + r.decisions, 0)).toBe(reported);
    // The backfill is the tenants' whole story: each shows its first configuration and one
    // more per routing change (support changes once, at 45% of the window).
    expect(Object.fromEntries(rows.map((r) => [r.tenant_id, r.versions]))).toEqual(
      Object.fromEntries(
        DEMO_PROFILES.map((p) => [p.tenantId, 1 + p.changes.filter((c) => c.routing).length]),
      ),
    );
    expect(rows.find((r) => r.tenant_id === "demo-support")?.versions).toBe(2);
    const [traces] = await query<{ stages: number }>(
      databaseUrl,
      `SELECT min(json_array_length(trace::json))::int AS stages
         FROM decisions WHERE tenant_id = ANY($1::text[])`,
      [DEMO_TENANT_IDS],
    );
    expect(traces?.stages).toBe(6);
  });
});

describe("demo loader and reset", () => {
  const databaseUrl = inject("databaseUrl");

  it("loads demo traffic through the ingest store, newest first", async () => {
    const now = Date.now();
    const lines: string[] = [];
    const loaded = await loadDemoTraffic({
      now,
      span: 2 * 3_600_000,
      seed: 4,
      log: (l) => lines.push(l),
    });
    expect(loaded.decisions).toBeGreaterThan(20);
    const since = new Date(Math.floor((now - 2 * 3_600_000) / 60_000) * 60_000);
    const [row] = await query<{ n: number; outcomes: number; rolled: number }>(
      databaseUrl,
      `SELECT (SELECT count(*)::int FROM decisions WHERE tenant_id = ANY($1::text[]) AND ts >= $2) AS n,
              (SELECT count(*)::int FROM outcomes WHERE tenant_id = ANY($1::text[]) AND ts >= $2) AS outcomes,
              (SELECT coalesce(sum(decisions), 0)::int FROM rollup_minute
                WHERE tenant_id = ANY($1::text[]) AND bucket >= $2) AS rolled`,
      [DEMO_TENANT_IDS, since],
    );
    // The backfill above covered the same tenants over 3 hours; at least this load is stored.
    expect(row?.n).toBeGreaterThanOrEqual(loaded.decisions);
    expect(row?.rolled).toBe(row?.n);
    expect(row?.outcomes).toBeGreaterThan(0);
    expect(await hasNoDecisions(databaseUrl)).toBe(false);
  });

  it("loads an agent that routes nothing through OpenTelemetry ingest's storage", async () => {
    const now = Date.now();
    const lines: string[] = [];
    const calls = await loadUnroutedDemo({
      now,
      span: 6 * 3_600_000,
      seed: 4,
      log: (l) => lines.push(l),
    });
    expect(lines).toEqual([]);
    expect(calls).toBeGreaterThan(10);
    const [row] = await query<{
      decisions: number;
      spans: number;
      toolRuns: number;
      sizes: number;
      allSizes: number;
      offeredTools: number;
      unused: number;
    }>(
      databaseUrl,
      `SELECT (SELECT count(*)::int FROM decisions
                WHERE tenant_id = 'demo-support' AND mode = 'off' AND role = 'triage') AS decisions,
              (SELECT count(*)::int FROM otel_spans
                WHERE tenant_id = 'demo-support' AND kind = 'llm_call') AS spans,
              (SELECT count(*)::int FROM otel_spans
                WHERE tenant_id = 'demo-support' AND kind = 'tool_run') AS "toolRuns",
              (SELECT count(*)::int FROM tool_sizes s
                WHERE s.tenant_id = 'demo-support' AND EXISTS (
                  SELECT 1 FROM decisions d
                   WHERE d.tenant_id = 'demo-support' AND d.mode = 'off' AND d.role = 'triage'
                     AND s.tool = ANY(${offeredOf("d")}))) AS sizes,
              (SELECT count(*)::int FROM tool_sizes WHERE tenant_id = 'demo-support') AS "allSizes",
              (SELECT count(DISTINCT tool)::int FROM decisions d, unnest(${offeredOf("d")}) AS tool
                WHERE d.tenant_id = 'demo-support') AS "offeredTools",
              (SELECT coalesce(sum(unused_offers), 0)::int FROM tool_rollup_hour
                WHERE tenant_id = 'demo-support' AND mode = 'off') AS unused`,
      [],
    );
    // Every call is stored as a span; those with a tool list are also mode-off decisions.
    expect(row?.spans).toBe(calls);
    expect(row?.decisions).toBeGreaterThan(calls * 0.7);
    expect(row?.decisions).toBeLessThanOrEqual(calls);
    expect(row?.toolRuns).toBeGreaterThan(0);
    // The unrouted agent's 12 tools are sized from its spans' definitions; with the routed
    // demo's decisions (their tool_tokens), every tool the tenant ever offered has a size.
    expect(row?.sizes).toBe(12);
    expect(row?.allSizes).toBe(row?.offeredTools);
    expect(row?.unused).toBeGreaterThan(row?.decisions ?? 0);
  });

  it("demo:reset deletes the demo tenants and all their rows, and nothing else", async () => {
    const { key } = await createApiKey("not-a-demo");
    const decision = decisionEvent({ run_id: "keep-me" });
    expect(
      (await postBatch(inject("baseUrl"), key, [decision, outcomeFor(decision, [])])).status,
    ).toBe(200);
    // OpenTelemetry rows too (spans, sizes, calls without a tool list), so every table has some.
    const spans = unroutedDemoRuns(Date.now() - 86_400_000, Date.now() - 60_000, 4).flat();
    expect((await storeSpans("not-a-demo", spans)).rejectedSpans).toBe(0);

    const result = await deleteDemoData(getPool());
    expect([...result.tenants].sort()).toEqual([...DEMO_TENANT_IDS].sort());
    expect(result.decisions).toBeGreaterThan(0);
    expect(result.keys).toBeGreaterThanOrEqual(3);

    for (const table of TENANT_SCOPED_TABLES) {
      const [left] = await query<{ demo: number; other: number }>(
        databaseUrl,
        `SELECT count(*) FILTER (WHERE tenant_id = ANY($1::text[]))::int AS demo,
                count(*) FILTER (WHERE tenant_id = 'not-a-demo')::int AS other FROM ${table}`,
        [DEMO_TENANT_IDS],
      );
      expect(left?.demo, table).toBe(0);
      expect(left?.other, table).toBeGreaterThan(0);
    }
    const tenants = await query<{ id: string }>(
      databaseUrl,
      "SELECT id FROM tenants WHERE is_demo",
    );
    expect(tenants).toEqual([]);
  });
});
