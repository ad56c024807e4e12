/**
 * OTLP/HTTP trace export bodies (SPEC §8) → `OtlpSpan`s, with code generated from the
 * official .proto files: protobuf by the static decoders of `protobufjs` (`lib/otlp/gen-pbjs/`,
 * several times faster than reflective decoding), OTLP JSON by `@bufbuild/protobuf`
 * (`lib/otlp/gen/`, whose descriptors also guide the bounds walk). This module only bounds the
 * work first, turns OTLP JSON's hex ids into what the library reads, and unwraps the decoded
 * messages into the shared span contract.
 *
 * Every refusal is a `RequestRejected` whose message names the field and the rule, e.g.
 * `resourceSpans[0].scopeSpans[1].spans[3].traceId: 32 hex digits expected`. Pure: no I/O.
 */
import {
  type DescField,
  type DescMessage,
  fromJson,
  type JsonValue,
  type MessageShape,
} from "@bufbuild/protobuf";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import protobuf from "protobufjs/minimal.js";
import { closingQuote, RequestRejected, utf8Text } from "@/lib/ingest/request";
import { ExportTraceServiceRequestSchema } from "./gen/opentelemetry/proto/collector/trace/v1/trace_service_pb";
import type { AnyValue, KeyValue } from "./gen/opentelemetry/proto/common/v1/common_pb";
import { type Resource, ResourceSchema } from "./gen/opentelemetry/proto/resource/v1/resource_pb";
import { type Span, SpanSchema } from "./gen/opentelemetry/proto/trace/v1/trace_pb";
import { opentelemetry as pb } from "./gen-pbjs/trace.js";
import { TextReader } from "./text-reader";
import type { Attributes, AttributeValue, OtlpSpan } from "./types";

export const OTLP_LIMITS = {
  /** Spans in one export request; more → 413. */
  spansPerRequest: 10_000,
  /**
   * Structured values in one request: protobuf messages (spans, attributes and their values,
   * events, links…) or JSON objects and arrays; more → 413. A real export spends tens of
   * bytes on each; a 5 MiB body of empty ones would be millions of objects to build.
   */
  valuesPerRequest: 500_000,
  /** Nesting of messages (AnyValue arrays and kvlists inside each other); deeper → 400. */
  depth: 32,
} as const;

export type OtlpEncoding = "protobuf" | "json";

const invalid = (message: string) => new RequestRejected(400, message);
const tooLarge = (message: string) => new RequestRejected(413, message);

const tooManySpans = () =>
  tooLarge(
    `The export holds more than ${OTLP_LIMITS.spansPerRequest} spans; send at most ${OTLP_LIMITS.spansPerRequest} per request.`,
  );
const tooManyValues = (what: string) =>
  tooLarge(
    `The export holds more than ${OTLP_LIMITS.valuesPerRequest} ${what}; send fewer spans or attributes per request.`,
  );

/**
 * An export whose bounds are checked: how many spans it holds, and its spans, handed over one at
 * a time as they are decoded. A protobuf export decodes each span only when it gets to it, so
 * the decoded messages of a span are garbage as soon as the span has been read (an export of
 * 500 spans decoded whole is megabytes of objects that outlive a young-generation collection).
 */
export interface TraceExport {
  readonly spanCount: number;
  /**
   * The spans in order, each decoded when it is reached; throws `RequestRejected` (400) at the
   * first span or field that cannot be read. Once per export.
   */
  spans(): Iterable<OtlpSpan>;
}

/** Checks one export body in `encoding` (framing and bounds); throws `RequestRejected` (400 or 413). */
export function openTraceExport(body: Uint8Array, encoding: OtlpEncoding): TraceExport {
  if (encoding === "protobuf") {
    const spanCount = checkProtobufBounds(body);
    return { spanCount, spans: () => protobufSpans(body) };
  }
  const spans = decodeJsonExport(body);
  return { spanCount: spans.length, spans: () => spans };
}

/** Decodes one export body in `encoding`; throws `RequestRejected` (400 or 413). */
export function decodeTraceExport(body: Uint8Array, encoding: OtlpEncoding): OtlpSpan[] {
  return [...openTraceExport(body, encoding).spans()];
}

// ---------------------------------------------------------------------------------------------
// Protobuf

/**
 * Walks the encoded message, guided by the generated descriptors, and counts the messages
 * (and spans) decoding would create, without creating any: a body that would decode into
 * millions of tiny attributes is refused after a scan instead of after building them. The walk
 * skips everything but the message-typed fields, so it costs a fraction of decoding; it reads
 * with the decoder's own reader (protobufjs), which skips a field by moving its position,
 * where `@bufbuild/protobuf`'s makes a view of the skipped bytes and an array per tag.
 *
 * A body the walk cannot read is walked again by `namePlaceOfError`, which keeps the path and
 * names where it breaks (`resourceSpans[0].scopeSpans[0].spans[2]: premature EOF`); the
 * library's decoder alone does not.
 */
function checkProtobufBounds(body: Uint8Array): number {
  const counts = { values: 0, spans: 0 };
  try {
    walkMessage(
      protobuf.Reader.create(body),
      body.length,
      walkTableOf(ExportTraceServiceRequestSchema),
      counts,
      0,
    );
  } catch (error) {
    if (error instanceof RequestRejected) throw error;
    namePlaceOfError(body);
    throw notProtobuf("", error);
  }
  return counts.spans;
}

const notProtobuf = (where: string, error: unknown) =>
  invalid(
    `Body is not a valid protobuf ExportTraceServiceRequest: ${where}${error instanceof Error ? error.message : "unreadable"}.`,
  );

/** A message's message-typed fields, indexed by field number, for the walk. */
interface WalkTable {
  fields: (WalkField | undefined)[];
}

interface WalkField {
  table: WalkTable;
  isSpan: boolean;
}

const walkTables = new Map<DescMessage, WalkTable>();

function walkTableOf(desc: DescMessage): WalkTable {
  let table = walkTables.get(desc);
  if (!table) {
    table = { fields: [] };
    walkTables.set(desc, table);
    for (const field of desc.fields) {
      const message =
        field.fieldKind === "message" || field.fieldKind === "list" ? field.message : undefined;
      if (message) {
        table.fields[field.number] = {
          table: walkTableOf(message),
          isSpan: message === SpanSchema,
        };
      }
    }
  }
  return table;
}

function walkMessage(
  reader: protobuf.Reader,
  end: number,
  table: WalkTable,
  counts: { values: number; spans: number },
  depth: number,
): void {
  if (depth > OTLP_LIMITS.depth) {
    throw invalid(`Messages nest deeper than ${OTLP_LIMITS.depth} levels.`);
  }
  while (reader.pos < end) {
    const tag = reader.tag();
    const fieldNo = tag >>> 3;
    const wireType = tag & 7;
    if (fieldNo === 0) throw new RangeError("illegal tag: field number 0");
    const field = table.fields[fieldNo];
    if (field === undefined || wireType !== WireType.LengthDelimited) {
      reader.skipType(wireType, depth, fieldNo);
      continue;
    }
    counts.values += 1;
    if (counts.values > OTLP_LIMITS.valuesPerRequest) throw tooManyValues("messages");
    if (field.isSpan) {
      counts.spans += 1;
      if (counts.spans > OTLP_LIMITS.spansPerRequest) throw tooManySpans();
    }
    const childEnd = reader.uint32() + reader.pos;
    if (childEnd > end) throw new RangeError("premature EOF");
    walkMessage(reader, childEnd, field.table, counts, depth + 1);
  }
  if (reader.pos !== end) throw new RangeError("premature EOF");
}

/** One message field on the way down, and which of its repeated values it is. */
interface PathStep {
  field: DescField;
  index: number;
}

const pathText = (path: PathStep[]) =>
  path
    .map(({ field, index }) =>
      field.fieldKind === "list" ? `${field.jsonName}[${index}]` : field.jsonName,
    )
    .join(".");

/**
 * Walks a body the bounds walk could not read once more, keeping the path, and throws the
 * refusal that names where it breaks. Returns if this walk gets through (never expected).
 */
function namePlaceOfError(body: Uint8Array): void {
  const path: PathStep[] = [];
  try {
    walkNamingPath(new BinaryReader(body), body.length, ExportTraceServiceRequestSchema, path);
  } catch (error) {
    throw notProtobuf(path.length > 0 ? `${pathText(path)}: ` : "", error);
  }
}

function walkNamingPath(reader: BinaryReader, end: number, desc: DescMessage, path: PathStep[]) {
  // Occurrences of each repeated field so far; made when needed.
  let seen: Map<number, number> | undefined;
  while (reader.pos < end) {
    const [fieldNo, wireType] = reader.tag();
    const field = desc.fields.find((candidate) => candidate.number === fieldNo);
    const message =
      field?.fieldKind === "message" || field?.fieldKind === "list" ? field.message : undefined;
    if (!field || !message || wireType !== WireType.LengthDelimited) {
      reader.skip(wireType, fieldNo);
      continue;
    }
    seen ??= new Map();
    const index = seen.get(fieldNo) ?? 0;
    seen.set(fieldNo, index + 1);
    path.push({ field, index });
    const childEnd = reader.uint32() + reader.pos;
    if (childEnd > end) throw new RangeError("premature EOF");
    walkNamingPath(reader, childEnd, message, path);
    path.pop();
  }
  if (reader.pos !== end) throw new RangeError("premature EOF");
}

type PbReader = protobuf.Reader;

/**
 * A generated decoder as protobufjs 8 generates it: after the length it takes an end-group tag,
 * the depth of the message (checked against `Reader.recursionLimit`) and a message to merge into
 * (a singular message field that occurs twice is merged). Its declaration names only the first
 * two parameters.
 */
type Decoder<T> = (
  reader: PbReader,
  length: number,
  endGroup: undefined,
  depth: number,
  target?: T,
) => T;

const decodeResource = pb.proto.resource.v1.Resource
  .decode as Decoder<pb.proto.resource.v1.Resource>;
const decodeScope = pb.proto.common.v1.InstrumentationScope
  .decode as Decoder<pb.proto.common.v1.InstrumentationScope>;
const decodeSpan = pb.proto.trace.v1.Span.decode as Decoder<pb.proto.trace.v1.Span>;

/**
 * Decodes the spans of a body whose framing the bounds walk has read, one `Span` message at a
 * time with the generated decoders. The two envelopes around them (`ResourceSpans`,
 * `ScopeSpans`) are read field by field the way their generated decoders read them — the
 * resource (its occurrences merged), the scope and the schema URLs are decoded too, so a string
 * that is not UTF-8 anywhere is refused as before — except that a resource's spans are handed
 * over as they are decoded instead of being collected into one message.
 */
function* protobufSpans(body: Uint8Array): Generator<OtlpSpan> {
  // A Buffer over the same bytes: protobufjs then reads strings with Node's own UTF-8 code.
  const reader = new TextReader(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  try {
    let r = 0;
    while (reader.pos < reader.len) {
      const tag = reader.tag();
      if (tag >>> 3 === 1 && (tag & 7) === WireType.LengthDelimited) {
        yield* resourceSpans(reader, reader.size(), `resourceSpans[${r++}]`);
      } else reader.skipType(tag & 7, 0, tag);
    }
  } catch (error) {
    if (error instanceof RequestRejected) throw error;
    // The bounds walk read the framing; what is left to fail is a string (proto3 requires UTF-8).
    if ((error as { code?: unknown }).code === "ERR_ENCODING_INVALID_ENCODED_DATA") {
      throw invalid(
        "Body is not a valid protobuf ExportTraceServiceRequest: a string field is not valid UTF-8.",
      );
    }
    throw notProtobuf("", error);
  }
}

/**
 * The tags of the message of `length` bytes at the reader's position, with the reader bounded
 * to it (as a generated decoder bounds it) while the caller reads each field; afterwards the
 * reader is after the message.
 */
function* fieldsOf(reader: PbReader, length: number): Generator<number> {
  const end = reader.pos + length;
  if (end > reader.len) throw new RangeError("index out of range");
  const outer = reader.len;
  reader.len = end;
  while (reader.pos < end) yield reader.tag();
  if (reader.pos !== end) throw new RangeError("index out of range");
  reader.len = outer;
}

const isLengthDelimited = (tag: number) => (tag & 7) === WireType.LengthDelimited;

/** A `ResourceSpans`: its resource first, wherever it is, then its scopes' spans. */
function* resourceSpans(reader: PbReader, length: number, path: string): Generator<OtlpSpan> {
  const start = reader.pos;
  let resource: pb.proto.resource.v1.Resource | undefined;
  for (const tag of fieldsOf(reader, length)) {
    if (isLengthDelimited(tag) && tag >>> 3 === 1) {
      resource = decodeResource(reader, reader.size(), undefined, 2, resource);
    } else if (isLengthDelimited(tag) && tag >>> 3 === 3) reader.stringVerify();
    else reader.skipType(tag & 7, 1, tag);
  }
  const attributes = pbAttributesOf(resource?.attributes);
  reader.pos = start;
  let s = 0;
  for (const tag of fieldsOf(reader, length)) {
    if (isLengthDelimited(tag) && tag >>> 3 === 2) {
      yield* scopeSpans(reader, reader.size(), attributes, `${path}.scopeSpans[${s++}]`);
    } else reader.skipType(tag & 7, 1, tag);
  }
}

/** A `ScopeSpans`: each span decoded and unwrapped in turn. */
function* scopeSpans(
  reader: PbReader,
  length: number,
  resource: Attributes,
  path: string,
): Generator<OtlpSpan> {
  let i = 0;
  for (const tag of fieldsOf(reader, length)) {
    if (!isLengthDelimited(tag)) reader.skipType(tag & 7, 2, tag);
    else if (tag >>> 3 === 1) decodeScope(reader, reader.size(), undefined, 3);
    else if (tag >>> 3 === 2) {
      const span = decodeSpan(reader, reader.size(), undefined, 3);
      yield pbToOtlpSpan(span, resource, `${path}.spans[${i++}]`);
    } else if (tag >>> 3 === 3) reader.stringVerify();
    else reader.skipType(tag & 7, 2, tag);
  }
}

// ---------------------------------------------------------------------------------------------
// JSON (OTLP/HTTP JSON: proto3 JSON except for hex trace and span ids)

/**
 * Objects and arrays in a JSON text, counted without parsing it (at most `limit + 1`: the
 * count stops there). Malformed text is left to `JSON.parse` to report.
 */
export function countJsonValues(text: string, limit: number): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 34) {
      i = closingQuote(text, i + 1);
      if (i < 0) break;
    } else if (code === 123 || code === 91) {
      count += 1;
      if (count > limit) break;
    }
  }
  return count;
}

type JsonObject = { [key: string]: JsonValue };

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The value of a field under its JSON name or its proto name, whichever is present. */
function fieldOf(object: JsonObject, jsonName: string, protoName: string): JsonValue | undefined {
  return Object.hasOwn(object, jsonName)
    ? object[jsonName]
    : Object.hasOwn(object, protoName)
      ? object[protoName]
      : undefined;
}

/** A repeated field of the envelope: absent or null is empty; anything else must be an array. */
function listOf(
  object: JsonObject,
  jsonName: string,
  protoName: string,
  path: string,
): JsonValue[] {
  const value = fieldOf(object, jsonName, protoName);
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(`${path}${jsonName}: an array expected.`);
  return value;
}

function objectAt(value: JsonValue, path: string): JsonObject {
  if (!isObject(value)) throw invalid(`${path}: an object expected.`);
  return value;
}

const JSON_OPTIONS = { ignoreUnknownFields: true, recursionLimit: OTLP_LIMITS.depth } as const;

function fromJsonAt<Desc extends DescMessage>(
  desc: Desc,
  json: JsonValue,
  path: string,
): MessageShape<Desc> {
  try {
    return fromJson(desc, json, JSON_OPTIONS);
  } catch (error) {
    const reason = error instanceof Error ? error.message : "unreadable";
    throw invalid(`${path}: ${reason}.`);
  }
}

/** The span and trace id fields of OTLP JSON: hex strings, with their lengths in bytes. */
const HEX_IDS = [
  { jsonName: "traceId", protoName: "trace_id", bytes: 16, optional: false },
  { jsonName: "spanId", protoName: "span_id", bytes: 8, optional: false },
  { jsonName: "parentSpanId", protoName: "parent_span_id", bytes: 8, optional: true },
] as const;

/**
 * Replaces a JSON span's hex ids with the base64 that proto3 JSON (and so `fromJson`) reads
 * for bytes, checking each on the way; drops the span's events and links, which the span
 * contract does not carry, so they are not decoded for nothing.
 */
function prepareJsonSpan(span: JsonObject, path: string): JsonObject {
  const prepared: JsonObject = { ...span };
  delete prepared.events;
  delete prepared.links;
  for (const id of HEX_IDS) {
    const present = Object.hasOwn(span, id.jsonName) ? id.jsonName : id.protoName;
    const value = span[present];
    delete prepared[id.jsonName];
    delete prepared[id.protoName];
    if (id.optional && (value === undefined || value === null || value === "")) continue;
    const digits = id.bytes * 2;
    if (typeof value !== "string" || value.length !== digits || !/^[0-9a-fA-F]+$/.test(value)) {
      throw invalid(`${path}.${id.jsonName}: ${digits} hex digits expected.`);
    }
    prepared[id.jsonName] = Buffer.from(value, "hex").toString("base64");
  }
  return prepared;
}

function decodeJsonExport(body: Uint8Array): OtlpSpan[] {
  const text = utf8Text(body);
  if (countJsonValues(text, OTLP_LIMITS.valuesPerRequest) > OTLP_LIMITS.valuesPerRequest) {
    throw tooManyValues("JSON objects and arrays");
  }
  let json: JsonValue;
  try {
    json = JSON.parse(text) as JsonValue;
  } catch (error) {
    const reason = error instanceof Error ? error.message : "unreadable";
    throw invalid(`Body is not valid JSON: ${reason}.`);
  }
  if (!isObject(json)) {
    throw invalid('Body must be a JSON ExportTraceServiceRequest object {"resourceSpans": [...]}.');
  }
  const spans: OtlpSpan[] = [];
  listOf(json, "resourceSpans", "resource_spans", "").forEach((item, r) => {
    const rPath = `resourceSpans[${r}]`;
    const resourceSpans = objectAt(item, rPath);
    const resourceJson = fieldOf(resourceSpans, "resource", "resource");
    const resource = resourceAttributes(
      resourceJson === undefined || resourceJson === null
        ? undefined
        : fromJsonAt(ResourceSchema, resourceJson, `${rPath}.resource`),
    );
    listOf(resourceSpans, "scopeSpans", "scope_spans", `${rPath}.`).forEach((scopeItem, s) => {
      const sPath = `${rPath}.scopeSpans[${s}]`;
      const scopeSpans = objectAt(scopeItem, sPath);
      listOf(scopeSpans, "spans", "spans", `${sPath}.`).forEach((spanItem, i) => {
        const path = `${sPath}.spans[${i}]`;
        if (spans.length >= OTLP_LIMITS.spansPerRequest) throw tooManySpans();
        const span = fromJsonAt(SpanSchema, prepareJsonSpan(objectAt(spanItem, path), path), path);
        spans.push(toOtlpSpan(span, resource, path));
      });
    });
  });
  return spans;
}

// ---------------------------------------------------------------------------------------------
// Decoded messages → the span contract

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

function hexOf(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += HEX[byte];
  return hex;
}

function idOf(bytes: Uint8Array, length: number, path: string): string {
  if (bytes.length !== length) {
    throw invalid(`${path}: ${length} bytes expected, got ${bytes.length}.`);
  }
  if (bytes.every((byte) => byte === 0)) throw invalid(`${path}: must not be all zeros.`);
  return hexOf(bytes);
}

function toOtlpSpan(span: Span, resource: Attributes, path: string): OtlpSpan {
  return {
    traceId: idOf(span.traceId, 16, `${path}.traceId`),
    spanId: idOf(span.spanId, 8, `${path}.spanId`),
    parentSpanId:
      span.parentSpanId.length === 0 ? null : idOf(span.parentSpanId, 8, `${path}.parentSpanId`),
    name: span.name,
    startTimeUnixNano: span.startTimeUnixNano,
    endTimeUnixNano: span.endTimeUnixNano,
    attributes: attributesOf(span.attributes),
    resource,
    statusCode: span.status?.code ?? 0,
    statusMessage: span.status?.message ?? "",
  };
}

const resourceAttributes = (resource: Resource | undefined): Attributes =>
  attributesOf(resource?.attributes ?? []);

/**
 * Key-value lists become objects without a prototype, so a key such as `__proto__` or
 * `constructor` is an ordinary key and a lookup of an absent key is `undefined`. When a key
 * repeats, the last value wins.
 */
function attributesOf(list: KeyValue[]): Attributes {
  const attributes: Attributes = Object.create(null);
  for (const { key, value } of list) attributes[key] = attributeValueOf(value);
  return attributes;
}

/** AnyValue without its wrapper: int64 → bigint, bytes → Uint8Array, unset → null. */
export function attributeValueOf(value: AnyValue | undefined): AttributeValue {
  const v = value?.value;
  switch (v?.case) {
    case "stringValue":
    case "boolValue":
    case "intValue":
    case "doubleValue":
    case "bytesValue":
      return v.value;
    case "arrayValue":
      return v.value.values.map(attributeValueOf);
    case "kvlistValue":
      return attributesOf(v.value.values);
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// protobufjs messages → the span contract

type PbSpan = pb.proto.trace.v1.Span.$Properties;
type PbKeyValue = pb.proto.common.v1.KeyValue.$Properties;
type PbAnyValue = pb.proto.common.v1.AnyValue.$Properties;
/** A 64-bit integer as protobufjs reads it: a `Long` (two 32-bit halves), or a number. */
type PbLong = number | { low: number; high: number };

const EMPTY = new Uint8Array(0);

/** int64 (signed) or fixed64 (unsigned) from protobufjs as a bigint. */
function bigintOf(value: PbLong | null | undefined, signed: boolean): bigint {
  if (value === null || value === undefined) return 0n;
  if (typeof value === "number") return BigInt(value);
  const bits = (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0);
  return signed ? BigInt.asIntN(64, bits) : bits;
}

function pbToOtlpSpan(span: PbSpan, resource: Attributes, path: string): OtlpSpan {
  const parent = span.parentSpanId ?? EMPTY;
  return {
    traceId: idOf(span.traceId ?? EMPTY, 16, `${path}.traceId`),
    spanId: idOf(span.spanId ?? EMPTY, 8, `${path}.spanId`),
    parentSpanId: parent.length === 0 ? null : idOf(parent, 8, `${path}.parentSpanId`),
    name: span.name ?? "",
    startTimeUnixNano: bigintOf(span.startTimeUnixNano, false),
    endTimeUnixNano: bigintOf(span.endTimeUnixNano, false),
    attributes: pbAttributesOf(span.attributes),
    resource,
    statusCode: span.status?.code ?? 0,
    statusMessage: span.status?.message ?? "",
  };
}

/** As `attributesOf`, for protobufjs messages. */
function pbAttributesOf(list: PbKeyValue[] | null | undefined): Attributes {
  const attributes: Attributes = Object.create(null);
  if (list) {
    for (const { key, value } of list) attributes[key ?? ""] = pbAttributeValueOf(value);
  }
  return attributes;
}

/** As `attributeValueOf`, for protobufjs messages; bytes are copied out of the body. */
function pbAttributeValueOf(value: PbAnyValue | null | undefined): AttributeValue {
  switch (value?.value) {
    case "stringValue":
      return value.stringValue ?? "";
    case "boolValue":
      return value.boolValue ?? false;
    case "intValue":
      return bigintOf(value.intValue, true);
    case "doubleValue":
      return value.doubleValue ?? 0;
    case "bytesValue":
      return new Uint8Array(value.bytesValue ?? EMPTY);
    case "arrayValue":
      return (value.arrayValue?.values ?? []).map(pbAttributeValueOf);
    case "kvlistValue":
      return pbAttributesOf(value.kvlistValue?.values);
    default:
      return null;
  }
}
