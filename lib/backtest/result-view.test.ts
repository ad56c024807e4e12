import { describe, expect, it } from "vitest";
import {
  backtestVerdict,
  compareArms,
  describeEnding,
  prepareBacktestRows,
  prepareNotes,
  prepareRoleRows,
  prepareState,
  prepareTokenSources,
  prepareToolRows,
  toolSummaryText,
} from "./result-view";
import {
  type ArmSums,
  BACKTEST_NOTES,
  type BacktestNoteCounts,
  type BacktestSummary,
  type BacktestToolSums,
} from "./types";

const ZERO: ArmSums = {
  decisions: 0,
  outcomes: 0,
  harmfulDecisions: 0,
  harmfulDrops: 0,
  boundTools: 0,
  tokensSaved: 0,
  emptyPalettes: 0,
  reinstatements: 0,
  forcedUnavailable: 0,
  stageErrors: 0,
  differFromRecorded: 0,
};

const recorded: ArmSums = {
  ...ZERO,
  decisions: 100,
  outcomes: 60,
  boundTools: 500,
  tokensSaved: 2_000,
};
const candidate: ArmSums = {
  ...ZERO,
  decisions: 100,
  outcomes: 60,
  harmfulDecisions: 4,
  harmfulDrops: 5,
  boundTools: 300,
  tokensSaved: 6_050,
  emptyPalettes: 2,
  reinstatements: 3,
  differFromRecorded: 40,
};

function tool(name: string, called: number, lost: number, bound = 10): BacktestToolSums {
  return {
    tool: name,
    offered: 100,
    called,
    recorded: { bound: 100, harmful: 0 },
    candidate: { bound, harmful: lost },
    baseline: null,
    examples: lost
      ? [
          {
            tenantId: "acme",
            runId: `run-${name}`,
            iteration: 3,
            ts: "2026-01-01T00:00:00Z",
            role: "action",
          },
        ]
      : [],
  };
}

describe("the candidate's verdict", () => {
  it("follows the rollouts rule in the backtest's words", () => {
    const verdict = backtestVerdict(candidate, 1);
    expect(verdict.status).toBe("harmful");
    expect(verdict.headline).toBe("Not safe to enforce: this config would have broken calls");
    expect(verdict.display.rate).toBe("6.67%");
    expect(verdict.display.interval).toBe("[2.62%, 15.93%]");
    expect(verdict.checks[0]?.text).toBe(
      "60 replayed decisions with a reported outcome; 381 are needed before a 1.00% threshold can be confirmed (321 more).",
    );
    expect(backtestVerdict(ZERO, 1).headline).toBe("No recorded decisions in this window");
  });
});

describe("state and progress", () => {
  it("counts decisions replayed of the estimate while running", () => {
    const view = prepareState("running", { replayed: 1_234, estimatedTotal: 5_000 });
    expect(view.progressText).toBe("1,234 of about 5,000 decisions replayed (24%)");
    expect(view.percent).toBe(24);
    expect(view.active).toBe(true);
    expect(view.cancellable).toBe(true);
  });

  it("stops refreshing and offers no cancel once finished", () => {
    const done = prepareState("done", { replayed: 5_100, estimatedTotal: 5_000 });
    expect(done.active).toBe(false);
    expect(done.cancellable).toBe(false);
    expect(done.percent).toBe(100);
    expect(prepareState("cancelling", { replayed: 1, estimatedTotal: 2 }).cancellable).toBe(false);
  });

  it("says what failed and cancelled backtests mean and what to do", () => {
    const failed = describeEnding("failed", { replayed: 0, estimatedTotal: 0 }, "boom");
    expect(failed?.text).toContain("The job stopped with: boom.");
    expect(failed?.text).toContain("Run it again");
    const cancelled = describeEnding("cancelled", { replayed: 2_500, estimatedTotal: 9_000 }, null);
    expect(cancelled?.text).toContain("after 2,500 replayed decisions");
    expect(describeEnding("done", { replayed: 1, estimatedTotal: 1 }, null)).toBeNull();
  });
});

describe("compareArms", () => {
  it("puts each arm's figures and the candidate's differences side by side", () => {
    const rows = compareArms({ recorded, candidate, baseline: null });
    const byKey = Object.fromEntries(rows.map((row) => [row.key, row]));
    expect(byKey.harmfulDropRate?.candidate).toEqual({
      value: "6.67%",
      detail: "4 / 60 · [2.62%, 15.93%]",
    });
    expect(byKey.harmfulDropRate?.recorded.value).toBe("0.00%");
    expect(byKey.harmfulDropRate?.vsRecorded).toBe("+6.67 pp");
    expect(byKey.tokensSavedPerDecision?.candidate.value).toBe("60.5");
    expect(byKey.tokensSavedPerDecision?.vsRecorded).toBe("+40.5");
    expect(byKey.tokensSaved?.vsRecorded).toBe("+4,050");
    expect(byKey.toolsBound?.vsRecorded).toBe("−2.00");
    expect(byKey.emptyPalettes?.candidate).toEqual({ value: "2", detail: "2.00% of decisions" });
    expect(byKey.reinstatements?.vsRecorded).toBe("+3");
    expect(rows.every((row) => row.baseline === null && row.vsBaseline === null)).toBe(true);
  });
});

describe("per role", () => {
  it("lists roles in order with the candidate's verdict for each", () => {
    const rows = prepareRoleRows(
      {
        reasoning: { recorded: ZERO, candidate: ZERO, baseline: null },
        action: { recorded, candidate, baseline: null },
      },
      1,
    );
    expect(rows.map((row) => row.role)).toEqual(["action", "reasoning"]);
    expect(rows[0]?.candidateRate.value).toBe("6.67%");
    expect(rows[0]?.candidateTokensPerDecision).toBe("60.5");
    expect(rows[0]?.verdict.status).toBe("harmful");
  });
});

describe("per tool", () => {
  const tools = [tool("search_docs", 80, 0, 100), tool("send_email", 37, 12), tool("refund", 5, 5)];
  const sizes = [
    { tool: "send_email", tokens: 120, source: "otlp" as const },
    { tool: "refund", tokens: 0, source: "unknown" as const },
  ];
  const href = (example: { runId: string; iteration: number }) =>
    `/runs/${example.runId}#${example.iteration}`;

  it("puts the costliest harms first and says what would be lost", () => {
    const rows = prepareToolRows({ tools, toolSizes: sizes }, href, "candidateHarmful");
    expect(rows.map((row) => row.tool)).toEqual(["send_email", "refund", "search_docs"]);
    const [first, , last] = rows;
    if (!first || !last) throw new Error("three rows expected");
    expect(toolSummaryText(first.summary)).toBe(
      "would drop send_email, which the model called 37 times (12 of those calls lost)",
    );
    expect(toolSummaryText(last.summary)).toBe(
      "keeps search_docs whenever the model called it (80 times)",
    );
    expect(rows[0]?.tokens).toBe(120);
    expect(rows[1]?.tokens).toBeNull();
    expect(rows[0]?.examples[0]?.href).toBe("/runs/run-send_email#3");
  });

  it("sorts by any column, either way", () => {
    const byName = prepareToolRows({ tools, toolSizes: sizes }, href, "tool");
    expect(byName.map((row) => row.tool)).toEqual(["refund", "search_docs", "send_email"]);
    const byCalledAsc = prepareToolRows({ tools, toolSizes: sizes }, href, "called", "asc");
    expect(byCalledAsc.map((row) => row.tool)).toEqual(["refund", "send_email", "search_docs"]);
  });
});

describe("notes and token sources", () => {
  it("states each reason that happened, with its count, in plain words", () => {
    const counts = Object.fromEntries(
      BACKTEST_NOTES.map((note) => [note, 0]),
    ) as BacktestNoteCounts;
    counts["no-outcome"] = 40;
    counts["recorded-intent-verdict"] = 1;
    const lines = prepareNotes(counts);
    expect(lines.map((line) => line.note)).toEqual(["no-outcome", "recorded-intent-verdict"]);
    expect(lines[0]?.text).toMatch(/^40 decisions have no tool_call_outcome/);
    expect(lines[1]?.text).toMatch(/^1 decision had an "action" intent verdict/);
    expect(lines[1]?.text).toContain("message text, which is not recorded");
  });

  it("counts the tools behind each estimate", () => {
    const lines = prepareTokenSources([
      { tool: "a", tokens: 3, source: "otlp" },
      { tool: "b", tokens: 4, source: "otlp" },
      { tool: "c", tokens: 0, source: "unknown" },
    ]);
    expect(lines.map((line) => [line.source, line.tools])).toEqual([
      ["otlp", 2],
      ["unknown", 1],
    ]);
    expect(lines[1]?.text).toContain("counted as 0 tokens");
  });
});

describe("the list", () => {
  it("shows the verdict of done backtests only", () => {
    const base: BacktestSummary = {
      id: "b1",
      tenantId: "acme",
      roles: [],
      from: new Date("2026-01-01T00:00:00Z"),
      to: new Date("2026-01-02T00:00:00Z"),
      candidateVersion: "0123456789abcdef",
      baselineVersion: null,
      thresholdPercent: 1,
      state: "done",
      progress: { replayed: 100, estimatedTotal: 100 },
      error: null,
      createdBy: { id: "u", email: "ops@example.test" },
      createdAt: new Date("2026-01-02T00:00:00Z"),
      startedAt: null,
      finishedAt: null,
    };
    const rows = prepareBacktestRows(
      [base, { ...base, id: "b2", state: "running", roles: ["action", "reflection"] }],
      new Map([
        ["b1", candidate],
        ["b2", candidate],
      ]),
      (id) => `/backtests/${id}`,
    );
    expect(rows[0]?.verdict?.status).toBe("harmful");
    expect(rows[0]?.roles).toBe("all roles");
    expect(rows[0]?.candidate).toBe("0123456789ab");
    expect(rows[1]?.verdict).toBeNull();
    expect(rows[1]?.roles).toBe("action, reflection");
  });
});
