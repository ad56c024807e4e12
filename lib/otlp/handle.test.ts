import { fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { StatusSchema } from "./gen/google/rpc/status_pb";
import { ExportTraceServiceResponseSchema } from "./gen/opentelemetry/proto/collector/trace/v1/trace_service_pb";
import { encodingOf, exportResponse, statusResponse } from "./handle";

const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

describe("encodingOf", () => {
  it.each([
    ["application/x-protobuf", "protobuf"],
    ["Application/X-Protobuf", "protobuf"],
    ["application/json", "json"],
    ["application/json; charset=utf-8", "json"],
    ["application/protobuf", null],
    ["text/plain", null],
    [null, null],
  ])("%s → %s", (header, encoding) => {
    expect(encodingOf(header)).toBe(encoding);
  });
});

describe("exportResponse", () => {
  it("leaves partial_success out when nothing was refused", async () => {
    const json = exportResponse("json", { rejectedSpans: 0, errorMessage: "" });
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual({});
    const protobuf = exportResponse("protobuf", { rejectedSpans: 0, errorMessage: "" });
    expect(protobuf.headers.get("content-type")).toBe("application/x-protobuf");
    expect(await bytesOf(protobuf)).toHaveLength(0);
  });

  it("counts refused spans with the message, in either encoding", async () => {
    const result = { rejectedSpans: 2, errorMessage: "span 01: gen_ai.tool.definitions: not JSON" };
    expect(await exportResponse("json", result).json()).toEqual({
      partialSuccess: { rejectedSpans: "2", errorMessage: result.errorMessage },
    });
    const decoded = fromBinary(
      ExportTraceServiceResponseSchema,
      await bytesOf(exportResponse("protobuf", result)),
    );
    expect(decoded.partialSuccess).toMatchObject({
      rejectedSpans: 2n,
      errorMessage: result.errorMessage,
    });
  });
});

describe("statusResponse", () => {
  it("answers a google.rpc.Status with the gRPC code and Retry-After when given", async () => {
    const busy = statusResponse("protobuf", {
      status: 503,
      message: "busy",
      retryAfterSeconds: 1,
    });
    expect(busy.status).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("1");
    expect(fromBinary(StatusSchema, await bytesOf(busy))).toMatchObject({
      code: 14,
      message: "busy",
    });

    const bad = statusResponse("json", { status: 400, message: "x: bad", retryAfterSeconds: null });
    expect(bad.headers.get("retry-after")).toBeNull();
    expect(bad.headers.get("content-type")).toBe("application/json");
    expect(await bad.json()).toEqual({ code: 3, message: "x: bad" });
  });

  it("gives an unexpected failure the INTERNAL code", async () => {
    const failed = statusResponse("json", {
      status: 500,
      message: "oops",
      retryAfterSeconds: null,
    });
    expect(await failed.json()).toEqual({ code: 13, message: "oops" });
  });
});
