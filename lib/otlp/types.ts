/**
 * OpenTelemetry ingest (SPEC §8): the shapes shared by decoding (`decode.ts`), mapping
 * (`mapping.ts`) and storing (`store.ts`). Decoding turns either OTLP encoding into
 * `OtlpSpan`s; mapping reads the attribute families into LLM calls and tool runs; storing keeps
 * those spans and derives `tool_routing_decision` / `tool_call_outcome` rows from them.
 */

/** An attribute value after decoding: OTLP's AnyValue without its wrapper. int64 → bigint. */
export type AttributeValue =
  | string
  | number
  | bigint
  | boolean
  | Uint8Array
  | null
  | AttributeValue[]
  | { [key: string]: AttributeValue };

export type Attributes = Record<string, AttributeValue>;

/** One span of an export, identical whether it came as protobuf or as JSON. */
export interface OtlpSpan {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  /** 16 lowercase hex digits, or null for a root span. */
  parentSpanId: string | null;
  name: string;
  /** Nanoseconds since the Unix epoch. */
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Attributes;
  /** The attributes of the span's resource (`service.name`, …). */
  resource: Attributes;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage: string;
}

/** What storing an export answers: how many spans were refused, and why (partial_success). */
export interface SpanStoreResult {
  rejectedSpans: number;
  /** One sentence naming the first refused span's problem; empty when none was refused. */
  errorMessage: string;
}
