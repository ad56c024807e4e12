import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TelemetryEvent } from "@/lib/schemas/events";
import { estimateToolTokens, prepareRouting, routeTurn } from "@/lib/selection";
import {
  batchJson,
  InvalidEventError,
  ingestUrl,
  parseRetryAfter,
  RoutelensClient,
  type RoutelensClientOptions,
  retryDelayMs,
  type TelemetryDeliveryError,
} from "./client";
import { decisionEvent, outcomeEvent, stageRecord } from "./events";

interface SeenRequest {
  url: string;
  headers: Record<string, string>;
  ids: string[];
  events: TelemetryEvent[];
  at: number;
}

type Reply = Response | Error | Promise<Response>;

/** A fake server: records every request and answers with the next scripted reply. */
function fakeServer(script: (request: SeenRequest, index: number) => Reply) {
  const requests: SeenRequest[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const raw = Buffer.from(init?.body as Uint8Array);
    const text = (headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString();
    const batch = (JSON.parse(text) as { batch: TelemetryEvent[] }).batch;
    const request = {
      url: String(input),
      headers,
      ids: batch.map((e) => e.event_id),
      events: batch,
      at: Date.now(),
    };
    requests.push(request);
    const reply = script(request, requests.length - 1);
    if (reply instanceof Error) throw reply;
    return reply;
  }) as typeof fetch;
  return { requests, fetchImpl };
}

const ok = (ids: string[]) =>
  Response.json({ successes: ids.map((id) => ({ id, status: 201 })), errors: [] });

const clients: RoutelensClient[] = [];
function makeClient(
  options: Partial<RoutelensClientOptions> & Pick<RoutelensClientOptions, "fetch">,
) {
  const client = new RoutelensClient({
    endpoint: "http://routelens.test",
    apiKey: "rl_test",
    flushIntervalMs: 0,
    retry: { initialDelayMs: 5, maxDelayMs: 20 },
    random: () => 0.5,
    ...options,
  });
  clients.push(client);
  return client;
}

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close({ deadlineMs: 0 });
});

describe("record()", () => {
  it("throws at the call site naming the field path, and queues nothing", () => {
    const { fetchImpl } = fakeServer((r) => ok(r.ids));
    const client = makeClient({ fetch: fetchImpl });
    const bad = decisionEvent({
      trace: [
        stageRecord({ stage: "intent_routing" }),
        { ...stageRecord({ stage: "role_palette" }), kept: "search_docs" as unknown as string[] },
      ],
    });
    expect(() => client.record(bad)).toThrow(InvalidEventError);
    expect(() => client.record(bad)).toThrow("trace[1].kept: expected array of strings");
    expect(client.stats().buffered).toBe(0);
  });

  it("names unknown and missing fields", () => {
    const { fetchImpl } = fakeServer((r) => ok(r.ids));
    const client = makeClient({ fetch: fetchImpl });
    const extra = { ...outcomeEvent(), colour: "red" } as unknown as TelemetryEvent;
    expect(() => client.record(extra)).toThrow("colour: unknown field");
    const { role: _role, ...missing } = outcomeEvent();
    expect(() => client.record(missing as unknown as TelemetryEvent)).toThrow("role: required");
  });

  it("refuses events after close()", async () => {
    const { fetchImpl } = fakeServer((r) => ok(r.ids));
    const client = makeClient({ fetch: fetchImpl });
    await client.close();
    expect(() => client.record(outcomeEvent())).toThrow(/closed/);
  });
});

describe("batching", () => {
  it("sends full batches at once and the rest on flush(), gzipped with the key", async () => {
    const { requests, fetchImpl } = fakeServer((r) => ok(r.ids));
    const client = makeClient({ fetch: fetchImpl, batchSize: 3 });
    const events = Array.from({ length: 7 }, (_, i) => outcomeEvent({ iteration: i }));
    for (const event of events) client.record(event);
    await vi.waitFor(() => expect(requests.map((r) => r.ids.length)).toEqual([3, 3]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests).toHaveLength(2);
    await client.flush();
    expect(requests.map((r) => r.ids.length)).toEqual([3, 3, 1]);
    expect(requests.flatMap((r) => r.ids)).toEqual(events.map((e) => e.event_id));
    expect(requests[0]?.url).toBe("http://routelens.test/api/ingest");
    expect(requests[0]?.headers).toMatchObject({
      authorization: "Bearer rl_test",
      "content-type": "application/json",
      "content-encoding": "gzip",
    });
    expect(client.stats()).toMatchObject({ sent: 7, failed: 0, buffered: 0, inFlight: 0 });
  });

  it("sends the decision routeTurn builds as it is, tool_tokens included", async () => {
    const { requests, fetchImpl } = fakeServer((r) => ok(r.ids));
    const client = makeClient({ fetch: fetchImpl });
    const tools = [
      { name: "search_docs", description: "Search the documentation." },
      { name: "open_ticket", description: "Open a support ticket for the customer." },
    ];
    const { event } = await routeTurn({
      mode: "observe",
      pipeline: prepareRouting({ roleTools: { support: ["search_docs"] } }).pipeline(),
      tools,
      meta: { runId: "run-tokens", iteration: 0, role: "support" },
    });
    if (!event) throw new Error("no event in observe mode");
    client.record(event);
    await client.flush();
    const sent = requests[0]?.events[0];
    expect(sent).toEqual(event);
    expect(sent?.type === "tool_routing_decision" && sent.tool_tokens).toEqual({
      search_docs: estimateToolTokens(tools[0]),
      open_ticket: estimateToolTokens(tools[1]),
    });
  });

  it("sends a partial batch when the flush interval elapses", async () => {
    const { requests, fetchImpl } = fakeServer((r) => ok(r.ids));
    const client = makeClient({ fetch: fetchImpl, batchSize: 100, flushIntervalMs: 20 });
    client.record(outcomeEvent());
    expect(requests).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(requests).toHaveLength(1);
  });

  it("keeps at most maxConcurrentRequests in flight", async () => {
    let open = 0;
    let peak = 0;
    const { fetchImpl } = fakeServer(async (r) => {
      open++;
      peak = Math.max(peak, open);
      await new Promise((resolve) => setTimeout(resolve, 10));
      open--;
      return ok(r.ids);
    });
    const client = makeClient({ fetch: fetchImpl, batchSize: 2, maxConcurrentRequests: 2 });
    for (let i = 0; i < 12; i++) client.record(outcomeEvent());
    await client.flush();
    expect(peak).toBe(2);
    expect(client.stats().sent).toBe(12);
  });
});

describe("retries", () => {
  it("retries 503 honouring Retry-After, resending the same event ids", async () => {
    const { requests, fetchImpl } = fakeServer((r, i) =>
      i === 0
        ? Response.json({ error: "down" }, { status: 503, headers: { "Retry-After": "0.06" } })
        : ok(r.ids),
    );
    const client = makeClient({ fetch: fetchImpl });
    client.record(decisionEvent());
    client.record(outcomeEvent());
    await client.flush();
    expect(requests).toHaveLength(2);
    expect(requests[1]?.ids).toEqual(requests[0]?.ids);
    expect((requests[1]?.at ?? 0) - (requests[0]?.at ?? 0)).toBeGreaterThanOrEqual(55);
    expect(client.stats()).toMatchObject({ sent: 2, failed: 0, retries: 1, requests: 2 });
  });

  it("retries 429, 500 and network errors", async () => {
    const { requests, fetchImpl } = fakeServer((r, i) => {
      if (i === 0) return new Response("slow down", { status: 429 });
      if (i === 1) return new TypeError("fetch failed");
      if (i === 2) return Response.json({ error: "oops" }, { status: 500 });
      return ok(r.ids);
    });
    const client = makeClient({ fetch: fetchImpl });
    client.record(outcomeEvent());
    await client.flush();
    expect(requests).toHaveLength(4);
    expect(client.stats()).toMatchObject({ sent: 1, retries: 3 });
  });

  it.each([400, 401, 413, 415])("never retries %i and reports it", async (status) => {
    const errors: TelemetryDeliveryError[] = [];
    const { requests, fetchImpl } = fakeServer(() =>
      Response.json({ error: `refused with ${status}` }, { status }),
    );
    const client = makeClient({ fetch: fetchImpl, onError: (e) => errors.push(e) });
    const event = outcomeEvent();
    client.record(event);
    await client.flush();
    expect(requests).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ kind: "request_rejected", status });
    expect(errors[0]?.message).toContain(`refused with ${status}`);
    expect(errors[0]?.eventIds).toEqual([event.event_id]);
    expect(client.stats()).toMatchObject({ sent: 0, failed: 1, retries: 0 });
  });

  it("gives up after maxAttempts and reports the batch", async () => {
    const errors: TelemetryDeliveryError[] = [];
    const { requests, fetchImpl } = fakeServer(() => new Response("", { status: 502 }));
    const client = makeClient({
      fetch: fetchImpl,
      retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2 },
      onError: (e) => errors.push(e),
    });
    client.record(outcomeEvent());
    client.record(outcomeEvent());
    await client.flush();
    expect(requests).toHaveLength(3);
    expect(errors.map((e) => e.kind)).toEqual(["gave_up"]);
    expect(errors[0]?.message).toMatch(/retries exhausted; last problem: HTTP 502/);
    expect(client.stats()).toMatchObject({ sent: 0, failed: 2, retries: 2 });
  });
});

describe("per-event errors inside a 207", () => {
  it("reaches onError for each rejected event; the rest count as sent", async () => {
    const errors: TelemetryDeliveryError[] = [];
    const { fetchImpl } = fakeServer((r) =>
      Response.json(
        {
          successes: [{ id: r.ids[0], status: 201 }],
          errors: [{ id: r.ids[1], index: 1, status: 403, message: "batch[1].tenant_id: wrong" }],
        },
        { status: 207 },
      ),
    );
    const client = makeClient({ fetch: fetchImpl, onError: (e) => errors.push(e) });
    const events = [outcomeEvent(), outcomeEvent({ tenant_id: "someone-else" })];
    for (const event of events) client.record(event);
    await client.flush();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ kind: "event_rejected", status: 403 });
    expect(errors[0]?.eventIds).toEqual([events[1]?.event_id]);
    expect(errors[0]?.message).toContain("tenant_id");
    expect(client.stats()).toMatchObject({ sent: 1, failed: 1 });
  });

  it("reports the events of `elided_errors` as rejected too, with the most frequent rule", async () => {
    const errors: TelemetryDeliveryError[] = [];
    const { fetchImpl } = fakeServer((r) =>
      Response.json(
        {
          successes: [{ id: r.ids[0], status: 201 }],
          errors: [{ id: r.ids[1], index: 1, status: 400, message: "batch[1].mode: invalid" }],
          elided_errors: {
            count: 2,
            indexes: [2, 3],
            by_rule: [{ status: 400, path: "batch[*].mode", rule: "invalid", events: 2 }],
          },
        },
        { status: 207 },
      ),
    );
    const client = makeClient({ fetch: fetchImpl, onError: (e) => errors.push(e) });
    const events = [outcomeEvent(), outcomeEvent(), outcomeEvent(), outcomeEvent()];
    for (const event of events) client.record(event);
    await client.flush();
    expect(errors.map((e) => e.eventIds[0])).toEqual(events.slice(1).map((e) => e.event_id));
    expect(errors[2]?.message).toContain("batch[*].mode: invalid");
    expect(client.stats()).toMatchObject({ sent: 1, failed: 3 });
  });
});

describe("bounded buffer", () => {
  it("drops the oldest events when full and counts them", async () => {
    const errors: TelemetryDeliveryError[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { requests, fetchImpl } = fakeServer(async (r) => {
      await gate;
      return ok(r.ids);
    });
    const client = makeClient({
      fetch: fetchImpl,
      batchSize: 2,
      maxBufferedEvents: 5,
      onError: (e) => errors.push(e),
    });
    const events = Array.from({ length: 20 }, (_, i) => outcomeEvent({ iteration: i }));
    for (const event of events) client.record(event);
    // 2 in flight, 5 buffered, 13 dropped (the oldest of those waiting).
    expect(client.stats()).toMatchObject({ inFlight: 2, buffered: 5, dropped: 13 });
    expect(errors.every((e) => e.kind === "buffer_overflow")).toBe(true);
    expect(errors.flatMap((e) => e.eventIds)).toEqual(events.slice(2, 15).map((e) => e.event_id));
    release();
    await client.flush();
    expect(requests.flatMap((r) => r.ids)).toEqual([
      ...events.slice(0, 2).map((e) => e.event_id),
      ...events.slice(15).map((e) => e.event_id),
    ]);
    expect(client.stats()).toMatchObject({ sent: 7, dropped: 13, buffered: 0 });
  });

  it("waitForRoom() lets a producer pace itself instead of dropping", async () => {
    const { fetchImpl } = fakeServer(async (r) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      return ok(r.ids);
    });
    const client = makeClient({ fetch: fetchImpl, batchSize: 5, maxBufferedEvents: 10 });
    for (let i = 0; i < 100; i++) {
      await client.waitForRoom();
      client.record(outcomeEvent());
    }
    await client.flush();
    expect(client.stats()).toMatchObject({ sent: 100, dropped: 0 });
  });
});

describe("close()", () => {
  it("drains everything it can", async () => {
    const { fetchImpl } = fakeServer((r) => ok(r.ids));
    const client = makeClient({ fetch: fetchImpl, batchSize: 4 });
    for (let i = 0; i < 10; i++) client.record(outcomeEvent());
    const stats = await client.close();
    expect(stats).toMatchObject({ sent: 10, buffered: 0, inFlight: 0, failed: 0 });
  });

  it("gives up at the deadline and reports what was not delivered", async () => {
    const errors: TelemetryDeliveryError[] = [];
    const { fetchImpl } = fakeServer(
      () => new Response("", { status: 503, headers: { "Retry-After": "30" } }),
    );
    const client = makeClient({ fetch: fetchImpl, batchSize: 2, onError: (e) => errors.push(e) });
    for (let i = 0; i < 5; i++) client.record(outcomeEvent());
    const started = Date.now();
    const stats = await client.close({ deadlineMs: 100 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(stats).toMatchObject({ sent: 0, failed: 5, buffered: 0, inFlight: 0 });
    expect(errors.every((e) => e.kind === "gave_up")).toBe(true);
    expect(errors.flatMap((e) => e.eventIds)).toHaveLength(5);
  });
});

describe("helpers", () => {
  it("ingestUrl appends /api/ingest unless it is there", () => {
    expect(ingestUrl("http://localhost:3000")).toBe("http://localhost:3000/api/ingest");
    expect(ingestUrl("https://rl.example.com/base/")).toBe(
      "https://rl.example.com/base/api/ingest",
    );
    expect(ingestUrl("http://h/api/ingest")).toBe("http://h/api/ingest");
  });

  it("parseRetryAfter reads seconds and HTTP dates", () => {
    expect(parseRetryAfter("5")).toBe(5_000);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter("soon")).toBeNull();
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10_000);
  });

  it("retryDelayMs backs off exponentially with jitter and honours Retry-After", () => {
    const config = { initialDelayMs: 100, maxDelayMs: 1_000 };
    expect(retryDelayMs(1, config, null, () => 0)).toBe(50);
    expect(retryDelayMs(1, config, null, () => 0.999)).toBe(100);
    expect(retryDelayMs(3, config, null, () => 0)).toBe(200);
    expect(retryDelayMs(10, config, null, () => 0.999)).toBe(1_000);
    expect(retryDelayMs(1, config, 5_000, () => 0.5)).toBe(5_000);
  });

  it("batchJson writes the bytes of one JSON.stringify of the batch, whatever the text", () => {
    const events: TelemetryEvent[] = [
      decisionEvent({ event_id: "ascii-only" }),
      decisionEvent({ event_id: "accents-é-ü-—", run_id: "run-→-½" }),
      decisionEvent({ event_id: "astral-🛠️-𝄞", role: 'quote " backslash \\ tab \t' }),
      outcomeEvent({ event_id: "outcome-ü" }),
    ];
    for (const batch of [events, events.slice(0, 1), []]) {
      const expected = Buffer.from(JSON.stringify({ batch }));
      const body = batchJson(batch);
      expect(body.byteLength).toBe(expected.byteLength);
      expect(body.equals(expected)).toBe(true);
    }
  });
});
