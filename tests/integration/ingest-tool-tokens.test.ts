/**
 * `tool_tokens` on tool_routing_decision, over real HTTP into the real database: optional for
 * v1 senders, validated per event like every other field, and kept per (tenant, tool) in
 * `tool_sizes` (latest estimate wins) without changing what a duplicate or a refused event does.
 * Also the routing configuration's published JSON Schema.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createApiKey } from "@/lib/keys";
import { prepareRouting, routeTurn } from "@/lib/selection";
import { decisionEvent, outcomeEvent } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";

const baseUrl = inject("baseUrl");
let db: pg.Client;
let key: string;
let otherKey: string;
const tenant = `tool-tokens-${Date.now()}`;
const otherTenant = `tool-tokens-other-${Date.now()}`;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
  key = (await createApiKey(tenant)).key;
  otherKey = (await createApiKey(otherTenant)).key;
});

afterAll(async () => {
  await db.end();
});

async function sizes(tenantId: string): Promise<Record<string, [number, string]>> {
  const { rows } = await db.query<{ tool: string; tokens: number; seen_at: Date }>(
    "SELECT tool, tokens, seen_at FROM tool_sizes WHERE tenant_id = $1 ORDER BY tool",
    [tenantId],
  );
  return Object.fromEntries(rows.map((r) => [r.tool, [r.tokens, r.seen_at.toISOString()]]));
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

describe("tool_tokens at /api/ingest", () => {
  it("stores the latest estimate per tool, in the same transaction as the decisions", async () => {
    const older = minutesAgo(30);
    const newer = minutesAgo(10);
    const response = await postBatch(baseUrl, key, [
      decisionEvent({ timestamp: newer, tool_tokens: { search_docs: 40, create_ticket: 25 } }),
      // Older, sent after: it does not replace the newer estimate of search_docs.
      decisionEvent({ timestamp: older, tool_tokens: { search_docs: 90, hydrate_context: 7 } }),
      // A v1 sender that does not send the field.
      decisionEvent({ timestamp: older }),
      outcomeEvent({ timestamp: older }),
    ]);
    expect(response.status).toBe(200);
    expect(await sizes(tenant)).toEqual({
      create_ticket: [25, newer],
      hydrate_context: [7, older],
      search_docs: [40, newer],
    });
    // Another tenant's sizes are its own.
    expect(await sizes(otherTenant)).toEqual({});
  });

  it("stores nothing new for a re-sent event, and a later estimate replaces an earlier one", async () => {
    const before = await sizes(tenant);
    const event = decisionEvent({ timestamp: minutesAgo(60), tool_tokens: { search_docs: 500 } });
    const first = await postBatch(baseUrl, otherKey, [event]);
    expect(first.status).toBe(200);
    // Re-sent to the same tenant: a duplicate; to this tenant's table nothing either way.
    const again = await postBatch(baseUrl, otherKey, [event]);
    expect(again.status).toBe(200);
    expect((await again.json()).successes).toHaveLength(1);
    expect(await sizes(otherTenant)).toEqual({ search_docs: [500, event.timestamp] });
    expect(await sizes(tenant)).toEqual(before);

    const later = minutesAgo(1);
    await postBatch(baseUrl, key, [
      decisionEvent({ timestamp: later, tool_tokens: { search_docs: 41 } }),
    ]);
    expect((await sizes(tenant)).search_docs).toEqual([41, later]);
  });

  it("refuses a bad map per event, naming the entry and the rule, and keeps its neighbours", async () => {
    const good = decisionEvent({ tool_tokens: { good_tool: 3 } });
    const bad = decisionEvent({
      tool_tokens: { negative_tool: -1, "": 2 } as Record<string, number>,
    });
    const notAMap = { ...decisionEvent(), tool_tokens: ["search_docs"] };
    const response = await postBatch(baseUrl, key, [good, bad, notAMap]);
    expect(response.status).toBe(207);
    const body = (await response.json()) as {
      successes: { id: string }[];
      errors: { id: string; index: number; status: number; message: string }[];
    };
    expect(body.successes.map((s) => s.id)).toEqual([good.event_id]);
    expect(body.errors).toEqual([
      {
        id: bad.event_id,
        index: 1,
        status: 400,
        message: expect.stringContaining("batch[1].tool_tokens.negative_tool: must be >= 0"),
      },
      {
        id: notAMap.event_id,
        index: 2,
        status: 400,
        message: "batch[2].tool_tokens: expected an object of tool name → tokens",
      },
    ]);
    expect(body.errors[0]?.message).toContain("tool name must not be empty");
    const stored = await sizes(tenant);
    expect(stored.good_tool?.[0]).toBe(3);
    expect(stored).not.toHaveProperty("negative_tool");
  });

  it("takes what routeTurn builds, as the selection core's estimate of each offered tool", async () => {
    const tools = [
      { name: "lookup_invoice", description: "Find an invoice by number or customer." },
      { name: "void_invoice", description: "Void an unpaid invoice." },
    ];
    const { event } = await routeTurn({
      mode: "observe",
      pipeline: prepareRouting({ roleTools: { billing: ["lookup_invoice"] } }).pipeline(),
      tools,
      meta: { runId: `run-${Date.now()}`, iteration: 0, role: "billing", tenantId: tenant },
    });
    expect(event?.tool_tokens).toBeDefined();
    const response = await postBatch(baseUrl, key, [event]);
    expect(response.status).toBe(200);
    const stored = await sizes(tenant);
    expect(stored.lookup_invoice?.[0]).toBe(event?.tool_tokens?.lookup_invoice);
    expect(stored.void_invoice?.[0]).toBe(event?.dropped_tokens);
  });
});

describe("published JSON Schemas", () => {
  it("documents tool_tokens in the wire format's schema", async () => {
    const schema = await (await fetch(`${baseUrl}/api/ingest/schema`)).json();
    const [decision] = schema.properties.batch.items.oneOf;
    expect(decision.properties.tool_tokens).toMatchObject({
      type: "object",
      maxProperties: 1000,
      additionalProperties: { type: "integer", minimum: 0 },
    });
    expect(decision.required).not.toContain("tool_tokens");
  });

  it("serves the routing configuration's JSON Schema", async () => {
    const response = await fetch(`${baseUrl}/api/routing-config/schema`);
    expect(response.status).toBe(200);
    const schema = await response.json();
    expect(schema.title).toBe("Routelens routing configuration");
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toContain("roleTools");
  });
});
