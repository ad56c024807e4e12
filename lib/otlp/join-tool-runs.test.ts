import { describe, expect, it } from "vitest";
import { joinToolRuns } from "./join-tool-runs";

const call = (traceId: string, spanId: string, startNs: bigint, callIds: string[] = []) => ({
  traceId,
  spanId,
  startNs,
  callIds,
});
const run = (traceId: string, spanId: string, startNs: bigint, callId: string | null) => ({
  traceId,
  spanId,
  startNs,
  callId,
});

describe("joinToolRuns", () => {
  it("joins by call id, even when the tool run starts before its call ends or another call starts", () => {
    const first = call("t", "b1", 100n, ["c1"]);
    const second = call("t", "a2", 200n, ["c2"]);
    const joined = joinToolRuns(
      [second, first],
      [run("t", "r1", 250n, "c1"), run("t", "r2", 210n, "c2")],
    );
    expect(joined.map((j) => [j.toolRun.spanId, j.call?.spanId, j.joinedBy])).toEqual([
      ["r1", "b1", "call_id"],
      ["r2", "a2", "call_id"],
    ]);
  });

  it("falls back to the latest earlier LLM call of the same trace, ordered by (start, span id)", () => {
    const calls = [
      call("t", "bb", 100n),
      call("t", "aa", 100n),
      call("t", "cc", 300n),
      call("u", "dd", 150n),
    ];
    const joined = joinToolRuns(calls, [
      run("t", "r1", 150n, "unknown"),
      run("t", "r2", 100n, null),
    ]);
    // At the same start, span id "bb" sorts after "aa": the latest of the two.
    expect(joined.map((j) => [j.call?.spanId, j.joinedBy])).toEqual([
      ["bb", "time"],
      ["bb", "time"],
    ]);
  });

  it("leaves a tool run with no earlier call in its trace unjoined", () => {
    const joined = joinToolRuns(
      [call("t", "a", 500n)],
      [run("t", "r", 100n, null), run("v", "s", 900n, null)],
    );
    expect(joined.map((j) => [j.call, j.joinedBy])).toEqual([
      [null, "none"],
      [null, "none"],
    ]);
  });

  it("prefers a call of the tool run's own trace when a call id repeats across traces", () => {
    const joined = joinToolRuns(
      [call("t1", "a", 100n, ["c"]), call("t2", "b", 200n, ["c"])],
      [run("t2", "r", 300n, "c")],
    );
    expect(joined[0]?.call?.spanId).toBe("b");
  });
});
