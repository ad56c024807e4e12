/**
 * Backtests from the pages: starting and cancelling through the functions the server actions
 * call (the viewer passed in: who may, which fields are refused and why, the audit rows), and
 * over real HTTP a finished backtest's page and its CSV downloads (per tool in the page's
 * order, per role and arm), with the access check: anonymous 401, another tenant's 404.
 *
 * The finished backtest is a designed result written into its row, so every figure on the page
 * and in the CSV is known: the job that computes results has tests of its own.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Viewer } from "@/lib/auth/access";
import { cancelBacktestAs, startBacktestAs } from "@/lib/auth/backtest-management";
import { readBacktestConfig } from "@/lib/backtest/config";
import {
  type ArmSums,
  BACKTEST_NOTES,
  type BacktestNoteCounts,
  type BacktestResult,
} from "@/lib/backtest/types";
import { storeRoutingConfig } from "@/lib/configs/store";
import { createApiKey } from "@/lib/keys";
import { type SignedIn, signedInUser } from "../support/accounts";
import { deleteTenantRows } from "../support/tenant-rows";
import { formData, testViewer } from "../support/viewers";

const databaseUrl = inject("databaseUrl");
const baseUrl = inject("baseUrl");
const run = Date.now().toString(36);
const tenantA = `bt-pages-a-${run}`;
const tenantB = `bt-pages-b-${run}`;
const db = new pg.Client({ connectionString: databaseUrl });
const doneA = randomUUID();
const doneB = randomUUID();
const runningA = randomUUID();

const CANDIDATE = {
  roleTools: { action: ["search_docs", "create_ticket"] },
  alwaysInclude: ["hydrate_context"],
};

const startFields = (overrides: Record<string, string | string[]> = {}) => ({
  tenant: tenantA,
  window: "24h",
  candidateSource: "pasted",
  candidateJson: JSON.stringify(CANDIDATE),
  baselineSource: "recorded",
  thresholdPercent: "1",
  ...overrides,
});

const ZERO: ArmSums = {
  decisions: 0,
  outcomes: 0,
  harmfulDecisions: 0,
  harmfulDrops: 0,
  boundTools: 0,
  tokensSaved: 0,
  emptyPalettes: 0,
  reinstatements: 0,
  forcedUnavailable: 0,
  stageErrors: 0,
  differFromRecorded: 0,
};

/**
 * 100 decisions of role `action`, 60 with an outcome. The candidate drops `send_email` in 4
 * of the 37 decisions that called it (and `refund_order` once); the recorded selection lost
 * nothing.
 */
function designedResult(tenant: string): BacktestResult {
  const recorded: ArmSums = {
    ...ZERO,
    decisions: 100,
    outcomes: 60,
    boundTools: 500,
    tokensSaved: 2_000,
  };
  const candidate: ArmSums = {
    ...ZERO,
    decisions: 100,
    outcomes: 60,
    harmfulDecisions: 5,
    harmfulDrops: 5,
    boundTools: 300,
    tokensSaved: 6_050,
    emptyPalettes: 2,
    reinstatements: 3,
    differFromRecorded: 40,
  };
  const notes = Object.fromEntries(BACKTEST_NOTES.map((note) => [note, 0])) as BacktestNoteCounts;
  notes["no-outcome"] = 40;
  notes["recorded-intent-verdict"] = 12;
  const example = (runId: string, iteration: number) => ({
    tenantId: tenant,
    runId,
    iteration,
    ts: "2026-01-01T00:00:00.000Z",
    role: `role-of-${tenant}`,
  });
  return {
    candidateVersion: "cafe0123456789abcdef",
    baselineVersion: null,
    overall: { recorded, candidate, baseline: null },
    roles: { [`role-of-${tenant}`]: { recorded, candidate, baseline: null } },
    tools: [
      {
        tool: "refund_order",
        offered: 90,
        called: 3,
        recorded: { bound: 90, harmful: 0 },
        candidate: { bound: 10, harmful: 1 },
        baseline: null,
        examples: [example("run-refund", 2)],
      },
      {
        tool: "search_docs",
        offered: 100,
        called: 20,
        recorded: { bound: 100, harmful: 0 },
        candidate: { bound: 100, harmful: 0 },
        baseline: null,
        examples: [],
      },
      {
        tool: "send_email",
        offered: 100,
        called: 37,
        recorded: { bound: 100, harmful: 0 },
        candidate: { bound: 20, harmful: 4 },
        baseline: null,
        examples: [example("run-email-1", 0), example("run-email-2", 5)],
      },
    ],
    notes,
    toolSizes: [
      { tool: "refund_order", tokens: 40, source: "catalog" },
      { tool: "search_docs", tokens: 25, source: "recorded-drops" },
      { tool: "send_email", tokens: 120, source: "otlp" },
    ],
  };
}

async function insertBacktest(id: string, tenant: string, state: string, result: unknown) {
  await db.query(
    `INSERT INTO backtests (id, tenant_id, roles, window_from, window_to, candidate,
                            candidate_version, threshold_percent, state, replayed,
                            estimated_total, result, created_at, finished_at)
     VALUES ($1, $2, '{}', now() - interval '2 days', now() - interval '1 day', $3::jsonb,
             'cafe0123456789abcdef', 1, $4::text, 100, 100, $5::jsonb, now(),
             CASE WHEN $4::text = 'done' THEN now() END)`,
    [id, tenant, JSON.stringify(CANDIDATE), state, result === null ? null : JSON.stringify(result)],
  );
}

async function auditRows(action: string, tenant: string) {
  const { rows } = await db.query(
    "SELECT actor_email, target FROM audit_log WHERE action = $1 AND tenant_id = $2 ORDER BY id",
    [action, tenant],
  );
  return rows as { actor_email: string; target: string }[];
}

let maintainerA: Viewer;
let viewerA: Viewer;
let admin: Viewer;
let httpViewerA: SignedIn;

beforeAll(async () => {
  await db.connect();
  await createApiKey(tenantA);
  await createApiKey(tenantB);
  maintainerA = await testViewer(databaseUrl, { [tenantA]: "maintainer" });
  viewerA = await testViewer(databaseUrl, { [tenantA]: "viewer" });
  admin = await testViewer(databaseUrl, {}, true);
  await insertBacktest(doneA, tenantA, "done", designedResult(tenantA));
  await insertBacktest(doneB, tenantB, "done", designedResult(tenantB));
  await insertBacktest(runningA, tenantA, "running", null);
  httpViewerA = await signedInUser(baseUrl, databaseUrl, { roles: { [tenantA]: "viewer" } });
});

afterAll(async () => {
  await deleteTenantRows(db, tenantA);
  await deleteTenantRows(db, tenantB);
  await db.end();
});

describe("starting a backtest", () => {
  it("a maintainer starts one with a pasted config; it is stored queued and audited", async () => {
    const before = Date.now();
    const state = await startBacktestAs(maintainerA, formData(startFields({ roles: ["action"] })));
    expect(state.fieldErrors).toBeUndefined();
    expect(state.error).toBeUndefined();
    expect(state.backtestId).toMatch(/^[0-9a-f-]{36}$/);
    const { rows } = await db.query(
      `SELECT tenant_id, roles, state, candidate, baseline, created_by,
              extract(epoch FROM window_to - window_from)::int AS seconds, window_to
         FROM backtests WHERE id = $1`,
      [state.backtestId],
    );
    expect(rows[0]).toMatchObject({
      tenant_id: tenantA,
      roles: ["action"],
      state: "queued",
      candidate: CANDIDATE,
      baseline: null,
      created_by: maintainerA.userId,
      seconds: 86_400,
    });
    expect(new Date(rows[0].window_to).getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(await auditRows("backtest-started", tenantA)).toEqual([
      { actor_email: maintainerA.email, target: state.backtestId },
    ]);
  });

  it("takes the candidate from the tenant's stored configs, and the baseline too", async () => {
    const stored = { roleTools: { action: ["search_docs"] }, alwaysInclude: ["hydrate_context"] };
    const read = readBacktestConfig(stored);
    if (!read.ok) throw new Error(read.error);
    const saved = await storeRoutingConfig({
      tenant: tenantA,
      config: stored,
      configVersion: read.version,
      author: { kind: "system", name: "test" },
    });
    expect(saved.status).toBe("saved");
    const state = await startBacktestAs(
      maintainerA,
      formData(
        startFields({
          candidateSource: "stored",
          candidateVersion: read.version,
          baselineSource: "pasted",
          baselineJson: JSON.stringify(CANDIDATE),
        }),
      ),
    );
    expect(state.fieldErrors).toBeUndefined();
    const { rows } = await db.query(
      "SELECT candidate, candidate_version, baseline, baseline_version FROM backtests WHERE id = $1",
      [state.backtestId],
    );
    const baseline = readBacktestConfig(CANDIDATE);
    expect(rows[0]).toEqual({
      candidate: stored,
      candidate_version: read.version,
      baseline: CANDIDATE,
      baseline_version: baseline.ok ? baseline.version : "",
    });
  });

  it("refuses a viewer, and a tenant the maintainer does not maintain, by the tenant field", async () => {
    const viewer = await startBacktestAs(viewerA, formData(startFields()));
    expect(viewer.fieldErrors?.tenant).toMatch(/pick a tenant you maintain/);
    const other = await startBacktestAs(maintainerA, formData(startFields({ tenant: tenantB })));
    expect(other.fieldErrors?.tenant).toMatch(/pick a tenant you maintain/);
    expect(other.backtestId).toBeUndefined();
  });

  it("names the field and the rule of every refusal, and keeps what was typed", async () => {
    const notJson = await startBacktestAs(
      maintainerA,
      formData(startFields({ candidateJson: "{roleTools:" })),
    );
    expect(notJson.fieldErrors?.candidateJson).toMatch(/^Candidate: not valid JSON/);
    expect(notJson.values?.candidateJson).toBe("{roleTools:");

    const badConfig = await startBacktestAs(
      maintainerA,
      formData(
        startFields({ candidateJson: JSON.stringify({ roleTools: { action: "search_docs" } }) }),
      ),
    );
    expect(badConfig.fieldErrors?.candidateJson).toMatch(/^Candidate: .*roleTools/);

    const tooLong = await startBacktestAs(
      maintainerA,
      formData(
        startFields({
          window: "custom",
          from: "2026-01-01T00:00:00Z",
          to: "2026-02-15T00:00:00Z",
        }),
      ),
    );
    expect(tooLong.fieldErrors?.to).toBe("the window must be at most 30 days");

    const noBounds = await startBacktestAs(
      maintainerA,
      formData(startFields({ window: "custom" })),
    );
    expect(noBounds.fieldErrors?.from).toMatch(/^From is required/);

    const noStored = await startBacktestAs(
      maintainerA,
      formData(startFields({ candidateSource: "stored", candidateVersion: "no-such-version" })),
    );
    expect(noStored.fieldErrors?.candidateVersion).toMatch(/no stored config/);

    const threshold = await startBacktestAs(
      maintainerA,
      formData(startFields({ thresholdPercent: "80" })),
    );
    expect(threshold.fieldErrors?.thresholdPercent).toMatch(/at most 50/);
  });
});

describe("cancelling a backtest", () => {
  it("a maintainer cancels a queued one at once; the audit log says who", async () => {
    const id = randomUUID();
    await insertBacktest(id, tenantA, "queued", null);
    expect((await cancelBacktestAs(viewerA, formData({ id }))).error).toMatch(/No such backtest/);
    const state = await cancelBacktestAs(maintainerA, formData({ id }));
    expect(state.done).toBe("Cancelled before it started.");
    const { rows } = await db.query("SELECT state FROM backtests WHERE id = $1", [id]);
    expect(rows[0]?.state).toBe("cancelled");
    expect((await auditRows("backtest-cancelled", tenantA)).map((row) => row.target)).toContain(id);
    // Once finished there is nothing to cancel.
    expect((await cancelBacktestAs(maintainerA, formData({ id }))).error).toMatch(
      /already cancelled/,
    );
  });

  it("a running one becomes cancelling; another tenant's is answered as absent", async () => {
    expect((await cancelBacktestAs(admin, formData({ id: runningA }))).done).toMatch(/^Cancelling/);
    expect((await cancelBacktestAs(maintainerA, formData({ id: doneB }))).error).toMatch(
      /No such backtest/,
    );
  });
});

describe("the backtests list", () => {
  it("pages through a tenant's backtests, 50 newest first, with a pager", async () => {
    const tenantC = `bt-pages-c-${run}`;
    try {
      await createApiKey(tenantC);
      const ids: string[] = [];
      for (let i = 0; i < 53; i++) {
        const id = randomUUID();
        ids.push(id);
        await insertBacktest(id, tenantC, "done", null);
        await db.query(
          "UPDATE backtests SET created_at = now() - make_interval(mins => $2) WHERE id = $1",
          [id, i],
        );
      }
      const reader = await signedInUser(baseUrl, databaseUrl, { roles: { [tenantC]: "viewer" } });
      const listed = async (path: string) => {
        const response = await reader.fetch(path);
        expect(response.status).toBe(200);
        const html = (await response.text()).replace(/<!-- -->/g, "");
        return { html, ids: ids.filter((id) => html.includes(`/backtests/${id}`)) };
      };
      const first = await listed("/backtests");
      expect(first.html).toContain("1–50 of 53 backtests");
      expect(first.ids).toEqual(ids.slice(0, 50));
      expect(first.html).toContain('href="/backtests?page=2"');
      const second = await listed("/backtests?page=2");
      expect(second.html).toContain("51–53 of 53 backtests");
      expect(second.ids).toEqual(ids.slice(50));
      // A page past the end shows the last one; the tenant filter keeps its own count.
      expect((await listed("/backtests?page=9")).ids).toEqual(ids.slice(50));
      expect((await listed(`/backtests?tenant=${tenantC}`)).html).toContain(
        `href="/backtests?tenant=${tenantC}&amp;page=2"`,
      );
    } finally {
      await deleteTenantRows(db, tenantC);
    }
  });
});

describe("a finished backtest's page", () => {
  it("shows the verdict, the comparison, the per-tool table and what could not be replayed", async () => {
    const response = await httpViewerA.fetch(`/backtests/${doneA}`);
    expect(response.status).toBe(200);
    const html = (await response.text()).replace(/<!-- -->/g, "");
    expect(html).toContain("Not safe to enforce: this config would have broken calls");
    expect(html).toContain("8.33%"); // 5 of 60
    expect(html).toContain(
      'would drop <code class="tool">send_email</code>, which the model called 37 times',
    );
    expect(html).toContain("40 decisions have no tool_call_outcome");
    expect(html).toContain("12 decisions had an &quot;action&quot; intent verdict");
    expect(html).toContain(
      `/runs/run-email-1?tenant=${tenantA}&amp;backtest=${doneA}&amp;iteration=0#replay`,
    );
    // The costliest harm first: send_email (4 lost) before refund_order (1).
    expect(html.indexOf('would drop <code class="tool">send_email')).toBeLessThan(
      html.indexOf('would drop <code class="tool">refund_order'),
    );
  });

  it("answers 404 for another tenant's backtest and for an id that is none", async () => {
    expect((await httpViewerA.fetch(`/backtests/${doneB}`)).status).toBe(404);
    expect((await httpViewerA.fetch("/backtests/not-an-id")).status).toBe(404);
  });
});

describe("the backtest's CSV downloads", () => {
  it("per tool, in the page's order, with the page's sentence", async () => {
    const response = await httpViewerA.fetch(`/api/export/backtest?id=${doneA}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/csv/);
    expect(response.headers.get("x-routelens-row-count")).toBe("3");
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "tool,offered,called,lost_candidate,lost_recorded,lost_baseline,bound_candidate,bound_recorded,bound_baseline,estimated_tokens_per_offer,token_estimate_source,summary,example_runs",
    );
    expect(lines.slice(1).map((line) => line.split(",")[0])).toEqual([
      "send_email",
      "refund_order",
      "search_docs",
    ]);
    expect(lines[1]).toBe(
      'send_email,100,37,4,0,,20,100,,120,otlp,"would drop send_email, which the model called 37 times (4 of those calls lost)",run-email-1#0 run-email-2#5',
    );
    const byName = await httpViewerA.fetch(`/api/export/backtest?id=${doneA}&sort=tool&dir=asc`);
    const names = (await byName.text())
      .trim()
      .split("\r\n")
      .slice(1)
      .map((line) => line.split(",")[0]);
    expect(names).toEqual(["refund_order", "search_docs", "send_email"]);
  });

  it("per role and arm, with the Wilson interval of the harmful-drop rate", async () => {
    const response = await httpViewerA.fetch(`/api/export/backtest?id=${doneA}&table=roles`);
    expect(response.status).toBe(200);
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]?.split(",").slice(0, 9)).toEqual([
      "role",
      "arm",
      "decisions",
      "outcomes",
      "harmful_decisions",
      "harmful_drops",
      "harmful_drop_rate",
      "wilson_lower_95",
      "wilson_upper_95",
    ]);
    expect(lines.map((line) => line.split(",").slice(0, 2).join(","))).toEqual([
      "role,arm",
      "(all),recorded",
      "(all),candidate",
      `role-of-${tenantA},recorded`,
      `role-of-${tenantA},candidate`,
    ]);
    // 5 of 60: Wilson 95% [3.61%, 18.07%].
    expect(lines[2]?.split(",").slice(2, 9)).toEqual([
      "100",
      "60",
      "5",
      "5",
      "0.083333",
      "0.03612",
      "0.180689",
    ]);
  });

  it("refuses anonymous requests, other tenants, unfinished backtests and bad parameters", async () => {
    expect((await fetch(`${baseUrl}/api/export/backtest?id=${doneA}`)).status).toBe(401);
    expect((await httpViewerA.fetch(`/api/export/backtest?id=${doneB}`)).status).toBe(404);
    expect((await httpViewerA.fetch(`/api/export/backtest?id=${runningA}`)).status).toBe(404);
    const badTable = await httpViewerA.fetch(`/api/export/backtest?id=${doneA}&table=stages`);
    expect(badTable.status).toBe(400);
    expect((await badTable.json()).error).toMatch(/table/);
    const noId = await httpViewerA.fetch("/api/export/backtest");
    expect(noId.status).toBe(400);
    expect((await noId.json()).error).toMatch(/id/);
  });
});
