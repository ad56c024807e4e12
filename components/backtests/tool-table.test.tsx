/**
 * The per-tool table of a backtest drawing what `prepareToolRows` makes of a designed result:
 * the costliest harm first, in words ("would drop `send_email`, which the model called 37
 * times"), sort links, and example runs that open the run trace with the replay.
 */
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { armLabels, prepareToolRows } from "@/lib/backtest/result-view";
import type { BacktestToolSums } from "@/lib/backtest/types";
import { backtestExampleHref, backtestHref } from "@/lib/backtest/url";
import { sortLinks } from "@/lib/dashboard/url";
import { BACKTEST_TOOL_SORT_KEYS } from "@/lib/schemas/backtest-pages";
import { ToolTable } from "./result-tables";

const ID = "6f1c3c2e-8a51-4bb5-9d0e-3f6a2b8c1d2e";

function tool(name: string, called: number, lost: number, examples = 0): BacktestToolSums {
  return {
    tool: name,
    offered: 100,
    called,
    recorded: { bound: 100, harmful: 0 },
    candidate: { bound: 100 - lost * 10, harmful: lost },
    baseline: null,
    examples: Array.from({ length: examples }, (_, i) => ({
      tenantId: "acme",
      runId: `run-${name}-${i}`,
      iteration: i,
      ts: "2026-01-01T00:00:00Z",
      role: "action",
    })),
  };
}

describe("ToolTable", () => {
  const result = {
    tools: [
      tool("search_docs", 80, 0),
      tool("send_email", 37, 12, 2),
      tool("refund_order", 5, 5, 1),
    ],
    toolSizes: [{ tool: "send_email", tokens: 120, source: "otlp" as const }],
  };
  const rows = prepareToolRows(
    result,
    (example) => backtestExampleHref(ID, example),
    "candidateHarmful",
  );
  const links = sortLinks(BACKTEST_TOOL_SORT_KEYS, { sort: "candidateHarmful", dir: "desc" }, (c) =>
    backtestHref(ID, c),
  );

  it("lists the costliest harm first, in words, with its example runs", () => {
    render(
      <ToolTable
        rows={rows}
        labels={armLabels({ candidateVersion: "abc", baselineVersion: null })}
        sort={{ id: "candidateHarmful", desc: true }}
        sortLinks={links}
      />,
    );
    const table = screen.getByTestId("backtest-tools");
    const body = within(table).getAllByRole("row").slice(1);
    expect(body.map((row) => row.querySelector("code")?.textContent)).toEqual([
      "send_email",
      "refund_order",
      "search_docs",
    ]);
    expect(body[0]?.textContent).toContain(
      "would drop send_email, which the model called 37 times",
    );
    expect(body[0]?.textContent).toContain("12 calls lost");
    expect(body[2]?.textContent).toContain(
      "keeps search_docs whenever the model called it (80 times)",
    );
    const examples = within(body[0] as HTMLElement).getAllByRole("link");
    expect(examples.map((link) => link.getAttribute("href"))).toEqual([
      `/runs/run-send_email-0?tenant=acme&backtest=${ID}&iteration=0#replay`,
      `/runs/run-send_email-1?tenant=acme&backtest=${ID}&iteration=1#replay`,
    ]);
    // No baseline: no baseline column.
    expect(within(table).queryByText("Lost, baseline")).toBeNull();
    const header = within(table).getByRole("columnheader", { name: /Lost, candidate/ });
    expect(header.getAttribute("aria-sort")).toBe("descending");
    expect(within(header).getByRole("link").getAttribute("href")).toBe(`/backtests/${ID}?dir=asc`);
  });
});
