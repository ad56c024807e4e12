import { describe, expect, it } from "vitest";
import { latestToolSizes } from "./tool-sizes";

const at = (second: number) => new Date(Date.UTC(2026, 0, 31, 12, 0, second)).toISOString();

describe("latestToolSizes", () => {
  it("keeps the latest estimate per (tenant, tool), the larger one at an equal time", () => {
    const sizes = latestToolSizes([
      { tenant_id: "b", ts: at(5), tool_tokens: { search: 10 } },
      { tenant_id: "a", ts: at(9), tool_tokens: { search: 12, refund: 30 } },
      { tenant_id: "a", ts: at(3), tool_tokens: { search: 99 } },
      { tenant_id: "a", ts: at(9), tool_tokens: { refund: 31 } },
      { tenant_id: "a", ts: at(9), tool_tokens: { refund: 29 } },
      { tenant_id: "a", ts: at(10), tool_tokens: null },
    ]);
    expect(sizes).toEqual([
      { tenant: "a", tool: "refund", tokens: 31, seenAt: at(9) },
      { tenant: "a", tool: "search", tokens: 12, seenAt: at(9) },
      { tenant: "b", tool: "search", tokens: 10, seenAt: at(5) },
    ]);
  });

  it("gives the same rows whatever the order of the decisions", () => {
    const decisions: Parameters<typeof latestToolSizes>[0] = [
      { tenant_id: "a", ts: at(1), tool_tokens: { x: 1, y: 5 } },
      { tenant_id: "a", ts: at(2), tool_tokens: { x: 2 } },
      { tenant_id: "a", ts: at(2), tool_tokens: { x: 3, y: 4 } },
    ];
    expect(latestToolSizes([...decisions].reverse())).toEqual(latestToolSizes(decisions));
    expect(latestToolSizes([])).toEqual([]);
  });
});
