import { describe, expect, it } from "vitest";
import { groupToolRuns } from "./tool-runs";
import type { CallSpanRecord, ToolRunRecord } from "./types";

const TRACE = "a".repeat(32);
const MS = 1_000_000n;

function call(decisionId: number | null, spanId: string, startMs: number, callIds: string[] = []) {
  return {
    decisionId,
    traceId: TRACE,
    spanId,
    startNs: BigInt(startMs) * MS,
    callIds,
  } satisfies CallSpanRecord;
}

function toolRun(spanId: string, startMs: number, endMs: number, fields: Partial<ToolRunRecord>) {
  return {
    traceId: TRACE,
    spanId,
    startNs: BigInt(startMs) * MS,
    endNs: BigInt(endMs * 1_000_000),
    tool: null,
    name: "ai.toolCall",
    callId: null,
    error: null,
    ...fields,
  } satisfies ToolRunRecord;
}

describe("groupToolRuns", () => {
  it("puts each tool run under its call by call id, with duration and error", () => {
    const grouped = groupToolRuns(
      [call(1, "1000000000000001", 0, ["c1", "c2"]), call(2, "1000000000000002", 500, ["c3"])],
      [
        // Streamed: the second call started before these ran, but the ids say whose they are.
        toolRun("2000000000000002", 600, 612.5, { tool: "create_ticket", callId: "c2" }),
        toolRun("2000000000000001", 600, 1600, { tool: "search_docs", callId: "c1" }),
        toolRun("2000000000000003", 900, 905, {
          tool: "refund_order",
          callId: "c3",
          error: "timeout",
        }),
      ],
    );
    expect(grouped.get(1)).toEqual([
      {
        key: `${TRACE}:2000000000000001`,
        name: "search_docs",
        named: true,
        durationMs: 1000,
        error: null,
        joinedBy: "call_id",
      },
      expect.objectContaining({ name: "create_ticket", durationMs: 12.5 }),
    ]);
    expect(grouped.get(2)).toEqual([
      expect.objectContaining({ name: "refund_order", error: "timeout", joinedBy: "call_id" }),
    ]);
  });

  it("places a run without a call id under the latest earlier call, and drops other calls' runs", () => {
    const grouped = groupToolRuns(
      [call(7, "1000000000000001", 0), call(null, "1000000000000002", 100)],
      [
        toolRun("2000000000000001", 50, 60, {}),
        // After the next call, which is not on this page: not shown here.
        toolRun("2000000000000002", 150, 160, { tool: "escalate" }),
      ],
    );
    expect(grouped.get(7)).toEqual([
      expect.objectContaining({ name: "ai.toolCall", named: false, joinedBy: "time" }),
    ]);
    expect([...grouped.keys()]).toEqual([7]);
  });
});
