/**
 * A new LLM-call span whose derived event ids are already stored (stored earlier under a span
 * since pruned): lib/otlp/store.ts stores the span and its new neighbours, and leaves the
 * stored decision and outcome alone — nothing twice, rollups equal to the raw rows.
 */
import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { storeSpans } from "@/lib/otlp/store";
import { aiSdkCall, spanId, traceId } from "../support/otel-spans";
import { rollupDifferences } from "../support/rollup-sums";
import { deleteTenantRows } from "../support/tenant-rows";

const tenant = `otel-stored-events-${Date.now().toString(36)}`;
const TOOLS = ["search_orders", "refund_order", "create_ticket"];
const T0 = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;

let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
});
afterAll(async () => {
  for (const table of ["otel_spans", "tool_sizes", "otel_call_rollup_hour"]) {
    await db.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [tenant]);
  }
  await deleteTenantRows(db, tenant);
  await db.end();
});

it("stores a span whose derived decision and outcome are already stored, without storing them twice", async () => {
  const trace = traceId("stored-events");
  const common = { traceId: trace, tools: TOOLS, functionId: "support-agent" };
  const first = aiSdkCall({
    ...common,
    spanId: spanId(1),
    startMs: T0,
    calls: [{ id: "call-1", name: "search_orders" }],
  });
  const second = aiSdkCall({
    ...common,
    spanId: spanId(3),
    startMs: T0 + 1000,
    calls: [{ id: "call-2", name: "refund_order" }],
  });
  expect(await storeSpans(tenant, [first])).toEqual({ rejectedSpans: 0, errorMessage: "" });
  // The span goes (as pruning removes it); its decision and outcome stay.
  await db.query("DELETE FROM otel_spans WHERE tenant_id = $1", [tenant]);

  expect(await storeSpans(tenant, [second, first])).toEqual({
    rejectedSpans: 0,
    errorMessage: "",
  });

  const spans = await db.query<{ span_id: string }>(
    "SELECT span_id FROM otel_spans WHERE tenant_id = $1 ORDER BY span_id",
    [tenant],
  );
  expect(spans.rows.map((r) => r.span_id)).toEqual([spanId(1), spanId(3)]);
  const decisions = await db.query<{ event_id: string; iteration: number }>(
    "SELECT event_id, iteration FROM decisions WHERE tenant_id = $1 ORDER BY iteration",
    [tenant],
  );
  expect(decisions.rows).toEqual([
    { event_id: `otel:${trace}:${spanId(1)}`, iteration: 0 },
    { event_id: `otel:${trace}:${spanId(3)}`, iteration: 1 },
  ]);
  const outcomes = await db.query<{ event_id: string; called: string[] }>(
    "SELECT event_id, called FROM outcomes WHERE tenant_id = $1 ORDER BY event_id",
    [tenant],
  );
  expect(outcomes.rows).toEqual([
    { event_id: `otel:${trace}:${spanId(1)}:called`, called: ["search_orders"] },
    { event_id: `otel:${trace}:${spanId(3)}:called`, called: ["refund_order"] },
  ]);
  expect(await rollupDifferences(db, tenant)).toEqual([]);
});
