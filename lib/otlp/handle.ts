/**
 * POST /api/otlp/v1/traces (SPEC §8, OTLP/HTTP 1.x): the ingest key's admission, body reading
 * and refusals of `/api/ingest` (`lib/ingest/admission.ts`), then the export decoded and its
 * spans handed to storage. Every answer is in the request's encoding (protobuf or JSON): an
 * `ExportTraceServiceResponse` on success, with `partial_success` when storage refused some
 * spans, and a `google.rpc.Status` naming the field and rule on a refusal.
 */
import { create, toBinary, toJson } from "@bufbuild/protobuf";
import { INGEST_CACHE_CONTROL, type Refusal, serveKeyedIngest } from "@/lib/ingest/admission";
import { runJob } from "@/lib/ingest/job-checker";
import { mediaTypeOf, RequestRejected } from "@/lib/ingest/request";
import type { OtlpEncoding } from "./decode";
import { StatusSchema } from "./gen/google/rpc/status_pb";
import { ExportTraceServiceResponseSchema } from "./gen/opentelemetry/proto/collector/trace/v1/trace_service_pb";
import type { MappedSpans } from "./mapped-export";
import type { SpanStoreResult } from "./types";

/**
 * Where an export's mapped spans are stored (`storeMappedSpans` of `lib/otlp/store.ts`): answers
 * what was refused.
 */
export type SpanStorage = (tenant: string, mapped: MappedSpans) => Promise<SpanStoreResult>;

const CONTENT_TYPES: Record<OtlpEncoding, string> = {
  protobuf: "application/x-protobuf",
  json: "application/json",
};

/** The encoding a Content-Type names, or null for any other type. */
export function encodingOf(contentType: string | null): OtlpEncoding | null {
  const type = mediaTypeOf(contentType);
  if (type === CONTENT_TYPES.protobuf) return "protobuf";
  if (type === CONTENT_TYPES.json) return "json";
  return null;
}

/**
 * The gRPC code a `google.rpc.Status` carries for each HTTP status this endpoint answers
 * (the mapping gRPC itself uses between the two).
 */
const GRPC_CODES: Record<number, number> = {
  400: 3, // INVALID_ARGUMENT
  401: 16, // UNAUTHENTICATED
  413: 8, // RESOURCE_EXHAUSTED
  415: 3, // INVALID_ARGUMENT
  429: 8, // RESOURCE_EXHAUSTED
  503: 14, // UNAVAILABLE
};
const GRPC_INTERNAL = 13;

function encoded(
  encoding: OtlpEncoding,
  status: number,
  body: Uint8Array<ArrayBuffer> | string,
  headers: Record<string, string> = {},
): Response {
  return new Response(body, {
    status,
    headers: {
      "Content-Type": CONTENT_TYPES[encoding],
      "Cache-Control": INGEST_CACHE_CONTROL,
      ...headers,
    },
  });
}

/** A refusal as a `google.rpc.Status`, with Retry-After when the client should retry later. */
export function statusResponse(encoding: OtlpEncoding, refusal: Refusal): Response {
  const status = create(StatusSchema, {
    code: GRPC_CODES[refusal.status] ?? GRPC_INTERNAL,
    message: refusal.message,
  });
  const headers: Record<string, string> =
    refusal.retryAfterSeconds === null ? {} : { "Retry-After": String(refusal.retryAfterSeconds) };
  return encoding === "protobuf"
    ? encoded(encoding, refusal.status, toBinary(StatusSchema, status), headers)
    : encoded(encoding, refusal.status, JSON.stringify(toJson(StatusSchema, status)), headers);
}

/** 200 with an `ExportTraceServiceResponse`; `partial_success` only when spans were refused. */
export function exportResponse(encoding: OtlpEncoding, result: SpanStoreResult): Response {
  const response = create(ExportTraceServiceResponseSchema, {
    partialSuccess:
      result.rejectedSpans > 0
        ? { rejectedSpans: BigInt(result.rejectedSpans), errorMessage: result.errorMessage }
        : undefined,
  });
  return encoding === "protobuf"
    ? encoded(encoding, 200, toBinary(ExportTraceServiceResponseSchema, response))
    : encoded(encoding, 200, JSON.stringify(toJson(ExportTraceServiceResponseSchema, response)));
}

export function handleOtlpTraces(request: Request, store: SpanStorage): Promise<Response> {
  const contentType = request.headers.get("content-type");
  const encoding = encodingOf(contentType);
  // A body of another type is answered in JSON, the one encoding any client can read.
  return serveKeyedIngest(
    request,
    "otlp ingest",
    (refusal) => statusResponse(encoding ?? "json", refusal),
    async ({ tenant, readBody, acquireSlot, releaseSlot, spendEvents, yieldTurn }) => {
      if (!encoding) {
        throw new RequestRejected(
          415,
          `Content-Type must be application/x-protobuf or application/json (got ${contentType ? `"${contentType}"` : "none"}).`,
        );
      }
      const body = await readBody();
      await acquireSlot();
      // Each span is an event of the tenant's events per second; over it, nothing is decoded
      // further and nothing is stored. Decoded and mapped one span at a time, within the slot
      // like all reading of the body.
      const mapped = await runJob({ kind: "otlp", encoding, body }, tenant, yieldTurn, spendEvents);
      releaseSlot();
      return exportResponse(encoding, await store(tenant, mapped));
    },
  );
}
