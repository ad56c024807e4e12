import { describe, expect, it } from "vitest";
import { isMuted } from "./mute-presets";
import { evaluateRule, slotsToEvaluate } from "./transitions";

const rule = { comparison: "gt", threshold: 5, minSample: 100 } as const;
const ok = { state: "ok", notifiedState: "ok" } as const;
const firing = { state: "firing", notifiedState: "firing" } as const;

describe("rule transitions", () => {
  it("ok → firing when the value crosses the threshold with enough sample, and notifies", () => {
    expect(evaluateRule(rule, ok, { value: 6, sample: 100 }, false)).toEqual({
      state: "firing",
      transition: "firing",
      belowMinSample: false,
      notify: "firing",
      notifiedState: "firing",
    });
  });

  it("firing stays firing while the condition holds, without notifying again", () => {
    expect(evaluateRule(rule, firing, { value: 9, sample: 500 }, false)).toMatchObject({
      state: "firing",
      transition: null,
      notify: null,
    });
  });

  it("firing → resolved when the value falls back", () => {
    expect(evaluateRule(rule, firing, { value: 5, sample: 500 }, false)).toMatchObject({
      state: "ok",
      transition: "resolved",
      notify: "resolved",
      notifiedState: "ok",
    });
  });

  it("below the minimum sample the rule cannot fire, and says so", () => {
    expect(evaluateRule(rule, ok, { value: 80, sample: 99 }, false)).toEqual({
      state: "ok",
      transition: null,
      belowMinSample: true,
      notify: null,
      notifiedState: "ok",
    });
    // A rate over nothing has no value: no evidence either way.
    expect(
      evaluateRule({ ...rule, minSample: 0 }, ok, { value: null, sample: 0 }, false),
    ).toMatchObject({
      state: "ok",
      belowMinSample: true,
    });
  });

  it("a firing rule with too small a sample stays firing (not resolved on no evidence)", () => {
    expect(evaluateRule(rule, firing, { value: 0, sample: 3 }, false)).toMatchObject({
      state: "firing",
      transition: null,
      belowMinSample: true,
    });
  });

  it("muted: the transition is recorded, nothing is notified", () => {
    expect(evaluateRule(rule, ok, { value: 6, sample: 100 }, true)).toEqual({
      state: "firing",
      transition: "firing",
      belowMinSample: false,
      notify: null,
      notifiedState: "ok",
    });
  });

  it("a rule still firing when its mute ends is announced then, once", () => {
    const mutedFiring = { state: "firing", notifiedState: "ok" } as const;
    const after = evaluateRule(rule, mutedFiring, { value: 7, sample: 100 }, false);
    expect(after).toMatchObject({
      state: "firing",
      transition: null,
      notify: "firing",
      notifiedState: "firing",
    });
    expect(evaluateRule(rule, after, { value: 7, sample: 100 }, false).notify).toBeNull();
  });

  it("a rule that fired and resolved within its mute is never announced", () => {
    const during = evaluateRule(rule, ok, { value: 7, sample: 100 }, true);
    const resolved = evaluateRule(rule, during, { value: 1, sample: 100 }, true);
    expect(resolved).toMatchObject({ state: "ok", transition: "resolved", notifiedState: "ok" });
    expect(evaluateRule(rule, resolved, { value: 1, sample: 100 }, false).notify).toBeNull();
  });

  it("compares as the rule says: below a threshold (silence) fires with lt", () => {
    const silence = { comparison: "lt", threshold: 10, minSample: 0 } as const;
    expect(evaluateRule(silence, ok, { value: 0, sample: 0 }, false)).toMatchObject({
      state: "firing",
    });
    expect(evaluateRule(silence, ok, { value: 10, sample: 10 }, false)).toMatchObject({
      state: "ok",
    });
  });

  it("is muted strictly before its mute-until moment", () => {
    const until = new Date("2026-12-01T10:00:00Z");
    expect(isMuted(until, new Date("2026-12-01T09:59:59Z"))).toBe(true);
    expect(isMuted(until, until)).toBe(false);
    expect(isMuted(null, until)).toBe(false);
  });
});

describe("slots to evaluate", () => {
  const at = (iso: string) => new Date(`2026-12-01T${iso}Z`);
  const MINUTE = 60_000;

  it("a new rule starts with the minute that just ended", () => {
    expect(slotsToEvaluate(null, at("10:05:07"), MINUTE, 60)).toEqual([at("10:04:00")]);
  });

  it("a minute already evaluated is not evaluated again", () => {
    expect(slotsToEvaluate(at("10:04:00"), at("10:05:59"), MINUTE, 60)).toEqual([]);
  });

  it("minutes missed while no server ran are caught up, oldest first, at most the bound", () => {
    expect(slotsToEvaluate(at("10:00:00"), at("10:04:30"), MINUTE, 60)).toEqual([
      at("10:01:00"),
      at("10:02:00"),
      at("10:03:00"),
    ]);
    expect(slotsToEvaluate(at("08:00:00"), at("10:04:30"), MINUTE, 3)).toEqual([
      at("10:01:00"),
      at("10:02:00"),
      at("10:03:00"),
    ]);
  });
});
