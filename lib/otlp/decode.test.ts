import { create, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { RequestRejected } from "@/lib/ingest/request";
import { countJsonValues, decodeTraceExport, OTLP_LIMITS, openTraceExport } from "./decode";
import { ExportTraceServiceRequestSchema } from "./gen/opentelemetry/proto/collector/trace/v1/trace_service_pb";
import {
  ResourceSpansSchema,
  Span_SpanKind,
  Status_StatusCode,
} from "./gen/opentelemetry/proto/trace/v1/trace_pb";

const TRACE = "5b8efff798038103d269b633813fc60c";
const SPAN = "eee19b7ec3c1b174";
const PARENT = "eee19b7ec3c1b173";
const bytes = (hex: string) => new Uint8Array(Buffer.from(hex, "hex"));
const encode = (text: string) => new TextEncoder().encode(text);
/** A protobuf varint. */
const varint = (value: number) => {
  const out: number[] = [];
  for (; value >= 0x80; value >>>= 7) out.push((value & 0x7f) | 0x80);
  out.push(value);
  return Buffer.from(out);
};

type RequestInit = MessageInitShape<typeof ExportTraceServiceRequestSchema>;

const protobuf = (init: RequestInit) =>
  toBinary(ExportTraceServiceRequestSchema, create(ExportTraceServiceRequestSchema, init));

/** One export of one span, the way an SDK sends it, with every kind of attribute value. */
const fullRequest: RequestInit = {
  resourceSpans: [
    {
      resource: {
        attributes: [
          { key: "service.name", value: { value: { case: "stringValue", value: "agent" } } },
        ],
      },
      scopeSpans: [
        {
          scope: { name: "ai" },
          spans: [
            {
              traceId: bytes(TRACE),
              spanId: bytes(SPAN),
              parentSpanId: bytes(PARENT),
              name: "ai.generateText.doGenerate",
              kind: Span_SpanKind.CLIENT,
              startTimeUnixNano: 1_764_540_000_123_456_789n,
              endTimeUnixNano: 1_764_540_001_000_000_000n,
              status: { code: Status_StatusCode.ERROR, message: "boom" },
              attributes: [
                { key: "s", value: { value: { case: "stringValue", value: "text" } } },
                { key: "b", value: { value: { case: "boolValue", value: true } } },
                {
                  key: "i",
                  value: { value: { case: "intValue", value: -9_007_199_254_740_993n } },
                },
                { key: "d", value: { value: { case: "doubleValue", value: 1.5 } } },
                { key: "raw", value: { value: { case: "bytesValue", value: bytes("00ff") } } },
                { key: "empty", value: {} },
                {
                  key: "ai.prompt.tools",
                  value: {
                    value: {
                      case: "arrayValue",
                      value: {
                        values: [
                          { value: { case: "stringValue", value: '{"name":"search"}' } },
                          { value: { case: "intValue", value: 7n } },
                        ],
                      },
                    },
                  },
                },
                {
                  key: "kv",
                  value: {
                    value: {
                      case: "kvlistValue",
                      value: {
                        values: [
                          {
                            key: "__proto__",
                            value: { value: { case: "stringValue", value: "x" } },
                          },
                          { key: "n", value: { value: { case: "doubleValue", value: 2 } } },
                        ],
                      },
                    },
                  },
                },
              ],
            },
          ],
        },
      ],
    },
  ],
};

/** The same export in OTLP JSON: hex ids, lowerCamelCase, int64 as strings and numbers. */
const fullJson = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: "service.name", value: { stringValue: "agent" } }] },
      scopeSpans: [
        {
          scope: { name: "ai" },
          spans: [
            {
              traceId: TRACE,
              spanId: SPAN,
              parentSpanId: PARENT,
              name: "ai.generateText.doGenerate",
              kind: 3,
              startTimeUnixNano: "1764540000123456789",
              endTimeUnixNano: 1_764_540_001_000_000_000,
              status: { code: 2, message: "boom" },
              events: [{ name: "ignored", timeUnixNano: "1" }],
              links: [{ traceId: TRACE, spanId: PARENT }],
              attributes: [
                { key: "s", value: { stringValue: "text" } },
                { key: "b", value: { boolValue: true } },
                { key: "i", value: { intValue: "-9007199254740993" } },
                { key: "d", value: { doubleValue: 1.5 } },
                { key: "raw", value: { bytesValue: "AP8=" } },
                { key: "empty", value: {} },
                {
                  key: "ai.prompt.tools",
                  value: {
                    arrayValue: { values: [{ stringValue: '{"name":"search"}' }, { intValue: 7 }] },
                  },
                },
                {
                  key: "kv",
                  value: {
                    kvlistValue: {
                      values: [
                        { key: "__proto__", value: { stringValue: "x" } },
                        { key: "n", value: { doubleValue: 2 } },
                      ],
                    },
                  },
                },
              ],
            },
          ],
        },
      ],
    },
  ],
};

function expectFullSpan(spans: ReturnType<typeof decodeTraceExport>) {
  expect(spans).toHaveLength(1);
  const [span] = spans;
  expect(span).toMatchObject({
    traceId: TRACE,
    spanId: SPAN,
    parentSpanId: PARENT,
    name: "ai.generateText.doGenerate",
    endTimeUnixNano: 1_764_540_001_000_000_000n,
    statusCode: 2,
    statusMessage: "boom",
  });
  const attributes = span?.attributes ?? {};
  expect(attributes.s).toBe("text");
  expect(attributes.b).toBe(true);
  expect(attributes.i).toBe(-9_007_199_254_740_993n);
  expect(attributes.d).toBe(1.5);
  expect(attributes.raw).toEqual(new Uint8Array([0, 255]));
  expect(attributes.empty).toBeNull();
  expect(attributes["ai.prompt.tools"]).toEqual(['{"name":"search"}', 7n]);
  const kv = attributes.kv as Record<string, unknown>;
  expect(Object.keys(kv)).toEqual(["__proto__", "n"]);
  expect(Object.getOwnPropertyDescriptor(kv, "__proto__")?.value).toBe("x");
  expect(kv.n).toBe(2);
  expect(attributes.toString).toBeUndefined();
  expect(span?.resource["service.name"]).toBe("agent");
}

function rejection(run: () => unknown): RequestRejected {
  try {
    run();
  } catch (error) {
    if (error instanceof RequestRejected) return error;
    throw error;
  }
  throw new Error("expected the body to be refused");
}

describe("decodeTraceExport, protobuf", () => {
  it("reads every field of the span contract and every kind of attribute value", () => {
    const spans = decodeTraceExport(protobuf(fullRequest), "protobuf");
    expectFullSpan(spans);
    expect(spans[0]?.startTimeUnixNano).toBe(1_764_540_000_123_456_789n);
  });

  it("gives a root span a null parent and an empty body no spans", () => {
    const init = structuredClone(fullRequest);
    const span = init.resourceSpans?.[0]?.scopeSpans?.[0]?.spans?.[0];
    if (span) span.parentSpanId = new Uint8Array();
    expect(decodeTraceExport(protobuf(init), "protobuf")[0]?.parentSpanId).toBeNull();
    expect(decodeTraceExport(new Uint8Array(), "protobuf")).toEqual([]);
  });

  it("hands over every resource's and scope's spans in order, each with its resource", () => {
    const span = (id: string, name: string) => ({
      traceId: bytes(TRACE),
      spanId: bytes(id),
      name,
    });
    const service = (name: string) => ({
      attributes: [
        { key: "service.name", value: { value: { case: "stringValue" as const, value: name } } },
      ],
    });
    const body = protobuf({
      resourceSpans: [
        {
          resource: service("a"),
          scopeSpans: [
            { spans: [span("0000000000000001", "a1"), span("0000000000000002", "a2")] },
            { spans: [span("0000000000000003", "a3")] },
          ],
        },
        { resource: service("b"), scopeSpans: [{ spans: [span("0000000000000004", "b1")] }] },
      ],
    });
    const exported = openTraceExport(body, "protobuf");
    expect(exported.spanCount).toBe(4);
    const seen = [...exported.spans()].map((s) => `${s.name}@${s.resource["service.name"]}`);
    expect(seen).toEqual(["a1@a", "a2@a", "a3@a", "b1@b"]);
  });

  it("decodes a span only when it is reached", () => {
    const body = protobuf({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                { traceId: bytes(TRACE), spanId: bytes(SPAN), name: "first" },
                { traceId: new Uint8Array(16), spanId: bytes(SPAN), name: "second" },
              ],
            },
          ],
        },
      ],
    });
    const exported = openTraceExport(body, "protobuf");
    expect(exported.spanCount).toBe(2);
    const spans = exported.spans()[Symbol.iterator]();
    expect(spans.next().value?.name).toBe("first");
    expect(rejection(() => spans.next()).message).toBe(
      "resourceSpans[0].scopeSpans[0].spans[1].traceId: must not be all zeros.",
    );
  });

  it("reads a resource written after its spans, and merges a resource written twice", () => {
    // Concatenated encodings of one message are that message merged (the protobuf encoding
    // guide), and repeated fields such as `attributes` are appended.
    const resourceSpans = (init: MessageInitShape<typeof ResourceSpansSchema>) =>
      toBinary(ResourceSpansSchema, create(ResourceSpansSchema, init));
    const attribute = (key: string, value: string) => ({
      key,
      value: { value: { case: "stringValue" as const, value } },
    });
    const merged = Buffer.concat([
      resourceSpans({ scopeSpans: [{ spans: [{ traceId: bytes(TRACE), spanId: bytes(SPAN) }] }] }),
      resourceSpans({ resource: { attributes: [attribute("service.name", "agent")] } }),
      resourceSpans({ resource: { attributes: [attribute("service.version", "7")] } }),
    ]);
    const body = Buffer.concat([Buffer.from([0x0a]), varint(merged.length), merged]);
    const [span] = decodeTraceExport(body, "protobuf");
    expect(span?.spanId).toBe(SPAN);
    expect(span?.resource).toEqual({ "service.name": "agent", "service.version": "7" });
  });

  it("refuses a scope name or schema URL that is not UTF-8", () => {
    for (const init of [
      { resourceSpans: [{ schemaUrl: "zzzz", scopeSpans: [] }] },
      { resourceSpans: [{ scopeSpans: [{ scope: { name: "zzzz" } }] }] },
      { resourceSpans: [{ scopeSpans: [{ schemaUrl: "zzzz" }] }] },
    ]) {
      const body = protobuf(init);
      body.set([0x7a, 0xff, 0xfe, 0x7a], Buffer.from(body).indexOf("zzzz"));
      expect(rejection(() => decodeTraceExport(body, "protobuf")).message).toBe(
        "Body is not a valid protobuf ExportTraceServiceRequest: a string field is not valid UTF-8.",
      );
    }
  });

  it("reads a long string attribute sent again and again the same every time", () => {
    const definitions = JSON.stringify(
      Array.from({ length: 20 }, (_, i) => ({
        name: `tool_${i}`,
        description: "ünïcode ".repeat(8),
      })),
    );
    const spans = Array.from({ length: 5 }, (_, i) => ({
      traceId: bytes(TRACE),
      spanId: bytes(`000000000000000${i + 1}`),
      attributes: [
        {
          key: "gen_ai.tool.definitions",
          value: { value: { case: "stringValue" as const, value: definitions } },
        },
      ],
    }));
    for (let round = 0; round < 3; round++) {
      const decoded = decodeTraceExport(
        protobuf({ resourceSpans: [{ scopeSpans: [{ spans }] }] }),
        "protobuf",
      );
      expect(decoded.map((s) => s.attributes["gen_ai.tool.definitions"])).toEqual(
        Array(5).fill(definitions),
      );
    }
  });

  it("refuses a truncated body, naming where it breaks", () => {
    const body = protobuf(fullRequest);
    const refused = rejection(() =>
      decodeTraceExport(body.subarray(0, body.length - 5), "protobuf"),
    );
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(
      /^Body is not a valid protobuf ExportTraceServiceRequest: resourceSpans\[0\]: premature EOF\.$/,
    );
  });

  it("refuses bytes that are not protobuf at all", () => {
    const refused = rejection(() => decodeTraceExport(encode('{"resourceSpans": []}'), "protobuf"));
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(/not a valid protobuf ExportTraceServiceRequest/);
  });

  it("refuses a string that is not UTF-8, as proto3 requires", () => {
    const body = protobuf({
      resourceSpans: [
        { scopeSpans: [{ spans: [{ traceId: bytes(TRACE), spanId: bytes(SPAN), name: "zzzz" }] }] },
      ],
    });
    const at = Buffer.from(body).indexOf("zzzz");
    body.set([0x7a, 0xff, 0xfe, 0x7a], at);
    const refused = rejection(() => decodeTraceExport(body, "protobuf"));
    expect(refused.status).toBe(400);
    expect(refused.message).toBe(
      "Body is not a valid protobuf ExportTraceServiceRequest: a string field is not valid UTF-8.",
    );
  });

  it("refuses a span id of the wrong length, naming the span", () => {
    const init = structuredClone(fullRequest);
    const span = init.resourceSpans?.[0]?.scopeSpans?.[0]?.spans?.[0];
    if (span) span.spanId = bytes("0102");
    const refused = rejection(() => decodeTraceExport(protobuf(init), "protobuf"));
    expect(refused.status).toBe(400);
    expect(refused.message).toBe(
      "resourceSpans[0].scopeSpans[0].spans[0].spanId: 8 bytes expected, got 2.",
    );
  });

  it("refuses an all-zero trace id", () => {
    const init = structuredClone(fullRequest);
    const span = init.resourceSpans?.[0]?.scopeSpans?.[0]?.spans?.[0];
    if (span) span.traceId = new Uint8Array(16);
    expect(rejection(() => decodeTraceExport(protobuf(init), "protobuf")).message).toBe(
      "resourceSpans[0].scopeSpans[0].spans[0].traceId: must not be all zeros.",
    );
  });

  it("refuses more spans than the limit with 413, before decoding them", () => {
    const span = { traceId: bytes(TRACE), spanId: bytes(SPAN), name: "s" };
    const body = protobuf({
      resourceSpans: [
        {
          scopeSpans: [
            { spans: Array.from({ length: OTLP_LIMITS.spansPerRequest + 1 }, () => span) },
          ],
        },
      ],
    });
    const refused = rejection(() => decodeTraceExport(body, "protobuf"));
    expect(refused.status).toBe(413);
    expect(refused.message).toMatch(/more than 10000 spans/);
  });

  it("refuses a body of millions of empty attributes with 413", () => {
    // 2 bytes per empty KeyValue: 1.2 MB would decode into 600,000 objects.
    const attributes = Array.from({ length: OTLP_LIMITS.valuesPerRequest + 1 }, () => ({}));
    const body = protobuf({
      resourceSpans: [
        { scopeSpans: [{ spans: [{ traceId: bytes(TRACE), spanId: bytes(SPAN), attributes }] }] },
      ],
    });
    const refused = rejection(() => decodeTraceExport(body, "protobuf"));
    expect(refused.status).toBe(413);
    expect(refused.message).toMatch(/more than 500000 messages/);
  });

  it("refuses attribute values nested deeper than the limit", () => {
    let value: MessageInitShape<typeof ExportTraceServiceRequestSchema> | object = {
      value: { case: "stringValue", value: "leaf" },
    };
    for (let i = 0; i < OTLP_LIMITS.depth; i++) {
      value = { value: { case: "arrayValue", value: { values: [value] } } };
    }
    const body = protobuf({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: bytes(TRACE),
                  spanId: bytes(SPAN),
                  attributes: [{ key: "deep", value }],
                },
              ],
            },
          ],
        },
      ],
    });
    const refused = rejection(() => decodeTraceExport(body, "protobuf"));
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(/nest deeper than 32 levels/);
  });
});

describe("decodeTraceExport, JSON", () => {
  const json = (value: unknown) => encode(JSON.stringify(value));

  it("reads hex ids, int64 as strings and numbers, enums as integers, arrays and kvlists", () => {
    const spans = decodeTraceExport(json(fullJson), "json");
    expectFullSpan(spans);
    // A JSON number above 2^53 loses its last digits in any JSON parser; strings keep them.
    expect(spans[0]?.startTimeUnixNano).toBe(1_764_540_000_123_456_789n);
  });

  it("gives the same spans as the protobuf encoding", () => {
    expect(decodeTraceExport(json(fullJson), "json")).toEqual(
      decodeTraceExport(protobuf(fullRequest), "protobuf"),
    );
  });

  it("accepts snake_case field names and upper-case hex", () => {
    const span = {
      trace_id: TRACE.toUpperCase(),
      span_id: SPAN,
      parent_span_id: "",
      name: "n",
      start_time_unix_nano: 5,
      attributes: [{ key: "k", value: { int_value: 3 } }],
    };
    const [decoded] = decodeTraceExport(
      json({ resource_spans: [{ scope_spans: [{ spans: [span] }] }] }),
      "json",
    );
    expect(decoded).toMatchObject({ traceId: TRACE, spanId: SPAN, parentSpanId: null });
    expect(decoded?.startTimeUnixNano).toBe(5n);
    expect(decoded?.attributes.k).toBe(3n);
  });

  it("ignores unknown fields, as OTLP asks of receivers", () => {
    const body = {
      resourceSpans: [
        { later: 1, scopeSpans: [{ spans: [{ traceId: TRACE, spanId: SPAN, newField: true }] }] },
      ],
    };
    expect(decodeTraceExport(json(body), "json")).toHaveLength(1);
  });

  it.each([
    ["5b8efff798038103d269b633813fc60", "31 digits"],
    ["5b8efff798038103d269b633813fc60z", "not hex"],
    [12, "a number"],
    [undefined, "missing"],
  ])("refuses a trace id that is %s (%s), naming the field", (traceId, _what) => {
    const body = {
      resourceSpans: [
        {
          scopeSpans: [
            {},
            {
              spans: [
                { spanId: SPAN },
                { spanId: SPAN },
                { spanId: SPAN },
                { traceId, spanId: SPAN },
              ],
            },
          ],
        },
      ],
    };
    const spans = body.resourceSpans[0]?.scopeSpans[1]?.spans ?? [];
    for (const span of spans.slice(0, 3)) Object.assign(span, { traceId: TRACE });
    const refused = rejection(() => decodeTraceExport(json(body), "json"));
    expect(refused.status).toBe(400);
    expect(refused.message).toBe(
      "resourceSpans[0].scopeSpans[1].spans[3].traceId: 32 hex digits expected.",
    );
  });

  it("refuses a base64 span id (proto3 JSON, not OTLP JSON)", () => {
    const body = {
      resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: TRACE, spanId: "7uGbfsPBsXQ=" }] }] }],
    };
    expect(rejection(() => decodeTraceExport(json(body), "json")).message).toBe(
      "resourceSpans[0].scopeSpans[0].spans[0].spanId: 16 hex digits expected.",
    );
  });

  it("names the field the library could not read", () => {
    const body = {
      resourceSpans: [
        { scopeSpans: [{ spans: [{ traceId: TRACE, spanId: SPAN, startTimeUnixNano: "soon" }] }] },
      ],
    };
    const refused = rejection(() => decodeTraceExport(json(body), "json"));
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(
      /^resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]: .*start_time_unix_nano/,
    );
  });

  it.each([
    ["{", /^Body is not valid JSON: /],
    ["[]", /^Body must be a JSON ExportTraceServiceRequest object/],
    ['{"resourceSpans": {}}', /^resourceSpans: an array expected\.$/],
    [
      '{"resourceSpans": [{"scopeSpans": [7]}]}',
      /^resourceSpans\[0\]\.scopeSpans\[0\]: an object expected\.$/,
    ],
    ['{"resourceSpans": [{"resource": {"attributes": 3}}]}', /^resourceSpans\[0\]\.resource: /],
  ])("refuses %s", (text, message) => {
    const refused = rejection(() => decodeTraceExport(encode(text), "json"));
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(message);
  });

  it("reads an empty export as no spans", () => {
    expect(decodeTraceExport(encode("{}"), "json")).toEqual([]);
    expect(decodeTraceExport(encode('{"resourceSpans": null}'), "json")).toEqual([]);
  });

  it("refuses a body of too many objects before parsing it", () => {
    const text = `{"resourceSpans": [${"{},".repeat(OTLP_LIMITS.valuesPerRequest)}{}]}`;
    const refused = rejection(() => decodeTraceExport(encode(text), "json"));
    expect(refused.status).toBe(413);
    expect(refused.message).toMatch(/more than 500000 JSON objects and arrays/);
  });
});

describe("countJsonValues", () => {
  it("counts objects and arrays outside strings, and stops past the limit", () => {
    expect(countJsonValues('{"a": [1, {"b": "{[\\"{"}]}', 100)).toBe(3);
    expect(countJsonValues("[[[[[[", 3)).toBe(4);
  });
});
