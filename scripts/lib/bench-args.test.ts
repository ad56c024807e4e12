import { describe, expect, it } from "vitest";
import { percentile, slowestRequests } from "./bench-args";

describe("percentile", () => {
  it("is the value at or above the share of the sorted values", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    // With 100 values the p99 is the second-largest.
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([], 99)).toBe(0);
  });
});

describe("slowestRequests", () => {
  it("names the slowest requests by their number in the order sent, slowest first", () => {
    expect(slowestRequests([120, 335.4, 180, 282, 90], 3)).toBe("#2 335 ms, #4 282 ms, #3 180 ms");
  });

  it("lists every request when there are fewer than asked for", () => {
    expect(slowestRequests([10, 20], 4)).toBe("#2 20 ms, #1 10 ms");
    expect(slowestRequests([], 4)).toBe("");
  });
});
