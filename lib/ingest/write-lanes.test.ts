import { describe, expect, it } from "vitest";
import { type LaneRequest, WriteLanes } from "./write-lanes";

interface Request extends LaneRequest {
  readonly name: string;
}

/**
 * Lanes whose writes finish only when the test says so: `groups` lists every group a writer
 * started (names of its requests), `finish(i)` completes the i-th.
 */
function heldLanes(options = { writers: 2, maxEventsPerGroup: 2_000, expressMaxEvents: 500 }) {
  const groups: string[][] = [];
  const finishers: (() => void)[] = [];
  const lanes = new WriteLanes<Request>((group) => {
    groups.push(group.map((r) => r.name));
    return new Promise<void>((resolve) => finishers.push(resolve));
  }, options);
  const finish = async (i: number) => {
    finishers[i]?.();
    // Let the writer's loop take its next group.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { lanes, groups, finish };
}

const request = (name: string, tenant: string, size: number): Request => ({
  name,
  tenant,
  items: new Array(size),
  reject: () => {},
});

describe("WriteLanes", () => {
  it("starts a shared writer per request while fewer than `writers` are busy", () => {
    const { lanes, groups } = heldLanes();
    lanes.submit(request("a1", "a", 500));
    lanes.submit(request("a2", "a", 500));
    expect(groups).toEqual([["a1"], ["a2"]]);
  });

  it("writes a lone tenant's batch at once while a flood holds the shared writers", () => {
    const { lanes, groups } = heldLanes();
    for (let i = 1; i <= 6; i++) lanes.submit(request(`flood${i}`, "flood", 1_000));
    expect(lanes.submit(request("steady", "steady", 20))).toBe(true);
    expect(groups).toEqual([["flood1"], ["flood2"], ["steady"]]);
    expect(lanes.queued).toBe(4);
  });

  it("is express only for a tenant with nothing else queued or being written", async () => {
    const { lanes, groups, finish } = heldLanes();
    lanes.submit(request("flood1", "flood", 1_000));
    lanes.submit(request("flood2", "flood", 1_000));
    expect(lanes.submit(request("flood3", "flood", 100))).toBe(false);
    expect(lanes.submit(request("steady1", "steady", 20))).toBe(true);
    // The steady tenant's second batch, while its first is being written, waits like any other.
    expect(lanes.submit(request("steady2", "steady", 20))).toBe(false);
    expect(groups).toEqual([["flood1"], ["flood2"], ["steady1"]]);

    await finish(2);
    // The express writer finds no express request left and stops; the next one starts it again.
    expect(groups).toHaveLength(3);
    expect(lanes.submit(request("steady3", "steady", 20))).toBe(false);
    expect(lanes.submit(request("other", "other", 20))).toBe(true);
    expect(groups[3]).toEqual(["other"]);
  });

  it("never makes a large batch express", () => {
    const { lanes, groups } = heldLanes();
    lanes.submit(request("flood1", "flood", 1_000));
    lanes.submit(request("flood2", "flood", 1_000));
    expect(lanes.submit(request("big", "big", 501))).toBe(false);
    expect(groups).toEqual([["flood1"], ["flood2"]]);
  });

  it("gives a shared writer's next group to waiting express requests alone, then the rest in arrival order", async () => {
    const { lanes, groups, finish } = heldLanes({
      writers: 2,
      maxEventsPerGroup: 1_500,
      expressMaxEvents: 500,
    });
    lanes.submit(request("flood1", "flood", 1_000));
    lanes.submit(request("flood2", "flood", 1_000));
    lanes.submit(request("flood3", "flood", 1_000));
    lanes.submit(request("flood4", "flood", 1_000));
    lanes.submit(request("steady", "steady", 20)); // to the express writer
    lanes.submit(request("other", "other", 30)); // express, waiting: the express writer is busy
    expect(groups).toEqual([["flood1"], ["flood2"], ["steady"]]);

    await finish(0);
    // The shared writer takes "other" ahead of the flood, in a group of its own …
    expect(groups[3]).toEqual(["other"]);
    await finish(3);
    // … and then the flood, up to 1,500 events.
    expect(groups[4]).toEqual(["flood3", "flood4"]);
    expect(lanes.queued).toBe(0);
  });

  it("keeps the express writer to express requests", async () => {
    const { lanes, groups, finish } = heldLanes();
    lanes.submit(request("flood1", "flood", 1_000));
    lanes.submit(request("flood2", "flood", 1_000));
    lanes.submit(request("steady", "steady", 20));
    lanes.submit(request("flood3", "flood", 1_000));
    lanes.submit(request("other", "other", 20));
    await finish(2);
    expect(groups[3]).toEqual(["other"]);
    await finish(3);
    expect(groups).toHaveLength(4);
    expect(lanes.queued).toBe(1);
  });

  it("rejects the requests of a group whose write throws, and counts them as finished", async () => {
    const lanes = new WriteLanes<Request>(() => Promise.reject(new Error("refused")), {
      writers: 1,
      maxEventsPerGroup: 2_000,
      expressMaxEvents: 500,
    });
    const failures: unknown[] = [];
    lanes.submit(failing("first", "t", failures));
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures).toEqual(["first: refused"]);
    // Nothing of the tenant is outstanding any more, so its next batch is express again.
    expect(lanes.submit(failing("second", "t", failures))).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures).toEqual(["first: refused", "second: refused"]);
  });
});

function failing(name: string, tenant: string, failures: unknown[]): Request {
  return {
    name,
    tenant,
    items: new Array(10),
    reject: (error) => failures.push(`${name}: ${(error as Error).message}`),
  };
}
