/**
 * Storing OpenTelemetry spans (lib/otlp/store.ts) against a real PostgreSQL: a three-call run,
 * re-exports, a run split over exports in reverse order, refusals beside stored neighbours,
 * tenants apart, and rollups that equal sums over the raw rows.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listRunDecisions, listRunDecisionsInBatches } from "@/lib/db/queries/run-trace";
import { DECISIONS_WITH_OUTCOMES } from "@/lib/ingest/decision-outcomes";
import { offeredOf, selectedOf } from "@/lib/ingest/palettes";
import { storeSpans } from "@/lib/otlp/store";
import type { OtlpSpan } from "@/lib/otlp/types";
import {
  aiSdkCall,
  aiSdkToolRun,
  genAiCall,
  genAiToolRun,
  spanId,
  traceId,
} from "../support/otel-spans";
import { rollupDifferences } from "../support/rollup-sums";
import { deleteTenantRows } from "../support/tenant-rows";

const suffix = Date.now().toString(36);
const tenant = (name: string) => `otel-${name}-${suffix}`;
const TENANTS = ["run", "split", "concurrent", "sizes", "bad", "twin-a", "twin-b"].map(tenant);
const TOOLS = ["search_orders", "refund_order", "create_ticket", "escalate", "lookup_customer"];
/** An hour ago, on a whole second: inside the timestamp window and the prune horizon. */
const T0 = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;

let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
});
afterAll(async () => {
  for (const t of TENANTS) {
    for (const table of ["otel_spans", "tool_sizes", "otel_call_rollup_hour"]) {
      await db.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [t]);
    }
    await deleteTenantRows(db, t);
  }
  await db.end();
});

/**
 * A three-step AI SDK run offering five tools on each step: step 1 calls search_orders, step 2
 * refund_order, step 3 answers; the two tool runs are siblings of their calls. Plus, in another
 * trace, one LLM call recorded without its tool list.
 */
function threeCallRun(trace: string, session?: string): { calls: OtlpSpan[]; rest: OtlpSpan[] } {
  const common = { traceId: trace, tools: TOOLS, functionId: "support-agent", sessionId: session };
  const calls = [
    aiSdkCall({
      ...common,
      spanId: spanId(1),
      startMs: T0,
      calls: [{ id: "call-1", name: "search_orders" }],
    }),
    aiSdkCall({
      ...common,
      spanId: spanId(3),
      startMs: T0 + 1000,
      calls: [{ id: "call-2", name: "refund_order" }],
    }),
    aiSdkCall({ ...common, spanId: spanId(5), startMs: T0 + 2000, calls: [] }),
  ];
  const rest = [
    aiSdkToolRun({
      traceId: trace,
      spanId: spanId(2),
      startMs: T0 + 500,
      tool: "search_orders",
      callId: "call-1",
    }),
    aiSdkToolRun({
      traceId: trace,
      spanId: spanId(4),
      startMs: T0 + 1500,
      tool: "refund_order",
      callId: "call-2",
      statusCode: 2,
      statusMessage: "payment service timed out",
    }),
    aiSdkCall({
      traceId: traceId(`${trace}-x`).slice(0, 32),
      spanId: spanId(9),
      startMs: T0,
      functionId: "support-agent",
    }),
  ];
  return { calls, rest };
}

/** Everything stored for a tenant, without ids and arrival times, in a fixed order. */
type Snapshot = Record<
  | "decisions"
  | "outcomes"
  | "runs"
  | "rollupMinute"
  | "rollupHour"
  | "tools"
  | "spans"
  | "sizes"
  | "withoutTools",
  unknown[]
>;

async function snapshot(t: string): Promise<Snapshot> {
  const q = async (sql: string) => (await db.query(sql, [t])).rows;
  return {
    decisions: await q(
      `SELECT event_id, run_id, role, mode, iteration, turn_hop_index, ts, ${offeredOf("decisions")} AS offered,
              ${selectedOf("decisions")} AS selected, selected IS NULL AS selected_is_offered, dropped_tokens, model, agent, has_outcome, called, harmful_tools
         FROM ${DECISIONS_WITH_OUTCOMES} AS decisions WHERE tenant_id = $1 ORDER BY event_id`,
    ),
    outcomes: await q(
      `SELECT event_id, run_id, role, iteration, ts, called, joined
         FROM outcomes WHERE tenant_id = $1 ORDER BY event_id`,
    ),
    runs: await q(`SELECT * FROM runs WHERE tenant_id = $1 ORDER BY run_id`),
    rollupMinute: await q(
      `SELECT * FROM rollup_minute WHERE tenant_id = $1 ORDER BY role, mode, bucket`,
    ),
    rollupHour: await q(
      `SELECT * FROM rollup_hour WHERE tenant_id = $1 ORDER BY role, mode, bucket`,
    ),
    tools: await q(
      `SELECT * FROM tool_rollup_hour WHERE tenant_id = $1 ORDER BY role, mode, bucket, tool`,
    ),
    spans: await q(
      `SELECT trace_id, span_id, run_id, kind, name, start_ns, end_ns, ts, tool, call_id, call_ids, error
         FROM otel_spans WHERE tenant_id = $1 ORDER BY trace_id, span_id`,
    ),
    sizes: await q(
      `SELECT tool, tokens, seen_at FROM tool_sizes WHERE tenant_id = $1 ORDER BY tool`,
    ),
    withoutTools: await q(
      `SELECT role, bucket, calls_without_tools FROM otel_call_rollup_hour WHERE tenant_id = $1`,
    ),
  };
}

/** The snapshot with the tenant column left out, to compare two tenants. */
function withoutTenant(snap: Snapshot): Record<string, unknown[]> {
  return Object.fromEntries(
    Object.entries(snap).map(([k, rows]) => [
      k,
      rows.map((row) => {
        const { tenant_id: _, ...rest } = row as Record<string, unknown>;
        return rest;
      }),
    ]),
  );
}

describe("storeSpans", () => {
  const trace = traceId("three-call-run");

  it("stores a three-call run: 3 off decisions of 5 offered tools each, their outcomes, tool runs, sizes", async () => {
    const t = tenant("run");
    const { calls, rest } = threeCallRun(trace);
    expect(await storeSpans(t, [...calls, ...rest])).toEqual({
      rejectedSpans: 0,
      errorMessage: "",
    });

    const snap = await snapshot(t);
    expect(
      snap.decisions.map((d) => {
        const row = d as Record<string, unknown>;
        return [
          row.event_id,
          row.iteration,
          row.mode,
          row.role,
          row.run_id,
          row.called,
          row.has_outcome,
        ];
      }),
    ).toEqual([
      [`otel:${trace}:${spanId(1)}`, 0, "off", "support-agent", trace, ["search_orders"], true],
      [`otel:${trace}:${spanId(3)}`, 1, "off", "support-agent", trace, ["refund_order"], true],
      [`otel:${trace}:${spanId(5)}`, 2, "off", "support-agent", trace, [], true],
    ]);
    const decisions = snap.decisions as {
      offered: string[];
      selected: string[];
      selected_is_offered: boolean;
    }[];
    for (const d of decisions) {
      expect(d.offered).toEqual(TOOLS);
      expect(d.selected).toEqual(TOOLS);
      // An unrouted call selected all it was offered: the list is stored once, as its palette.
      expect(d.selected_is_offered).toBe(true);
    }
    // The run page and its CSV read the offered list as the selected one: nothing dropped.
    const page = await listRunDecisions(t, trace, { offset: 0, limit: 10 });
    expect(page.map((d) => [d.selected, d.dropped])).toEqual(Array(3).fill([TOOLS, []]));
    const exported = [];
    for await (const batch of listRunDecisionsInBatches(t, trace, { max: 10 })) {
      exported.push(...batch);
    }
    expect(exported.map((d) => [d.selected, d.dropped])).toEqual(Array(3).fill([TOOLS, []]));
    expect(
      (snap.outcomes as { event_id: string; iteration: number; joined: boolean }[]).map((o) => [
        o.event_id,
        o.iteration,
        o.joined,
      ]),
    ).toEqual([
      [`otel:${trace}:${spanId(1)}:called`, 0, true],
      [`otel:${trace}:${spanId(3)}:called`, 1, true],
      [`otel:${trace}:${spanId(5)}:called`, 2, true],
    ]);
    expect(snap.runs).toMatchObject([
      { run_id: trace, decisions: 3, max_iteration: 2, modes: ["off"] },
    ]);
    const toolRuns = (snap.spans as Record<string, unknown>[]).filter((s) => s.kind === "tool_run");
    expect(toolRuns.map((s) => [s.tool, s.call_id, s.run_id, s.error])).toEqual([
      ["search_orders", "call-1", trace, null],
      ["refund_order", "call-2", trace, "payment service timed out"],
    ]);
    expect((snap.sizes as { tool: string }[]).map((s) => s.tool)).toEqual([...TOOLS].sort());
    expect(snap.withoutTools).toMatchObject([{ role: "support-agent", calls_without_tools: 1 }]);

    // Five offered tools, three decisions with an outcome: each tool offered 3 times.
    const tools = snap.tools as { tool: string; offered: number; called: number }[];
    expect(tools.map((r) => [r.tool, r.offered, r.called]).sort()).toEqual(
      [...TOOLS]
        .sort()
        .map((tool) => [tool, 3, tool === "search_orders" || tool === "refund_order" ? 1 : 0]),
    );
    // The context tax's count: each call left the tools it did not call unused.
    const unused = await db.query(
      "SELECT tool, unused_offers FROM tool_rollup_hour WHERE tenant_id = $1 ORDER BY tool",
      [t],
    );
    expect(unused.rows.map((r) => [r.tool, r.unused_offers])).toEqual(
      [...TOOLS]
        .sort()
        .map((tool) => [tool, tool === "search_orders" || tool === "refund_order" ? 2 : 3]),
    );
    expect(await rollupDifferences(db, t)).toEqual([]);
  });

  it("stores nothing new when the same spans are exported again", async () => {
    const t = tenant("run");
    const before = await snapshot(t);
    const { calls, rest } = threeCallRun(trace);
    expect(await storeSpans(t, [...rest, ...calls])).toEqual({
      rejectedSpans: 0,
      errorMessage: "",
    });
    expect(await snapshot(t)).toEqual(before);
  });

  it("gives the same stored result when the run arrives in two exports in reverse order", async () => {
    const t = tenant("split");
    const { calls, rest } = threeCallRun(trace);
    // The last call and the tool runs first; the two earlier calls after.
    expect((await storeSpans(t, [calls[2] as OtlpSpan, ...rest])).rejectedSpans).toBe(0);
    const partial = await snapshot(t);
    expect((partial.decisions as { iteration: number }[]).map((d) => d.iteration)).toEqual([0]);
    expect((await storeSpans(t, [calls[1] as OtlpSpan, calls[0] as OtlpSpan])).rejectedSpans).toBe(
      0,
    );

    expect(withoutTenant(await snapshot(t))).toEqual(withoutTenant(await snapshot(tenant("run"))));
    expect(await rollupDifferences(db, t)).toEqual([]);
  });

  it("gives the same stored result when exports of one run, and duplicates, arrive concurrently", async () => {
    const t = tenant("concurrent");
    const { calls, rest } = threeCallRun(trace);
    const [first, second, third] = calls as [OtlpSpan, OtlpSpan, OtlpSpan];
    const results = await Promise.all([
      storeSpans(t, [third, ...rest]),
      storeSpans(t, [second]),
      storeSpans(t, [first, third]),
      storeSpans(t, [second, first]),
    ]);
    expect(results.map((r) => r.rejectedSpans)).toEqual([0, 0, 0, 0]);
    expect(withoutTenant(await snapshot(t))).toEqual(withoutTenant(await snapshot(tenant("run"))));
    expect(await rollupDifferences(db, t)).toEqual([]);
  });

  it("keeps a tool's size as last seen by span start, whatever the export order", async () => {
    const t = tenant("sizes");
    const sizesTrace = traceId("tool-sizes");
    const definition = (description: string) => ({
      "gen_ai.tool.definitions": JSON.stringify([{ name: "lookup", description }]),
    });
    const older = genAiCall({
      traceId: sizesTrace,
      spanId: spanId(1),
      startMs: T0,
      attributes: definition("x".repeat(400)),
    });
    const newer = genAiCall({
      traceId: sizesTrace,
      spanId: spanId(2),
      startMs: T0 + 1000,
      attributes: definition("short"),
    });
    await storeSpans(t, [newer]);
    await storeSpans(t, [older]);
    const { rows } = await db.query(
      "SELECT tool, tokens, seen_at FROM tool_sizes WHERE tenant_id = $1",
      [t],
    );
    // {"name":"lookup","description":"short"} is 39 characters: ceil(39 / 4) = 10.
    expect(rows).toEqual([{ tool: "lookup", tokens: 10, seen_at: new Date(T0 + 1000) }]);
  });

  it("keeps a tool's size from the latest call of one export, when calls share a tool list", async () => {
    const t = tenant("sizes-shared");
    const sizesTrace = traceId("tool-sizes-shared");
    const definition = (description: string) => ({
      "gen_ai.tool.definitions": JSON.stringify([{ name: "lookup", description }]),
    });
    const call = (n: number, startMs: number, description: string) =>
      genAiCall({
        traceId: sizesTrace,
        spanId: spanId(n),
        startMs,
        attributes: definition(description),
      });
    // One export: the long list's latest call is neither its first nor its last span, and the
    // short list is offered between the long list's first and latest calls.
    await storeSpans(t, [
      call(1, T0, "x".repeat(400)),
      call(4, T0 + 2000, "x".repeat(400)),
      call(2, T0 + 500, "x".repeat(400)),
      call(3, T0 + 1000, "short"),
    ]);
    const { rows } = await db.query(
      "SELECT tool, tokens, seen_at FROM tool_sizes WHERE tenant_id = $1",
      [t],
    );
    // {"name":"lookup","description":"xxx…"} with 400 x is 434 characters: ceil(434 / 4) = 109.
    expect(rows).toEqual([{ tool: "lookup", tokens: 109, seen_at: new Date(T0 + 2000) }]);
  });

  it("refuses a bad span with a message naming the attribute, and stores its neighbours", async () => {
    const t = tenant("bad");
    const badTrace = traceId("bad-span");
    const result = await storeSpans(t, [
      genAiCall({
        traceId: badTrace,
        spanId: spanId(1),
        startMs: T0,
        tools: ["a", "b"],
        calls: [{ id: "c1", name: "a" }],
      }),
      genAiCall({
        traceId: badTrace,
        spanId: spanId(2),
        startMs: T0 + 10,
        attributes: { "gen_ai.tool.definitions": '[{"name": "a",' },
      }),
      genAiCall({
        traceId: badTrace,
        spanId: spanId(3),
        startMs: T0 + 20,
        tools: ["a", "b"],
        calls: [],
      }),
      genAiToolRun({
        traceId: badTrace,
        spanId: spanId(4),
        startMs: T0 + 5,
        tool: "a",
        callId: "c1",
      }),
    ]);
    expect(result.rejectedSpans).toBe(1);
    expect(result.errorMessage).toMatch(
      new RegExp(
        `^span ${spanId(2)} \\(chat gpt-test\\): attribute gen_ai\\.tool\\.definitions: must be a JSON array of tool definitions`,
      ),
    );
    const snap = await snapshot(t);
    expect(
      (snap.decisions as { iteration: number; called: string[] }[]).map((d) => [
        d.iteration,
        d.called,
      ]),
    ).toEqual([
      [0, ["a"]],
      [1, []],
    ]);
    expect(snap.spans).toHaveLength(3);
    expect(await rollupDifferences(db, t)).toEqual([]);
  });

  it("moves tool runs stored before their trace's first LLM call to the call's session run", async () => {
    const [early, whole] = [tenant("adopt-early"), tenant("adopt-whole")];
    const adopted = traceId("adopted-trace");
    const { calls, rest } = threeCallRun(adopted, "session-2");
    expect((await storeSpans(early, rest)).rejectedSpans).toBe(0);
    const before = (await snapshot(early)).spans as { run_id: string; kind: string }[];
    expect(before.filter((s) => s.kind === "tool_run").map((s) => s.run_id)).toEqual([
      adopted,
      adopted,
    ]);
    expect((await storeSpans(early, calls)).rejectedSpans).toBe(0);
    expect((await storeSpans(whole, [...calls, ...rest])).rejectedSpans).toBe(0);

    const snap = await snapshot(early);
    expect(
      (snap.spans as { run_id: string; kind: string }[])
        .filter((s) => s.kind === "tool_run")
        .map((s) => s.run_id),
    ).toEqual(["session-2", "session-2"]);
    expect(withoutTenant(snap)).toEqual(withoutTenant(await snapshot(whole)));
  });

  it("keeps two tenants with the same trace id apart", async () => {
    const [a, b] = [tenant("twin-a"), tenant("twin-b")];
    const shared = traceId("shared-trace");
    const { calls, rest } = threeCallRun(shared, "session-1");
    await storeSpans(a, [...calls, ...rest]);
    await storeSpans(b, [calls[0] as OtlpSpan]);
    const [snapA, snapB] = [await snapshot(a), await snapshot(b)];
    expect(snapA.decisions).toHaveLength(3);
    expect(snapB.decisions).toHaveLength(1);
    expect(snapA.runs).toMatchObject([{ run_id: "session-1", decisions: 3, max_iteration: 2 }]);
    expect(snapB.runs).toMatchObject([{ run_id: "session-1", decisions: 1, max_iteration: 0 }]);
    expect(
      (snapA.spans as { run_id: string; kind: string }[])
        .filter((s) => s.kind === "tool_run")
        .map((s) => s.run_id),
    ).toEqual(["session-1", "session-1"]);
    expect(await rollupDifferences(db, a)).toEqual([]);
    expect(await rollupDifferences(db, b)).toEqual([]);
  });
});
