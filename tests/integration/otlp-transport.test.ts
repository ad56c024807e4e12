/**
 * POST /api/otlp/v1/traces over real HTTP on a real PostgreSQL (SPEC §8 "Transport"): both
 * encodings, gzip, chunked bodies without Content-Length, the answers in the request's
 * encoding (ExportTraceServiceResponse with partial_success, google.rpc.Status on a refusal)
 * and the statuses OTLP exporters act on. The exports are built with the generated code the
 * endpoint decodes with; the real exporters are exercised elsewhere.
 *
 * Uses its own server (on the run's database) trusting one proxy hop, so that each test
 * speaks from an address of its own and the throttling of wrong keys stays inside this file.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import { gzipSync } from "node:zlib";
import { create, fromBinary, type MessageInitShape, toBinary, toJson } from "@bufbuild/protobuf";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/keys";
import { OTLP_LIMITS } from "@/lib/otlp/decode";
import { StatusSchema } from "@/lib/otlp/gen/google/rpc/status_pb";
import {
  ExportTraceServiceRequestSchema,
  ExportTraceServiceResponseSchema,
} from "@/lib/otlp/gen/opentelemetry/proto/collector/trace/v1/trace_service_pb";
import type { SpanSchema } from "@/lib/otlp/gen/opentelemetry/proto/trace/v1/trace_pb";
import { type AppServer, startAppServer } from "@/scripts/lib/app-server";

const MiB = 1024 * 1024;
let app: AppServer;
let db: pg.Client;
let key: string;
const tenant = `otlp-transport-${Date.now()}`;

beforeAll(async () => {
  app = await startAppServer({
    databaseUrl: process.env.DATABASE_URL ?? "",
    env: { ROUTELENS_TRUST_PROXY: "1" },
  });
  db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  key = (await createApiKey(tenant)).key;
});

afterAll(async () => {
  await db?.end();
  await app?.stop();
});

let nextAddress = 1;
/** A client address of its own for each request group, so throttling in one cannot touch another. */
const freshAddress = () => `198.51.100.${nextAddress++}`;

const PROTOBUF = "application/x-protobuf";
const JSON_TYPE = "application/json";

async function post(
  body: string | Uint8Array<ArrayBuffer>,
  {
    contentType = PROTOBUF,
    apiKey = key as string | null,
    from = freshAddress(),
    headers = {} as Record<string, string>,
  } = {},
): Promise<Response> {
  return fetch(`${app.baseUrl}/api/otlp/v1/traces`, {
    method: "POST",
    headers: {
      "Content-Type": contentType,
      "X-Forwarded-For": from,
      ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}),
      ...headers,
    },
    body,
  });
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const idBytes = (id: string) => new Uint8Array(Buffer.from(id, "hex"));
const nowNs = () => BigInt(Date.now()) * 1_000_000n;
const text = (value: string) => ({ value: { case: "stringValue" as const, value } });

type SpanInit = MessageInitShape<typeof SpanSchema>;

/** An AI SDK 6 LLM call offering two tools and calling one of them. */
function llmCall(traceId: string, spanId: string, start = nowNs()): SpanInit {
  return {
    traceId: idBytes(traceId),
    spanId: idBytes(spanId),
    name: "ai.generateText.doGenerate",
    startTimeUnixNano: start,
    endTimeUnixNano: start + 5_000_000n,
    attributes: [
      { key: "ai.telemetry.functionId", value: text("transport-agent") },
      { key: "ai.model.id", value: text("mock-model") },
      {
        key: "ai.prompt.tools",
        value: {
          value: {
            case: "arrayValue",
            value: {
              values: [
                text(JSON.stringify({ type: "function", name: "search", inputSchema: {} })),
                text(JSON.stringify({ type: "function", name: "fetch_page", inputSchema: {} })),
              ],
            },
          },
        },
      },
      {
        key: "ai.response.toolCalls",
        value: text(JSON.stringify([{ toolCallId: "call-1", toolName: "search", input: "{}" }])),
      },
    ],
  };
}

/** A GenAI chat span whose tool list is not JSON: storage refuses it. */
function refusedCall(traceId: string, spanId: string): SpanInit {
  const start = nowNs();
  return {
    traceId: idBytes(traceId),
    spanId: idBytes(spanId),
    name: "chat mock-model",
    startTimeUnixNano: start,
    endTimeUnixNano: start + 1_000_000n,
    attributes: [
      { key: "gen_ai.operation.name", value: text("chat") },
      { key: "gen_ai.tool.definitions", value: text("not json") },
    ],
  };
}

const exportOf = (spans: SpanInit[]) =>
  create(ExportTraceServiceRequestSchema, {
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: text("transport-test") }] },
        scopeSpans: [{ scope: { name: "ai" }, spans }],
      },
    ],
  });

const protobufOf = (spans: SpanInit[]) =>
  toBinary(ExportTraceServiceRequestSchema, exportOf(spans)) as Uint8Array<ArrayBuffer>;

/**
 * The same export in OTLP JSON, as an exporter writes it: the library's proto3 JSON
 * (lowerCamelCase, int64 as strings) with the spans' ids turned from base64 into hex.
 */
function jsonOf(spans: SpanInit[]): string {
  const json = toJson(ExportTraceServiceRequestSchema, exportOf(spans)) as {
    resourceSpans: { scopeSpans: { spans: Record<string, string>[] }[] }[];
  };
  for (const resourceSpans of json.resourceSpans) {
    for (const scopeSpans of resourceSpans.scopeSpans) {
      for (const span of scopeSpans.spans) {
        for (const field of ["traceId", "spanId", "parentSpanId"]) {
          const base64 = span[field];
          if (base64) span[field] = Buffer.from(base64, "base64").toString("hex");
        }
      }
    }
  }
  return JSON.stringify(json);
}

async function storedSpans(traceId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM otel_spans WHERE tenant_id = $1 AND trace_id = $2",
    [tenant, traceId],
  );
  return rows[0]?.n ?? 0;
}

async function protobufStatus(response: Response) {
  expect(response.headers.get("content-type")).toBe(PROTOBUF);
  return fromBinary(StatusSchema, new Uint8Array(await response.arrayBuffer()));
}

async function protobufAnswer(response: Response) {
  expect(response.headers.get("content-type")).toBe(PROTOBUF);
  return fromBinary(ExportTraceServiceResponseSchema, new Uint8Array(await response.arrayBuffer()));
}

/** POSTs `chunks` with Transfer-Encoding: chunked and no Content-Length, as the JS exporters do. */
function postChunked(
  chunks: Uint8Array[],
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const url = new URL(`${app.baseUrl}/api/otlp/v1/traces`);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        method: "POST",
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: {
          "Content-Type": PROTOBUF,
          Authorization: `Bearer ${key}`,
          "X-Forwarded-For": freshAddress(),
          ...headers,
        },
      },
      (response) => {
        const parts: Buffer[] = [];
        response.on("data", (part: Buffer) => parts.push(part));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(parts),
          }),
        );
        response.on("error", reject);
      },
    );
    // A server that answers 413 before reading the rest may close the connection mid-write.
    request.on("error", (error) => {
      if ((error as NodeJS.ErrnoException).code !== "EPIPE") reject(error);
    });
    (async () => {
      for (const chunk of chunks) {
        if (!request.write(chunk)) await new Promise((done) => request.once("drain", done));
      }
      request.end();
    })().catch(reject);
  });
}

/** `bytes` in pieces of `size`. */
const piecesOf = (bytes: Uint8Array, size: number) =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
    bytes.subarray(i * size, (i + 1) * size),
  );

describe("POST /api/otlp/v1/traces: accepted exports", () => {
  it("stores a protobuf export and answers an empty ExportTraceServiceResponse in protobuf", async () => {
    const traceId = hex(16);
    const response = await post(protobufOf([llmCall(traceId, hex(8))]));
    expect(response.status).toBe(200);
    const answer = await protobufAnswer(response);
    expect(answer.partialSuccess).toBeUndefined();
    expect(await storedSpans(traceId)).toBe(1);
  });

  it("stores a JSON export and answers in JSON", async () => {
    const traceId = hex(16);
    const response = await post(jsonOf([llmCall(traceId, hex(8))]), { contentType: JSON_TYPE });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(JSON_TYPE);
    expect(await response.json()).toEqual({});
    expect(await storedSpans(traceId)).toBe(1);
  });

  it("reads a gzip body", async () => {
    const traceId = hex(16);
    const body = new Uint8Array(gzipSync(protobufOf([llmCall(traceId, hex(8))])));
    const response = await post(body, { headers: { "Content-Encoding": "gzip" } });
    expect(response.status).toBe(200);
    expect(await storedSpans(traceId)).toBe(1);
  });

  it("reads a chunked body without Content-Length, gzip or not", async () => {
    const plainTrace = hex(16);
    const plain = await postChunked(piecesOf(protobufOf([llmCall(plainTrace, hex(8))]), 64), {});
    expect(plain.status).toBe(200);
    expect(await storedSpans(plainTrace)).toBe(1);

    const gzipTrace = hex(16);
    const compressed = new Uint8Array(gzipSync(protobufOf([llmCall(gzipTrace, hex(8))])));
    const gzipped = await postChunked(piecesOf(compressed, 50), { "Content-Encoding": "gzip" });
    expect(gzipped.status).toBe(200);
    expect(await storedSpans(gzipTrace)).toBe(1);
  });

  it("answers an export without spans with 200 and stores nothing", async () => {
    const response = await post(new Uint8Array());
    expect(response.status).toBe(200);
    expect((await protobufAnswer(response)).partialSuccess).toBeUndefined();
  });

  it("numbers LLM calls that start at the same time by span id, whichever is exported first", async () => {
    const traceId = hex(16);
    const [first, second] = ["0f00000000000001", "f000000000000002"];
    const start = nowNs();
    expect((await post(protobufOf([llmCall(traceId, second, start)]))).status).toBe(200);
    expect((await post(protobufOf([llmCall(traceId, first, start)]))).status).toBe(200);
    const { rows } = await db.query<{ event_id: string; iteration: number }>(
      `SELECT event_id, iteration FROM decisions WHERE tenant_id = $1 AND run_id = $2
        ORDER BY iteration`,
      [tenant, traceId],
    );
    expect(rows).toEqual([
      { event_id: `otel:${traceId}:${first}`, iteration: 0 },
      { event_id: `otel:${traceId}:${second}`, iteration: 1 },
    ]);
  });
});

describe("POST /api/otlp/v1/traces: partial_success", () => {
  it("counts the spans storage refused in protobuf, and stores the others", async () => {
    const traceId = hex(16);
    const response = await post(
      protobufOf([llmCall(traceId, hex(8)), refusedCall(traceId, hex(8))]),
    );
    expect(response.status).toBe(200);
    const answer = await protobufAnswer(response);
    expect(answer.partialSuccess?.rejectedSpans).toBe(1n);
    expect(answer.partialSuccess?.errorMessage).toMatch(/gen_ai\.tool\.definitions/);
    expect(await storedSpans(traceId)).toBe(1);
  });

  it("counts the spans storage refused in JSON", async () => {
    const traceId = hex(16);
    const body = jsonOf([refusedCall(traceId, hex(8)), llmCall(traceId, hex(8))]);
    const response = await post(body, { contentType: JSON_TYPE });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(JSON_TYPE);
    const answer = (await response.json()) as {
      partialSuccess?: { rejectedSpans?: string; errorMessage?: string };
    };
    expect(answer.partialSuccess?.rejectedSpans).toBe("1");
    expect(answer.partialSuccess?.errorMessage).toMatch(/gen_ai\.tool\.definitions/);
    expect(await storedSpans(traceId)).toBe(1);
  });
});

describe("POST /api/otlp/v1/traces: refusals", () => {
  it("answers a wrong or missing key with 401 and a google.rpc.Status in the request's encoding", async () => {
    const traceId = hex(16);
    const wrong = await post(protobufOf([llmCall(traceId, hex(8))]), { apiKey: "rl_wrong" });
    expect(wrong.status).toBe(401);
    expect(await protobufStatus(wrong)).toMatchObject({
      code: 16,
      message: "Unknown or revoked API key.",
    });

    const missing = await post(jsonOf([llmCall(traceId, hex(8))]), {
      apiKey: null,
      contentType: JSON_TYPE,
    });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("content-type")).toBe(JSON_TYPE);
    expect(await missing.json()).toMatchObject({ code: 16, message: /^Missing API key/ });
    expect(await storedSpans(traceId)).toBe(0);
  });

  it("answers another content type with 415 in JSON", async () => {
    const response = await post("resourceSpans", { contentType: "text/plain" });
    expect(response.status).toBe(415);
    expect(response.headers.get("content-type")).toBe(JSON_TYPE);
    expect(await response.json()).toEqual({
      code: 3,
      message:
        'Content-Type must be application/x-protobuf or application/json (got "text/plain").',
    });
  });

  it("answers a malformed protobuf with 400 naming where it breaks, and stores nothing", async () => {
    const traceId = hex(16);
    const body = protobufOf([llmCall(traceId, hex(8)), llmCall(traceId, hex(8))]);
    const response = await post(body.subarray(0, body.length - 10));
    expect(response.status).toBe(400);
    const status = await protobufStatus(response);
    expect(status.code).toBe(3);
    expect(status.message).toMatch(
      /^Body is not a valid protobuf ExportTraceServiceRequest: resourceSpans\[0\]: premature EOF\.$/,
    );
    expect(await storedSpans(traceId)).toBe(0);
  });

  it("answers a JSON export with a bad span id with 400 naming the field, and stores none of it", async () => {
    const traceId = hex(16);
    const export_ = JSON.parse(jsonOf([llmCall(traceId, hex(8)), llmCall(traceId, hex(8))]));
    export_.resourceSpans[0].scopeSpans[0].spans[1].spanId = "not-hex";
    const response = await post(JSON.stringify(export_), { contentType: JSON_TYPE });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 3,
      message: "resourceSpans[0].scopeSpans[0].spans[1].spanId: 16 hex digits expected.",
    });
    expect(await storedSpans(traceId)).toBe(0);
  });

  it("answers bodies over 5 MiB with 413: declared, chunked, or once inflated", async () => {
    const big = new Uint8Array(5 * MiB + 1);
    const declared = await post(big);
    expect(declared.status).toBe(413);
    expect((await protobufStatus(declared)).message).toMatch(/larger than 5 MiB/);

    const chunked = await postChunked(piecesOf(big, 256 * 1024), {});
    expect(chunked.status).toBe(413);
    expect(chunked.headers["content-type"]).toBe(PROTOBUF);

    const bomb = new Uint8Array(gzipSync(new Uint8Array(6 * MiB)));
    const inflated = await post(bomb, { headers: { "Content-Encoding": "gzip" } });
    expect(inflated.status).toBe(413);
    expect((await protobufStatus(inflated)).message).toMatch(
      /Decompressed body is larger than 5 MiB/,
    );
  });

  it("answers more spans than the limit with 413 and stores none of them", async () => {
    const traceId = hex(16);
    const span: SpanInit = { traceId: idBytes(traceId), spanId: idBytes(hex(8)), name: "s" };
    const spans = Array.from({ length: OTLP_LIMITS.spansPerRequest + 1 }, () => span);
    const response = await post(protobufOf(spans));
    expect(response.status).toBe(413);
    expect((await protobufStatus(response)).message).toMatch(/more than 10000 spans/);
    expect(await storedSpans(traceId)).toBe(0);
  });

  it("answers 429 with Retry-After after a burst of wrong keys from one address", async () => {
    const from = freshAddress();
    let last: Response | undefined;
    for (let i = 0; i < 40; i++) {
      last = await post(new Uint8Array(), { apiKey: `rl_wrong_${i}`, from });
      if (last.status === 429) break;
      expect(last.status).toBe(401);
    }
    expect(last?.status).toBe(429);
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
    if (!last) throw new Error("no answer");
    const status = await protobufStatus(last);
    expect(status.code).toBe(8);
    expect(status.message).toMatch(/^Too many requests with a missing or wrong API key/);
    // The valid key still works from that address.
    const valid = await post(new Uint8Array(), { from });
    expect(valid.status).toBe(200);
  });
});
