import { describe, expect, it } from "vitest";
import { formatPath } from "@/lib/schemas/event-issues";
import { decisionEvent, outcomeEvent, stageRecord } from "@/lib/telemetry/events";
import {
  checkEvent,
  droppedTools,
  encodePaletteIdentity,
  harmfulTools,
  toDecisionRow,
} from "./events";

describe("formatPath", () => {
  it("renders indexes in brackets and keys with dots", () => {
    expect(formatPath(3, ["trace", 1, "kept"])).toBe("batch[3].trace[1].kept");
    expect(formatPath(0, [])).toBe("batch[0]");
    expect(formatPath(null, ["trace", 1, "kept"])).toBe("trace[1].kept");
    expect(formatPath(null, [])).toBe("(event)");
  });
});

describe("checkEvent", () => {
  it("accepts a valid decision and outcome", () => {
    expect(checkEvent(decisionEvent(), 0, "acme").ok).toBe(true);
    expect(checkEvent(outcomeEvent(), 1, "acme").ok).toBe(true);
  });

  it("names every bad field of one event in one message", () => {
    const event = { ...decisionEvent({ iteration: -1 }), dropped_tokens: 1.5 };
    const result = checkEvent(event, 2, "acme");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ index: 2, id: event.event_id, status: 400 });
    expect(result.error.message).toBe(
      "batch[2].iteration: must be >= 0; batch[2].dropped_tokens: expected integer",
    );
  });

  it("refuses NUL characters and broken Unicode in strings, by field", () => {
    const nul = checkEvent(
      decisionEvent({ offered: ["a\u0000b"], selected: [], trace: [] }),
      0,
      "t",
    );
    expect(nul.ok ? "" : nul.error.message).toBe(
      "batch[0].offered[0]: must not contain NUL (\\u0000) characters",
    );
    const surrogate = checkEvent(outcomeEvent({ error: "bad \uD800 text" }), 0, "t");
    expect(surrogate.ok ? "" : surrogate.error.message).toBe(
      "batch[0].error: must be valid Unicode text",
    );
    const nulInTrace = checkEvent(
      decisionEvent({ trace: [stageRecord({ stage: "role", detail: "x\u0000" })] }),
      1,
      "t",
    );
    expect(nulInTrace.ok ? "" : nulInTrace.error.message).toBe(
      "batch[1].trace[0].detail: must not contain NUL (\\u0000) characters",
    );
  });

  it("refuses timestamps outside the window and dropped_tokens past its bound, naming the rule", () => {
    const message = (event: unknown) => {
      const result = checkEvent(event, 0, "t");
      return result.ok ? "accepted" : result.error.message;
    };
    expect(message(decisionEvent({ timestamp: "1999-12-31T23:59:59.999Z" }))).toBe(
      "batch[0].timestamp: must not be before 2000-01-01T00:00:00Z",
    );
    expect(message(outcomeEvent({ timestamp: "0001-01-01T00:00:00+01:00" }))).toBe(
      "batch[0].timestamp: must not be before 2000-01-01T00:00:00Z",
    );
    expect(message(decisionEvent({ timestamp: "9999-12-31T23:59:59-01:00" }))).toMatch(
      /^batch\[0\]\.timestamp: must not be more than 24 h ahead of the server clock \(now \d{4}-/,
    );
    expect(message(decisionEvent({ timestamp: "2000-01-01T00:00:00Z" }))).toBe("accepted");
    const soon = new Date(Date.now() + 23 * 3_600_000).toISOString();
    expect(message(decisionEvent({ timestamp: soon }))).toBe("accepted");
    expect(message(decisionEvent({ dropped_tokens: 1_000_000_000 }))).toBe("accepted");
    expect(message(decisionEvent({ dropped_tokens: 1_000_000_001 }))).toBe(
      "batch[0].dropped_tokens: at most 1000000000",
    );
    expect(message(decisionEvent({ timestamp: "2026-02-30T12:00:00Z" }))).toBe(
      "batch[0].timestamp: expected ISO-8601 timestamp with offset, e.g. 2026-01-31T12:00:00Z",
    );
  });

  it("allows the NUL separators of a palette identity", () => {
    expect(checkEvent(decisionEvent({ palette_identity: "a\u0000b\u0001!a" }), 0, "t").ok).toBe(
      true,
    );
  });

  it("gives 403 for another tenant's event and keeps its id", () => {
    const event = decisionEvent({ tenant_id: "other" });
    const result = checkEvent(event, 4, "acme");
    expect(result.ok ? null : result.error).toEqual({
      index: 4,
      id: event.event_id,
      status: 403,
      message: 'batch[4].tenant_id: "other" is not this key\'s tenant ("acme")',
      problems: [
        { path: "batch[4].tenant_id", rule: '"other" is not this key\'s tenant ("acme")' },
      ],
    });
  });

  it("reports a null id when the event id itself is unusable", () => {
    const result = checkEvent({ type: "tool_call_outcome" }, 0, "acme");
    expect(result.ok ? "ok" : result.error.id).toBeNull();
  });
});

describe("droppedTools", () => {
  it("lists what was offered and not selected, each once, in palette order", () => {
    expect(droppedTools(["c", "a", "b", "c", "a"], ["b"])).toEqual(["c", "a"]);
    expect(droppedTools(["a", "b"], ["b", "a", "z"])).toEqual([]);
    expect(droppedTools([], [])).toEqual([]);
  });

  it("answers the same for short and long lists (linear search and sets)", () => {
    const reference = (offered: readonly string[], selected: readonly string[]) =>
      offered.filter((name, i) => !selected.includes(name) && offered.indexOf(name) === i);
    const names = (length: number, kinds: number, step: number) =>
      Array.from({ length }, (_, i) => `tool_${(i * step) % kinds}`);
    for (const [offered, selected] of [
      [names(300, 250, 1), names(100, 250, 3)],
      [names(40, 35, 1), names(10, 35, 3)],
      [names(1_000, 1_000, 7), []],
      [names(5, 5, 1), names(200, 5, 2)],
    ] as const) {
      expect(droppedTools(offered, selected)).toEqual(reference(offered, selected));
    }
  });
});

describe("toDecisionRow", () => {
  it("derives dropped names in offered order and the counts dashboards sum", () => {
    const row = toDecisionRow(
      "acme",
      decisionEvent({
        offered: ["a", "b", "c", "d"],
        selected: ["d", "a"],
        dropped_tokens: 33,
        trace: [
          stageRecord({ stage: "role", action: "select", reinstated: ["a"] }),
          stageRecord({ stage: "policy", action: "error", degraded: true }),
        ],
        warnings: [
          { code: "forced_reinstated", stage: "role" },
          { code: "empty_palette", stage: "role" },
          { code: "empty_palette", stage: "other" },
        ],
        config_version: undefined,
      }),
    );
    expect(row).toMatchObject({
      tenant_id: "acme",
      dropped: ["b", "c"],
      offered_count: 4,
      selected_count: 2,
      dropped_count: 2,
      dropped_tokens: 33,
      reinstatements: 1,
      empty_palette_warnings: 2,
      stage_errors: 1,
      config_version: "",
    });
  });

  it("counts reinstatement warnings when the trace does not list reinstated names", () => {
    const row = toDecisionRow(
      "acme",
      decisionEvent({
        trace: [],
        warnings: [{ code: "forced_reinstated" }, { code: "stage_error" }],
      }),
    );
    expect(row.reinstatements).toBe(1);
    expect(row.stage_errors).toBe(1);
  });

  it("stores the palette identity without NUL, one-to-one", () => {
    expect(encodePaletteIdentity("a\u0000b\u0001!a")).toBe("a\\0b\\1!a");
    expect(encodePaletteIdentity("x\\0")).toBe("x\\\\0");
    expect(encodePaletteIdentity("x\\0")).not.toBe(encodePaletteIdentity("x\u0000"));
  });
});

describe("harmfulTools", () => {
  it("keeps the called tools that were dropped, each once, in code point order", () => {
    expect(harmfulTools(["c", "keep", "a", "c"], ["a", "b", "c"])).toEqual(["a", "c"]);
    expect(harmfulTools([], ["a"])).toEqual([]);
    expect(harmfulTools(["a"], [])).toEqual([]);
    // By UTF-16 code unit, 😀 (a surrogate pair) would sort before U+E000 and U+FFFD.
    const names = ["😀", "\uFFFD", "\uE000", "b", "A", "é"];
    expect(harmfulTools(names, names)).toEqual(["A", "b", "é", "\uE000", "\uFFFD", "😀"]);
  });
});
