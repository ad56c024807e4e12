/**
 * The dashboard's side of OpenTelemetry ingest on what the real path stores: a Vercel AI SDK
 * agent (five tools, three steps: search_orders, refund_order, then an answer) exported by the
 * real OTLP exporter to the running server, then read back through the dashboard's queries and
 * pages — the context tax per tool, the calls without a tool list (recordInputs: false), and the
 * run trace of its mode-off calls with their tool runs.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { tenantsScope } from "@/lib/auth/scope";
import type { Period } from "@/lib/dashboard/time-range";
import { groupToolRuns } from "@/lib/dashboard/tool-runs";
import { prepareRunTrace } from "@/lib/dashboard/trace";
import { describeUnroutedCall } from "@/lib/dashboard/unrouted-call";
import { countCallsWithoutTools, sumContextTaxByTenantTool } from "@/lib/db/queries/context-tax";
import type { RollupFilter } from "@/lib/db/queries/rollup";
import { listPageSpans, listRunDecisions, listRunOutcomes } from "@/lib/db/queries/run-trace";
import { createApiKey } from "@/lib/keys";
import { sumContextTaxPerTool } from "@/lib/tools/context-tax";
import { type SignedIn, signedInUser } from "../support/accounts";
import { AGENT_TOOLS, exportSpans, runAgent } from "../support/otel-agent";
import { deleteTenantRows } from "../support/tenant-rows";

/** The per-tool context tax, summed over tenants as the tools page does. */
async function sumContextTaxByTool(filter: RollupFilter, period: Period) {
  return sumContextTaxPerTool(await sumContextTaxByTenantTool(filter, period));
}

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const tenant = `otel-tax-${Date.now().toString(36)}`;
const HOUR = 3_600_000;
/** A window around now, on the hour grid of the per-tool rollup. */
const period = () => ({
  from: new Date(Math.floor(Date.now() / HOUR) * HOUR - HOUR),
  to: new Date(Math.floor(Date.now() / HOUR) * HOUR + HOUR),
});

let db: pg.Client;
let admin: SignedIn;
let runId: string;

beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const apiKey = (await createApiKey(tenant)).key;
  const target = { url: `${baseUrl}/api/otlp/v1/traces`, apiKey, encoding: "protobuf" as const };
  const run = await runAgent();
  expect((await exportSpans(run.spans, target)).code).toBe(0);
  const blind = await runAgent({ recordInputs: false, functionId: "blind-agent" });
  expect((await exportSpans(blind.spans, target)).code).toBe(0);
  const { rows } = await db.query<{ run_id: string }>(
    "SELECT DISTINCT run_id FROM decisions WHERE tenant_id = $1",
    [tenant],
  );
  expect(rows).toHaveLength(1);
  runId = rows[0]?.run_id ?? "";
  admin = await signedInUser(baseUrl, databaseUrl, { isAdmin: true });
});

afterAll(async () => {
  for (const table of ["tool_sizes", "otel_call_rollup_hour", "otel_spans"]) {
    await db.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [tenant]);
  }
  await deleteTenantRows(db, tenant);
  await db.end();
});

describe("an agent that routes nothing, exported through OTLP", () => {
  it("has a context tax per tool: three offers each, the two calls, the unused offers' tokens", async () => {
    const lines = await sumContextTaxByTool({ scope: tenantsScope([tenant]) }, period());
    const byTool = Object.fromEntries(lines.map((line) => [line.tool, line]));
    expect(Object.keys(byTool).sort()).toEqual([...AGENT_TOOLS].sort());
    const { rows: sizes } = await db.query<{ tool: string; tokens: number }>(
      "SELECT tool, tokens FROM tool_sizes WHERE tenant_id = $1",
      [tenant],
    );
    expect(sizes).toHaveLength(AGENT_TOOLS.length);
    for (const { tool, tokens } of sizes) {
      const called = tool === "search_orders" || tool === "refund_order" ? 1 : 0;
      expect(byTool[tool]).toEqual({
        tool,
        offers: 3,
        calls: called,
        // Every call recorded its output; a tool is unused in each call that did not call it.
        unusedOffers: 3 - called,
        estimatedOffers: 3,
        definitionOffers: 3,
        offeredTokens: 3 * tokens,
        unusedTokens: (3 - called) * tokens,
      });
    }
  });

  it("counts the LLM calls of the agent that recorded no inputs", async () => {
    expect(await countCallsWithoutTools({ scope: tenantsScope([tenant]) }, period())).toBe(3);
  });

  it("shows each mode-off call as offered and called, with its tool run", async () => {
    const decisions = await listRunDecisions(tenant, runId, { offset: 0, limit: 25 });
    expect(decisions.map((decision) => [decision.iteration, decision.mode])).toEqual([
      [0, "off"],
      [1, "off"],
      [2, "off"],
    ]);
    const outcomes = await listRunOutcomes(tenant, runId, 0, 2);
    const spans = await listPageSpans(
      tenant,
      runId,
      decisions.map((decision) => decision.id),
    );
    const views = prepareRunTrace(decisions, outcomes, groupToolRuns(spans.calls, spans.toolRuns));
    expect(views.map((view) => describeUnroutedCall(view).text)).toEqual([
      "Offered 5 tools, called search_orders",
      "Offered 5 tools, called refund_order",
      "Offered 5 tools, called no tool",
    ]);
    expect(views.map((view) => view.toolRuns.map((run) => [run.name, run.joinedBy]))).toEqual([
      [["search_orders", "call_id"]],
      [["refund_order", "call_id"]],
      [],
    ]);
    for (const run of views.flatMap((view) => view.toolRuns)) {
      expect(run.error).toBeNull();
      expect(run.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it("serves the tools page's headline and hint, and the run trace, to a signed-in user", async () => {
    const tools = await admin.fetch(`/tools?tenant=${encodeURIComponent(tenant)}`);
    expect(tools.status).toBe(200);
    const html = await tools.text();
    expect(html).toContain("Offering tools the model did not call cost an estimated");
    expect(html).toContain("3 LLM calls carried no tool list — tool recording is off");
    const trace = await admin.fetch(
      `/runs/${encodeURIComponent(runId)}?tenant=${encodeURIComponent(tenant)}`,
    );
    expect(trace.status).toBe(200);
    const traceHtml = await trace.text();
    expect(traceHtml).toContain('data-testid="unrouted-call"');
    expect(traceHtml).toContain('data-testid="tool-runs"');
    expect(traceHtml).not.toContain("<h4>Stages</h4>");
  });
});
