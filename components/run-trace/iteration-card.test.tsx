/**
 * The iteration card renders a decision the way the trace page does: the wire event goes
 * through ingest's stored form (`toDecisionRow`) and back (`expandTrace`), then through
 * `prepareRunTrace`, exactly as the page's query and preparation do.
 */
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { prepareRunTrace } from "@/lib/dashboard/trace";
import type { DecisionRecord, OutcomeRecord } from "@/lib/dashboard/types";
import { expandTrace } from "@/lib/db/stored-trace";
import { toDecisionRow } from "@/lib/ingest/events";
import type { ToolCallOutcome, ToolRoutingDecision } from "@/lib/schemas/events";
import { runObserveExample } from "@/lib/selection/example";
import { decisionEvent, outcomeFor, stageRecord } from "@/lib/telemetry/events";
import { IterationCard } from "./iteration-card";

const HOSTILE_TOOL = '<b id="injected">bold</b>';

/** A json column's COPY text read back as PostgreSQL reads it: `\N` is NULL, `\\` a backslash. */
const fromCopyJson = (text: string): unknown =>
  text === "\\N" ? null : JSON.parse(text.replaceAll("\\\\", "\\"));

/** The decision as the trace page reads it back, joined to `outcome` when there is one. */
function stored(event: ToolRoutingDecision, outcome?: ToolCallOutcome): DecisionRecord {
  const row = toDecisionRow("acme", event);
  const [trace, warnings, intent] = row.documents.split("\t").map(fromCopyJson);
  const called = outcome?.called ?? [];
  return {
    id: 1,
    iteration: row.iteration,
    ts: row.ts,
    role: row.role,
    mode: row.mode,
    turnHopIndex: row.turn_hop_index,
    model: row.model,
    agent: row.agent,
    forcedChoice: row.forced_choice,
    configVersion: row.config_version,
    intent: intent as DecisionRecord["intent"],
    offered: row.offered,
    selected: row.selected,
    dropped: row.dropped,
    droppedTokens: row.dropped_tokens,
    reinstatements: row.reinstatements,
    emptyPaletteWarnings: row.empty_palette_warnings,
    stageErrors: row.stage_errors,
    trace: expandTrace(trace as Parameters<typeof expandTrace>[0], row.offered),
    warnings: warnings as DecisionRecord["warnings"],
    hasOutcome: outcome !== undefined,
    called,
    harmfulTools: called.filter((name) => row.dropped.includes(name)),
  };
}

function outcomeRecord(outcome: ToolCallOutcome): OutcomeRecord {
  return {
    iteration: outcome.iteration,
    ts: outcome.timestamp,
    role: outcome.role,
    called: outcome.called,
    error: outcome.error ?? null,
    joined: true,
  };
}

function renderCard(event: ToolRoutingDecision, outcome?: ToolCallOutcome, open = true) {
  const [view] = prepareRunTrace([stored(event, outcome)], outcome ? [outcomeRecord(outcome)] : []);
  if (!view) throw new Error("prepareRunTrace returned no iteration");
  return render(
    <ol>
      <IterationCard view={view} open={open} />
    </ol>,
  );
}

const cardOf = (container: HTMLElement) => {
  const card = container.querySelector("ol > li");
  if (!card) throw new Error("no card rendered");
  return card;
};

const summaryOf = (container: HTMLElement) => {
  const summary = container.querySelector("summary");
  if (!summary) throw new Error("the card has no summary");
  return summary;
};

/** The stage table's row of `stage`: [action, size, kept, dropped, added, reinstated, detail]. */
function stageRow(stage: string) {
  const header = screen.getByRole("rowheader", { name: stage });
  const row = header.closest("tr");
  if (!row) throw new Error(`no row for stage ${stage}`);
  return {
    row,
    cells: within(row)
      .getAllByRole("cell")
      .map((cell) => cell.textContent),
  };
}

const section = (heading: RegExp | string) => {
  const title = screen.getByRole("heading", { level: 4, name: heading });
  const parent = title.parentElement;
  if (!parent) throw new Error("heading without a section");
  return parent;
};

describe("IterationCard, a decision of the selection core in observe mode", () => {
  async function observed() {
    const { event } = await runObserveExample();
    if (!event) throw new Error("the selection core reported no decision");
    // The model called a tool the narrowing dropped: what enforce would have broken.
    const outcome = outcomeFor(event, ["search_orders", "refund_order"]);
    return { event, outcome };
  }

  it("sums the iteration up in one line, with the harmful drop as its only issue", async () => {
    const { event, outcome } = await observed();
    const { container } = renderCard(event, outcome);
    const item = cardOf(container);
    expect(item.id).toBe("iteration-0");
    expect(item.className).toBe("iteration has-issues");
    const summary = summaryOf(container);
    expect(summary.textContent).toContain("#0");
    expect(summary.textContent).toContain("support");
    expect(summary.textContent).toContain("observe");
    expect(summary.textContent).toContain("hop 0");
    expect(summary.textContent).toContain("4 → 2 tools");
    const badges = [...summary.querySelectorAll(".badge")].map((badge) => badge.textContent);
    expect(badges).toEqual(["harmful drop"]);
  });

  it("is open or closed as asked", async () => {
    const { event, outcome } = await observed();
    const open = renderCard(event, outcome, true).container.querySelector("details");
    expect(open?.open).toBe(true);
    const closed = renderCard(event, outcome, false).container.querySelector("details");
    expect(closed?.open).toBe(false);
  });

  it("shows the decision's meta data", async () => {
    const { event, outcome } = await observed();
    renderCard(event, outcome);
    const meta = Object.fromEntries(
      screen.getAllByRole("term").map((term) => [term.textContent, term.nextElementSibling]),
    );
    expect(meta.Model?.textContent).toBe("not reported");
    expect(meta.Agent?.textContent).toBe("not reported");
    expect(meta["Forced choice"]?.textContent).toBe("none");
    expect(meta.Intent?.textContent).toBe("action");
    expect(meta["Dropped tokens (est.)"]?.textContent).toBe(String(event.dropped_tokens));
    expect(meta["Config version"]?.textContent).toBe(event.config_version);
    expect(meta.Time?.querySelector("time")?.getAttribute("datetime")).toBe(event.timestamp);
  });

  it("lists each stage with what it kept, dropped and added, and the palette size", async () => {
    const { event, outcome } = await observed();
    renderCard(event, outcome);
    const stageNames = screen.getAllByRole("rowheader").map((header) => header.textContent);
    expect(stageNames).toEqual([
      "intent_routing",
      "lazy_routing",
      "forced_choice",
      "role_palette",
      "policy",
      "allowlist",
    ]);
    expect(stageRow("intent_routing").cells).toEqual([
      "select",
      "4 → 2",
      "hydrate_context, search_orders",
      "refund_order, delete_account",
      "none",
      "none",
      "action turn: keyword intersection",
    ]);
    expect(stageRow("role_palette").cells.slice(1, 4)).toEqual([
      "2 → 1",
      "search_orders",
      "hydrate_context",
    ]);
    expect(stageRow("allowlist").cells.slice(1, 5)).toEqual([
      "1 → 2",
      "search_orders",
      "none",
      "hydrate_context",
    ]);
    // No stage failed or put anything back: no row is marked.
    expect(stageRow("intent_routing").row.className).toBe("");

    const waterfall = screen.getByRole("list", { name: "Palette size after each stage" });
    expect(
      within(waterfall)
        .getAllByRole("listitem")
        .map((step) => step.textContent),
    ).toEqual([
      "offered4",
      "intent_routing2 (−2)",
      "lazy_routing (abstain)2",
      "forced_choice (abstain)2",
      "role_palette1 (−1)",
      "policy1",
      "allowlist2 (+1)",
      "selected2",
    ]);
  });

  it("says observe mode offered every tool, and lists offered, selected and dropped", async () => {
    const { event, outcome } = await observed();
    renderCard(event, outcome);
    expect(
      screen.getByText(/^Observe mode: the model was offered all 4 tools/).textContent,
    ).toContain("“selected” is what enforce would have bound.");
    expect(section("Offered (4)").textContent).toBe(
      "Offered (4)hydrate_context, search_orders, refund_order, delete_account",
    );
    expect(section("Selected (2)").textContent).toBe("Selected (2)hydrate_context, search_orders");
    expect(section("Dropped (2)").textContent).toBe("Dropped (2)refund_order, delete_account");
  });

  it("flags the called tool that the narrowing had dropped", async () => {
    const { event, outcome } = await observed();
    renderCard(event, outcome);
    const called = within(section("Tools the model called")).getAllByRole("listitem");
    expect(called.map((item) => item.textContent)).toEqual([
      "search_orders",
      "refund_orderharmful drop: refund_order",
    ]);
    expect(called[1]?.querySelector("code")?.className).toBe("tool tool-harmful");
    expect(called[0]?.querySelector("code")?.className).toBe("tool tool-called");
  });

  it("says so when no outcome was reported, and then flags nothing", async () => {
    const { event } = await observed();
    const { container } = renderCard(event);
    expect(
      within(section("Tools the model called")).getByText(
        "No tool_call_outcome reported for this iteration.",
      ),
    ).toBeTruthy();
    expect(summaryOf(container).querySelectorAll(".badge")).toHaveLength(0);
    expect(cardOf(container).className).toBe("iteration");
  });
});

describe("IterationCard, an enforce decision with warnings", () => {
  const offered = ["search_docs", "hydrate_context", "create_ticket", "send_email", HOSTILE_TOOL];
  const event = decisionEvent({
    run_id: "run-warnings",
    iteration: 3,
    turn_hop_index: 2,
    timestamp: "2026-03-02T07:12:00.000Z",
    mode: "enforce",
    model: "model-x",
    agent: "support-bot",
    offered,
    selected: ["search_docs", "create_ticket"],
    forced_choice: "create_ticket",
    dropped_tokens: 12_345,
    trace: [
      stageRecord({
        stage: "lazy_routing",
        action: "abstain",
        kept: offered,
        detail: "nothing resolved",
      }),
      stageRecord({
        stage: "role_palette",
        action: "select",
        kept: ["search_docs"],
        dropped: ["hydrate_context", "create_ticket", "send_email", HOSTILE_TOOL],
        reinstated: ["create_ticket"],
        forced_choice: "create_ticket",
        detail: "action palette",
      }),
      stageRecord({ stage: "policy", action: "error", kept: ["search_docs", "create_ticket"] }),
    ],
    warnings: [
      {
        code: "forced_reinstated",
        stage: "role_palette",
        detail: "forced tool create_ticket was put back",
      },
      { code: "empty_palette", stage: "lazy_routing" },
      { code: "stage_error", stage: "policy", detail: "policy service timed out" },
    ],
  });
  const outcome = outcomeFor(event, ["create_ticket", "lookup_order"], {
    error: "tool create_ticket failed",
  });

  it("shows every issue as a badge but no harmful drop", () => {
    const { container } = renderCard(event, outcome);
    const summary = summaryOf(container);
    expect(summary.textContent).toContain("#3");
    expect(summary.textContent).toContain("enforce");
    expect(summary.textContent).toContain("hop 2");
    expect(summary.textContent).toContain("5 → 2 tools");
    expect([...summary.querySelectorAll(".badge")].map((badge) => badge.textContent)).toEqual([
      "reinstatement",
      "empty palette",
      "stage error",
    ]);
  });

  it("shows only the badge of the issue there is", () => {
    const emptyOnly = decisionEvent({ warnings: [{ code: "empty_palette", stage: "intent" }] });
    const { container } = renderCard(emptyOnly);
    const badges = [...summaryOf(container).querySelectorAll(".badge")];
    expect(badges.map((badge) => badge.textContent)).toEqual(["empty palette"]);
  });

  it("lists the warnings with their stage and detail", () => {
    renderCard(event, outcome);
    const warnings = within(screen.getByRole("list", { name: "Warnings" })).getAllByRole(
      "listitem",
    );
    expect(warnings.map((item) => item.textContent)).toEqual([
      "Forced tool reinstated in role_palette: forced tool create_ticket was put back",
      "Empty palette in lazy_routing",
      "Stage error in policy: policy service timed out",
    ]);
    expect(warnings.map((item) => item.className)).toEqual([
      "warning warning-forced_reinstated",
      "warning warning-empty_palette",
      "warning warning-stage_error",
    ]);
  });

  it("marks the reinstating and the failed stage, and names what was put back", () => {
    renderCard(event, outcome);
    const palette = stageRow("role_palette");
    expect(palette.row.className).toBe("row-warn");
    expect(palette.cells).toEqual([
      "select",
      "5 → 2",
      "search_docs",
      `hydrate_context, create_ticket, send_email, ${HOSTILE_TOOL}`,
      "none",
      "create_ticketreinstated: create_ticket",
      "action paletteforced: create_ticket",
    ]);
    const policy = stageRow("policy");
    expect(policy.row.className).toBe("row-error");
    expect(policy.cells[0]).toBe("error");
    // A stage with a warning of its own (here the empty palette) is marked too.
    expect(stageRow("lazy_routing").row.className).toBe("row-warn");
  });

  it("renders agent-sent tool names as text, never as markup", () => {
    const { container } = renderCard(event, outcome);
    expect(container.querySelector("#injected")).toBeNull();
    expect(section("Dropped (3)").textContent).toContain(HOSTILE_TOOL);
  });

  it("shows the meta data, the outcome's error and a called tool that was not offered", () => {
    renderCard(event, outcome);
    const meta = Object.fromEntries(
      screen.getAllByRole("term").map((term) => [term.textContent, term.nextElementSibling]),
    );
    expect(meta.Model?.textContent).toBe("model-x");
    expect(meta.Agent?.textContent).toBe("support-bot");
    expect(meta["Forced choice"]?.textContent).toBe("create_ticket");
    expect(meta["Dropped tokens (est.)"]?.textContent).toBe("12,345");
    const calls = section("Tools the model called");
    expect(
      within(calls)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["create_ticket", "lookup_ordernot offered"]);
    expect(within(calls).getByText("Outcome error: tool create_ticket failed")).toBeTruthy();
    // Enforce mode: the model saw only the selected tools, so there is no observe note.
    expect(screen.queryByText(/^Observe mode/)).toBeNull();
  });

  it("says when the trace is empty or cannot be read", () => {
    const empty = stored(decisionEvent({ trace: [] }));
    const unreadable = { ...stored(decisionEvent()), trace: ["not a record"] };
    const views = prepareRunTrace([empty, { ...unreadable, iteration: 1 }], []);
    render(
      <ol>
        {views.map((view) => (
          <IterationCard key={view.key} view={view} open />
        ))}
      </ol>,
    );
    expect(screen.getAllByText("The decision carried no stage records.")).toHaveLength(2);
    expect(screen.getAllByText("Part of this decision's trace could not be read.")).toHaveLength(1);
  });
});

describe("IterationCard for a call of an agent that routes nothing (mode off)", () => {
  const offered = ["search_docs", "create_ticket", "escalate", "refund_order", "lookup_order"];
  function offCall(called: string[] | null) {
    const event = decisionEvent({ mode: "observe", offered, selected: offered, trace: [] });
    const outcome = called === null ? undefined : outcomeFor(event, called);
    return { ...stored(event, outcome), id: 9, mode: "off" };
  }

  it("says what was offered and called, lists the tool runs, and has no stage table", () => {
    const [view] = prepareRunTrace(
      [offCall(["search_docs"])],
      [],
      new Map([
        [
          9,
          [
            {
              key: "t:1",
              name: "search_docs",
              named: true,
              durationMs: 42.5,
              error: null,
              joinedBy: "call_id" as const,
            },
            {
              key: "t:2",
              name: "ai.toolCall",
              named: false,
              durationMs: 1500,
              error: "rate limited",
              joinedBy: "time" as const,
            },
          ],
        ],
      ]),
    );
    if (!view) throw new Error("no view");
    render(<IterationCard view={view} open />);
    expect(screen.getByTestId("unrouted-call").textContent).toBe(
      "Offered 5 tools, called search_docs",
    );
    const runs = screen.getByTestId("tool-runs");
    expect(within(runs).getByText("search_docs")).toBeTruthy();
    expect(within(runs).getByText("42.5 ms")).toBeTruthy();
    expect(within(runs).getByText("1.50 s")).toBeTruthy();
    expect(within(runs).getByText("rate limited")).toBeTruthy();
    expect(screen.queryByText("Stages")).toBeNull();
    expect(screen.queryByText(/Palette size/)).toBeNull();
    expect(screen.getByText("5 tools offered")).toBeTruthy();
  });

  it("says calls not recorded when the span recorded no output", () => {
    const [view] = prepareRunTrace([offCall(null)], []);
    if (!view) throw new Error("no view");
    render(<IterationCard view={view} open />);
    expect(screen.getByTestId("unrouted-call").textContent).toBe(
      "Offered 5 tools; calls not recorded",
    );
    expect(screen.queryByTestId("tool-runs")).toBeNull();
  });
});
