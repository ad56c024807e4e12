/**
 * The verdict panel drawing what `decideVerdict` makes of the rollout tests' designed data set
 * (`lib/rollouts/test-fixtures.ts`): observe traffic with 4 harmful drops in 60 outcomes.
 */
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { runsHref } from "@/lib/dashboard/url";
import { sumCohorts } from "@/lib/rollouts/cohorts";
import { DESIGNED_CELLS } from "@/lib/rollouts/test-fixtures";
import { type CohortSums, ZERO_COHORT_SUMS } from "@/lib/rollouts/types";
import { harmfulDropExampleHref, toolExamplesHref } from "@/lib/rollouts/url";
import { decideVerdict } from "@/lib/rollouts/verdict";
import { parseSearchParams, runsSearchSchema } from "@/lib/schemas/dashboard";
import { rolloutsSearchSchema } from "@/lib/schemas/rollouts";
import { type HarmfulToolLine, VerdictPanel } from "./verdict-panel";

const SEARCH = parseSearchParams(rolloutsSearchSchema, { tenant: "acme", range: "24h" });
const WINDOW = { from: new Date("2026-03-01T12:00:00Z"), to: new Date("2026-03-02T12:00:00Z") };
const RUNS_HREF = runsHref(parseSearchParams(runsSearchSchema, {}), {
  tenant: "acme",
  mode: "observe",
  harmful: true,
});
const LONG_RUN = "run-with-a-rather-long-identifier-0001";

const HARMFUL_TOOLS: HarmfulToolLine[] = [
  {
    tool: "refund_order",
    harmfulDrops: 3,
    lastHarmfulHour: new Date("2026-03-02T07:00:00Z"),
    examples: [
      { tool: "refund_order", tenantId: "acme", runId: "run-1", iteration: 4, ts: "x" },
      { tool: "refund_order", tenantId: "acme", runId: LONG_RUN, iteration: 0, ts: "x" },
    ],
    moreHref: toolExamplesHref(SEARCH, WINDOW, "refund_order", "observe"),
  },
  {
    tool: "escalate_to_human",
    harmfulDrops: 1,
    lastHarmfulHour: new Date("2026-03-02T07:00:00Z"),
    examples: [
      { tool: "escalate_to_human", tenantId: "acme", runId: "run-2", iteration: 1, ts: "x" },
    ],
    moreHref: toolExamplesHref(SEARCH, WINDOW, "escalate_to_human", "observe"),
  },
];

function renderVerdict(observe: CohortSums, threshold: number, tools: HarmfulToolLine[] = []) {
  return render(
    <VerdictPanel
      verdict={decideVerdict(observe, threshold)}
      scope="tenant acme, all roles"
      tools={tools}
      runsHref={RUNS_HREF}
    />,
  );
}

const panel = () => screen.getByRole("region", { name: /./ });
const byTestId = (id: string) => {
  const element = panel().querySelector(`[data-testid="${id}"]`);
  if (!element) throw new Error(`no element with test id ${id}`);
  return element;
};
const checks = () =>
  within(screen.getByRole("list", { name: "Checks" }))
    .getAllByRole("listitem")
    .map((item) => ({
      mark: within(item).getByRole("img").getAttribute("aria-label"),
      text: item.textContent,
    }));

describe("VerdictPanel", () => {
  it("answers 'not safe' for the designed observe traffic, with rate, interval and checks", () => {
    renderVerdict(
      sumCohorts(DESIGNED_CELLS, (cell) => cell.mode === "observe"),
      1,
    );
    const region = panel();
    expect(region.getAttribute("data-status")).toBe("harmful");
    expect(within(region).getByRole("heading", { level: 2 }).textContent).toBe(
      "Not safe to enforce: enforce would have broken calls",
    );
    expect(
      within(region).getByText("Verdict on observe traffic of tenant acme, all roles"),
    ).toBeTruthy();
    expect(byTestId("verdict-rate").textContent).toBe("6.67%");
    expect(byTestId("verdict-interval").textContent).toBe("[2.62%, 15.93%]");
    expect(byTestId("verdict-threshold").textContent).toBe("1.00%");
    expect(byTestId("verdict-minimum").textContent).toBe("381 outcomes");
    expect(checks()).toEqual([
      {
        mark: "failed",
        text: "✗60 observe decisions with a reported outcome; 381 are needed before a 1.00% threshold can be confirmed (321 more).",
      },
      {
        mark: "failed",
        text: "✗Harmful-drop rate 6.67% (4 of 60); its 95% upper bound 15.93% is not below the 1.00% threshold.",
      },
    ]);
    const coverage = within(region).getByText(
      "Observe decisions with an outcome",
    ).nextElementSibling;
    expect(coverage?.textContent).toBe("60 of 60 (100.00%)");
    // Every observe decision reported an outcome: no caveat about a biased subset.
    expect(within(region).queryByText(/biased subset/)).toBeNull();
  });

  it("lists the tools enforce would have withheld, each with example runs and all examples", () => {
    renderVerdict(
      sumCohorts(DESIGNED_CELLS, (cell) => cell.mode === "observe"),
      1,
      HARMFUL_TOOLS,
    );
    const list = byTestId("harmful-tools") as HTMLElement;
    expect(within(list).getByRole("heading", { level: 3 }).textContent).toBe(
      "Tools enforce would have withheld from calls the model made",
    );
    const lines = within(list).getAllByRole("listitem");
    expect(lines.map((line) => line.getAttribute("data-tool"))).toEqual([
      "refund_order",
      "escalate_to_human",
    ]);
    expect(lines[0]?.textContent).toMatch(/^refund_order: 3 harmful drops/);
    expect(lines[1]?.textContent).toMatch(/^escalate_to_human: 1 harmful drop(?!s)/);

    const refundLinks = within(lines[0] as HTMLElement).getAllByRole("link");
    expect(refundLinks.map((link) => [link.textContent, link.getAttribute("href")])).toEqual([
      [
        "run-1 #4",
        harmfulDropExampleHref({
          tool: "",
          tenantId: "acme",
          runId: "run-1",
          iteration: 4,
          ts: "",
        }),
      ],
      [
        // A long run id is cut to 24 characters; the title keeps all of it.
        "run-with-a-rather-long-i… #0",
        harmfulDropExampleHref({
          tool: "",
          tenantId: "acme",
          runId: LONG_RUN,
          iteration: 0,
          ts: "",
        }),
      ],
      ["all examples", HARMFUL_TOOLS[0]?.moreHref],
    ]);
    expect(refundLinks[1]?.getAttribute("title")).toBe(`Run ${LONG_RUN}, iteration 0`);
    expect(refundLinks[0]?.getAttribute("href")).toBe(
      "/runs/run-1?tenant=acme&issues=1#iteration-4",
    );

    const runs = within(list).getByRole("link", { name: "Runs with harmful drops" });
    expect(runs.getAttribute("href")).toBe(RUNS_HREF);
    expect(RUNS_HREF).toBe("/runs?tenant=acme&mode=observe&harmful=1");
  });

  it("answers 'safe' when the sample is large enough and the upper bound is under the threshold", () => {
    renderVerdict({ ...ZERO_COHORT_SUMS, decisions: 500, outcomes: 400 }, 1);
    expect(panel().getAttribute("data-status")).toBe("safe");
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("Safe to enforce");
    expect(byTestId("verdict-rate").textContent).toBe("0.00%");
    expect(byTestId("verdict-interval").textContent).toBe("[0.00%, 0.95%]");
    expect(checks().map((check) => check.mark)).toEqual(["passed", "passed"]);
    expect(checks()[0]?.text).toBe(
      "✓400 observe decisions with a reported outcome, at least the 381 needed.",
    );
    // 400 of 500 decisions reported an outcome: the rate only speaks for those.
    expect(screen.getByText(/biased subset/).textContent).toContain(
      "Only decisions that reported a tool_call_outcome count",
    );
    expect(panel().querySelector('[data-testid="harmful-tools"]')).toBeNull();
  });

  it("answers 'not enough samples' for a clean but small sample, naming how many more", () => {
    renderVerdict({ ...ZERO_COHORT_SUMS, decisions: 400, outcomes: 400 }, 0.5);
    expect(panel().getAttribute("data-status")).toBe("insufficient");
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("Not enough samples yet");
    expect(byTestId("verdict-minimum").textContent).toBe("765 outcomes");
    expect(checks()).toEqual([
      {
        mark: "failed",
        text: "✗400 observe decisions with a reported outcome; 765 are needed before a 0.50% threshold can be confirmed (365 more).",
      },
      {
        mark: "failed",
        text: "✗Harmful-drop rate 0.00% (0 of 400); its 95% upper bound 0.95% is not below the 0.50% threshold.",
      },
    ]);
  });

  it("says it cannot tell without outcomes, and shows no figures it does not have", () => {
    renderVerdict({ ...ZERO_COHORT_SUMS, decisions: 25 }, 1);
    expect(panel().getAttribute("data-status")).toBe("no-outcomes");
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe(
      "Cannot tell yet: no tool_call_outcome events for observe decisions",
    );
    expect(byTestId("verdict-rate").textContent).toBe("—");
    expect(byTestId("verdict-interval").textContent).toBe("—");
    expect(checks()[1]?.text).toBe(
      "✗No harmful-drop rate: no observe decision has a reported outcome.",
    );

    renderVerdict(ZERO_COHORT_SUMS, 1);
    expect(screen.getAllByRole("heading", { level: 2 })[1]?.textContent).toBe(
      "No observe traffic in this window",
    );
  });
});
