import { describe, expect, it } from "vitest";
import { decisionEvent } from "@/lib/telemetry/events";
import { toDecisionRow } from "./events";
import { aggregateDeltas, type JoinedDecision, truncateUtc } from "./rollups";

const row = (overrides: Parameters<typeof decisionEvent>[0]) =>
  toDecisionRow("acme", decisionEvent(overrides));

describe("truncateUtc", () => {
  it("truncates to the UTC minute and hour whatever the offset", () => {
    expect(truncateUtc("2026-03-01T10:59:59.999+05:30", 60_000)).toBe("2026-03-01T05:29:00.000Z");
    expect(truncateUtc("2026-03-01T10:59:59.999+05:30", 3_600_000)).toBe(
      "2026-03-01T05:00:00.000Z",
    );
  });
});

describe("aggregateDeltas", () => {
  const a = row({
    run_id: "r1",
    iteration: 0,
    timestamp: "2026-03-01T10:00:10Z",
    offered: ["x", "y", "z"],
    selected: ["x"],
    dropped_tokens: 10,
    warnings: [{ code: "empty_palette" }],
  });
  const b = row({
    run_id: "r1",
    iteration: 1,
    timestamp: "2026-03-01T10:00:50Z",
    offered: ["x", "y"],
    selected: ["x", "y"],
    dropped_tokens: 0,
    role: "reasoning",
  });
  const c = row({
    run_id: "r1",
    iteration: 2,
    timestamp: "2026-03-01T10:01:05Z",
    dropped_tokens: 4,
  });

  it("sums decisions per (tenant, role, mode, config, minute) and per hour", () => {
    const { minute, hour } = aggregateDeltas([a, b, c], []);
    expect(minute.map((r) => [r.role, r.bucket, r.decisions, r.dropped_tokens])).toEqual([
      ["action", "2026-03-01T10:00:00.000Z", 1, 10],
      ["reasoning", "2026-03-01T10:00:00.000Z", 1, 0],
      ["action", "2026-03-01T10:01:00.000Z", 1, 4],
    ]);
    const actionHour = hour.find((r) => r.role === "action");
    expect(actionHour).toMatchObject({
      decisions: 2,
      dropped_tokens: 14,
      dropped_tokens_sq: 116,
      offered_tools: 6,
      selected_tools: 4,
      selected_tools_sq: 10,
      empty_palette_warnings: 1,
      decisions_empty_palette: 1,
    });
  });

  it("shares a decision's dropped tokens evenly among the tools it dropped", () => {
    const { tools } = aggregateDeltas([a], []);
    expect(tools.map((t) => [t.tool, t.offered, t.selected, t.dropped, t.dropped_tokens])).toEqual([
      ["x", 1, 1, 0, 0],
      ["y", 1, 0, 1, 5],
      ["z", 1, 0, 1, 5],
    ]);
  });

  it("summarises runs with first/last seen, roles and modes", () => {
    const { runs } = aggregateDeltas([c, a, b], []);
    expect(runs).toEqual([
      expect.objectContaining({
        run_id: "r1",
        first_seen: "2026-03-01T10:00:10.000Z",
        last_seen: "2026-03-01T10:01:05.000Z",
        decisions: 3,
        max_iteration: 2,
        roles: ["action", "reasoning"],
        modes: ["observe"],
        dropped_tokens: 14,
        empty_palette_warnings: 1,
      }),
    ]);
  });

  it("attributes joined outcomes to the decision's bucket and counts harmful drops and zero calls", () => {
    const joined: JoinedDecision[] = [
      { ...a, ts: new Date(a.ts), called: ["y", "x"], harmful_tools: ["y"] },
      { ...c, ts: new Date(c.ts), called: [], harmful_tools: [] },
    ];
    const { minute, tools, runs } = aggregateDeltas([], joined);
    expect(
      minute.map((r) => [
        r.bucket,
        r.decisions,
        r.outcomes,
        r.harmful_decisions,
        r.harmful_drops,
        r.zero_call_outcomes,
      ]),
    ).toEqual([
      ["2026-03-01T10:00:00.000Z", 0, 1, 1, 1, 0],
      ["2026-03-01T10:01:00.000Z", 0, 1, 0, 0, 1],
    ]);
    expect(tools.find((t) => t.tool === "y")).toMatchObject({
      called: 1,
      harmful_drops: 1,
      offered: 0,
    });
    expect(runs[0]).toMatchObject({ decisions: 0, harmful_drops: 1 });
  });

  it("counts unused offers: tools in front of the model it did not call (offered in observe and off, selected in enforce)", () => {
    const base = {
      tenant_id: "t",
      run_id: "r",
      role: "planner",
      config_version: "",
      iteration: 0,
      ts: "2026-03-01T10:00:00.000Z",
      harmful_tools: [],
      offered: ["a", "b", "c", "c"],
      selected: ["a"],
    };
    const joined: JoinedDecision[] = [
      { ...base, mode: "observe", called: ["a"] },
      { ...base, mode: "off", called: ["b", "b"] },
      { ...base, mode: "enforce", called: [] },
      { ...base, mode: "enforce", called: ["a"] },
    ];
    const unused = (mode: string) =>
      Object.fromEntries(
        aggregateDeltas([], joined)
          .tools.filter((t) => t.mode === mode)
          .map((t) => [t.tool, t.unused_offers]),
      );
    expect(unused("observe")).toEqual({ a: 0, b: 1, c: 1 });
    expect(unused("off")).toEqual({ a: 1, b: 0, c: 1 });
    // In enforce only "a" was in front of the model: unused once (the call with no calls).
    expect(unused("enforce")).toEqual({ a: 1 });
  });
});

describe("toolDays", () => {
  it("sums the hourly per-tool rows per UTC day", () => {
    const at = (timestamp: string, offered: string[], iteration: number) =>
      row({ run_id: "days", iteration, timestamp, offered, selected: offered.slice(0, 1) });
    const decisions = [
      at("2026-03-01T00:10:00Z", ["x", "y"], 0),
      at("2026-03-01T23:59:59.999Z", ["x"], 1),
      at("2026-03-02T01:00:00+05:30", ["x", "z"], 2), // 2026-03-01T19:30Z
      at("2026-03-02T00:00:00Z", ["x"], 3),
    ];
    const { tools, toolDays } = aggregateDeltas(decisions, []);
    expect(tools.filter((t) => t.tool === "x")).toHaveLength(4);
    const days = toolDays
      .map((t) => [t.bucket, t.tool, t.offered, t.selected])
      .sort((p, q) => String(p).localeCompare(String(q)));
    expect(days).toEqual([
      ["2026-03-01T00:00:00.000Z", "x", 3, 3],
      ["2026-03-01T00:00:00.000Z", "y", 1, 0],
      ["2026-03-01T00:00:00.000Z", "z", 1, 0],
      ["2026-03-02T00:00:00.000Z", "x", 1, 1],
    ]);
    // Every measure of the hours adds up to the days'.
    const total = (rows: typeof tools) =>
      rows.reduce((sum, t) => sum + t.offered + t.selected + t.dropped + t.dropped_tokens, 0);
    expect(total(toolDays)).toBe(total(tools));
  });
});

describe("day rollup rows", () => {
  it("sum the hour rows per (tenant, role, mode, config version, UTC day)", () => {
    const at = (timestamp: string, iteration: number, config_version?: string) =>
      row({
        run_id: "day-rows",
        iteration,
        timestamp,
        offered: ["x", "y", "z"],
        selected: ["x"],
        dropped_tokens: 10 * (iteration + 1),
        ...(config_version ? { config_version } : {}),
      });
    const decisions = [
      at("2026-03-01T00:10:00Z", 0),
      at("2026-03-01T23:59:59.999Z", 1),
      at("2026-03-02T01:00:00+05:30", 2), // 2026-03-01T19:30Z
      at("2026-03-01T12:00:00Z", 3, "cfg-b"),
      at("2026-03-02T00:00:00Z", 4),
    ];
    const { hour, day } = aggregateDeltas(decisions, []);
    expect(hour).toHaveLength(5);
    const days = day
      .map((d) => [d.bucket, d.config_version, d.decisions, d.dropped_tokens, d.offered_tools])
      .sort((p, q) => String(p).localeCompare(String(q)));
    expect(days).toEqual([
      ["2026-03-01T00:00:00.000Z", "", 3, 10 + 20 + 30, 9],
      ["2026-03-01T00:00:00.000Z", "cfg-b", 1, 40, 3],
      ["2026-03-02T00:00:00.000Z", "", 1, 50, 3],
    ]);
    const squares = (rows: typeof hour) => rows.reduce((sum, d) => sum + d.dropped_tokens_sq, 0);
    expect(squares(day)).toBe(squares(hour));
  });
});

describe("aggregateDeltas with palettes shared by many decisions", () => {
  it("counts the same as with every decision's palettes its own arrays", () => {
    const palette = ["a", "b", "c", "a"];
    const narrow = ["a"];
    const events = [
      { mode: "observe" as const, offered: palette, selected: palette, called: ["a"] },
      { mode: "observe" as const, offered: palette, selected: palette, called: [] },
      { mode: "enforce" as const, offered: palette, selected: narrow, called: ["a", "c", "a"] },
      { mode: "enforce" as const, offered: palette, selected: narrow, called: [] },
      { mode: "observe" as const, offered: palette, selected: palette, called: ["z"] },
    ];
    const build = (copy: boolean) => {
      const decisions = events.map((e, i) =>
        row({
          run_id: "r1",
          iteration: i,
          timestamp: `2026-03-01T10:0${i}:00Z`,
          mode: e.mode,
          offered: copy ? [...e.offered] : e.offered,
          selected: copy ? [...e.selected] : e.selected,
          dropped_tokens: e.mode === "enforce" ? 9 : 0,
        }),
      );
      const joined: JoinedDecision[] = decisions.map((d, i) => ({
        ...d,
        called: events[i]?.called ?? [],
        harmful_tools: [],
      }));
      return aggregateDeltas(decisions, joined);
    };
    const byTool = (rows: ReturnType<typeof aggregateDeltas>["tools"]) =>
      [...rows].sort((x, y) => `${x.mode}${x.tool}`.localeCompare(`${y.mode}${y.tool}`));
    const shared = build(false);
    const own = build(true);
    expect(byTool(shared.tools)).toEqual(byTool(own.tools));
    expect(byTool(shared.toolDays)).toEqual(byTool(own.toolDays));
    // Worked by hand: observe offered a, b, c three times (duplicates count once), called a once
    // and z (never offered) once; enforce put only a in front and called it in one of two.
    expect(
      byTool(shared.tools).map((t) => [
        t.mode,
        t.tool,
        t.offered,
        t.selected,
        t.called,
        t.unused_offers,
      ]),
    ).toEqual([
      ["enforce", "a", 2, 2, 1, 1],
      ["enforce", "b", 2, 0, 0, 0],
      ["enforce", "c", 2, 0, 1, 0],
      ["observe", "a", 3, 3, 1, 2],
      ["observe", "b", 3, 3, 0, 3],
      ["observe", "c", 3, 3, 0, 3],
      ["observe", "z", 0, 0, 1, 0],
    ]);
  });
});

describe("aggregateDeltas' selected counts", () => {
  const selectedOf = (decisions: ReturnType<typeof row>[]) =>
    Object.fromEntries(
      aggregateDeltas(decisions, [])
        .tools.filter((t) => t.selected > 0)
        .map((t) => [t.tool, t.selected]),
    );

  it("counts a tool named twice in one selected list once, in short lists and long ones", () => {
    const long = Array.from({ length: 80 }, (_, i) => `tool-${i}`);
    const decisions = [
      row({ iteration: 0, offered: ["a", "b", "c"], selected: ["b", "a", "b"] }),
      row({ iteration: 1, offered: long, selected: [...long, "tool-3", "tool-79"] }),
      row({ iteration: 2, offered: long, selected: long }),
    ];
    const counts = selectedOf(decisions);
    expect([counts.a, counts.b, counts.c]).toEqual([1, 1, undefined]);
    expect([counts["tool-0"], counts["tool-3"], counts["tool-79"]]).toEqual([2, 2, 2]);
    expect(Object.keys(counts)).toHaveLength(82);
  });
});
