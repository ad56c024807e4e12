import { describe, expect, it } from "vitest";
import { estimateDroppedTokens, estimateToolTokens } from "./dropped-tokens";

describe("estimateDroppedTokens", () => {
  it("floors per tool, not over the sum", () => {
    // (3 + 4) / 4 = 1.75 → 1 per tool; flooring the sum would give 3.
    const tool = { name: "abcd", description: "xyz" };
    expect(estimateDroppedTokens([tool, tool])).toBe(2);
  });

  it("counts description plus name, a quarter token per character", () => {
    expect(estimateDroppedTokens([{ name: "search", description: "Find orders by date." }])).toBe(
      Math.floor((20 + 6) / 4),
    );
  });

  it("counts missing names and descriptions as empty strings", () => {
    expect(estimateDroppedTokens([{ description: "12345678" }])).toBe(2);
    expect(estimateDroppedTokens([{ name: "12345678" }])).toBe(2);
    expect(estimateDroppedTokens([{}, { name: 42, description: null }])).toBe(0);
  });

  it("is 0 for nothing dropped", () => {
    expect(estimateDroppedTokens([])).toBe(0);
  });

  it("counts characters as code points, as a Python agent would", () => {
    expect(estimateDroppedTokens([{ name: "😀😀😀😀" }])).toBe(1);
  });
});

describe("estimateToolTokens", () => {
  it("is one tool's share of estimateDroppedTokens", () => {
    const tools = [
      { name: "search", description: "Find orders by date." },
      { name: "😀😀😀😀" },
      {},
    ];
    expect(tools.map(estimateToolTokens)).toEqual([6, 1, 0]);
    expect(estimateDroppedTokens(tools)).toBe(7);
  });
});
