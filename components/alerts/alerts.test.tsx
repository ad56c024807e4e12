/**
 * The alerts components drawing what the prepare functions make of stored rules and
 * transitions: the overview's firing panel, the marker list under the charts and the rules table.
 */
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { prepareAlertMarkers } from "@/lib/alerts/chart-markers";
import { prepareRuleView, prepareRuleViews, type RuleWithState } from "@/lib/alerts/rule-view";
import { AlertMarkerList } from "./alert-marker-list";
import { FiringAlerts } from "./firing-alerts";
import { RulesTable } from "./rules-table";

const NOW = new Date("2026-03-01T12:00:30Z");

function rule(overrides: Partial<RuleWithState> = {}): RuleWithState {
  return {
    id: "8f1c7a3e-7f57-4c2c-9a54-3f4e0c7a1b20",
    tenant: "acme",
    name: "Harmful drops in enforce",
    role: "support",
    mode: "enforce",
    metric: "harmful-drop-rate",
    windowMinutes: 15,
    comparison: "gt",
    threshold: 5,
    minSample: 0,
    mutedUntil: null,
    state: {
      state: "firing",
      lastValue: 7.25,
      lastSample: 312,
      belowMinSample: false,
      since: new Date("2026-03-01T11:42:00Z"),
      lastEvaluatedMinute: new Date("2026-03-01T11:59:00Z"),
    },
    ...overrides,
  };
}

describe("FiringAlerts", () => {
  it("names each firing rule with its value and links to the rule and to its runs", () => {
    render(<FiringAlerts rules={[prepareRuleView(rule(), NOW)]} />);
    const panel = screen.getByTestId("firing-alerts");
    expect(within(panel).getByRole("heading", { name: "1 alert firing" })).toBeTruthy();
    expect(panel.textContent).toContain(
      "harmful-drop rate above 5.0 % over 15 min; now 7.3 % over 312 outcomes",
    );
    expect(
      within(panel).getByRole("link", { name: "Harmful drops in enforce" }).getAttribute("href"),
    ).toBe("/alerts/8f1c7a3e-7f57-4c2c-9a54-3f4e0c7a1b20");
    const runs =
      within(panel).getByRole("link", { name: "Runs in the window" }).getAttribute("href") ?? "";
    expect(runs).toMatch(/^\/runs\?/);
    expect(new URLSearchParams(runs.split("?")[1]).get("harmful")).toBe("1");
    expect(within(panel).getByTestId("rule-state").getAttribute("data-state")).toBe("firing");
  });

  it("shows nothing while no rule fires", () => {
    const { container } = render(<FiringAlerts rules={[]} />);
    expect(container.innerHTML).toBe("");
  });
});

describe("AlertMarkerList", () => {
  it("lists transitions with their rules, and rules firing since before the window", () => {
    const alerts = prepareAlertMarkers(
      [
        {
          ruleId: "r1",
          ruleName: "Silence",
          kind: "firing",
          minute: new Date("2026-03-01T03:17:00Z"),
        },
        {
          ruleId: "r1",
          ruleName: "Silence",
          kind: "resolved",
          minute: new Date("2026-03-01T05:02:00Z"),
        },
        {
          ruleId: "r2",
          ruleName: "Empty palettes",
          kind: "firing",
          minute: new Date("2026-02-20T00:00:00Z"),
        },
      ],
      {
        from: new Date("2026-03-01T00:00:00Z"),
        to: new Date("2026-03-02T00:00:00Z"),
        granularity: "hour",
        bucketMs: 3_600_000,
      },
      NOW,
    );
    render(<AlertMarkerList alerts={alerts} />);
    const items = within(screen.getByTestId("alert-markers")).getAllByRole("listitem");
    expect(items.map((item) => item.getAttribute("data-kind"))).toEqual([
      "firing",
      "firing",
      "resolved",
    ]);
    expect(items[0]?.textContent).toBe("Empty palettes firing since before this window");
    expect(items[1]?.textContent).toContain("Silence firing");
    expect(
      within(items[2] as HTMLElement)
        .getByRole("link", { name: "Silence" })
        .getAttribute("href"),
    ).toBe("/alerts/r1");
  });
});

describe("RulesTable", () => {
  it("shows each rule's state and last value, firing first", () => {
    const ok = rule({
      id: "b2f0a8a4-0000-4000-8000-000000000001",
      name: "Quiet",
      mutedUntil: new Date("2026-03-01T13:00:00Z"),
    });
    if (ok.state) ok.state = { ...ok.state, state: "ok", lastValue: 0.4 };
    render(<RulesTable rows={prepareRuleViews([ok, rule()], NOW)} />);
    const rows = within(screen.getByTestId("rules-table")).getAllByRole("row").slice(1);
    expect(rows.map((row) => within(row).getAllByRole("link")[0]?.textContent)).toEqual([
      "Harmful drops in enforce",
      "Quiet",
    ]);
    expect(rows[0]?.textContent).toContain("firing since");
    expect(rows[1]?.textContent).toContain("ok since");
    expect(rows[1]?.textContent).toContain("muted until");
    expect(rows[1]?.textContent).toContain("0.4 % over 312 outcomes");
  });
});
