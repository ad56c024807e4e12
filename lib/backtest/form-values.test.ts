import { describe, expect, it } from "vitest";
import { initialFormValues, rerunFormValues, storedConfigChoice, windowOf } from "./form-values";
import type { Backtest } from "./types";

const NOW = new Date("2026-03-10T12:00:00.000Z");

describe("windowOf", () => {
  it("ends a preset window now", () => {
    expect(windowOf({ window: "24h" }, NOW)).toEqual({
      from: "2026-03-09T12:00:00.000Z",
      to: "2026-03-10T12:00:00.000Z",
    });
    expect(windowOf({ window: "30d" }, NOW).from).toBe("2026-02-08T12:00:00.000Z");
  });

  it("passes a custom window on as typed, for the backtest's schema to judge", () => {
    expect(windowOf({ window: "custom", from: "a", to: undefined }, NOW)).toEqual({
      from: "a",
      to: undefined,
    });
  });
});

describe("the form's first values", () => {
  it("starts from the stored config asked for, or pasted JSON when the tenant has none", () => {
    expect(initialFormValues("acme", "v1", true)).toMatchObject({
      tenant: "acme",
      window: "7d",
      candidateSource: "stored",
      candidateVersion: "v1",
      baselineSource: "recorded",
      thresholdPercent: "1",
    });
    expect(initialFormValues("acme", undefined, false).candidateSource).toBe("pasted");
  });

  it("copies a backtest to run it again, configs pasted as they were stored", () => {
    const backtest = {
      tenantId: "acme",
      roles: ["action"],
      from: new Date("2026-03-01T00:00:00Z"),
      to: new Date("2026-03-02T00:00:00Z"),
      candidate: { roleTools: { action: ["a"] } },
      baseline: null,
      thresholdPercent: 0.5,
    } as unknown as Backtest;
    expect(rerunFormValues(backtest)).toEqual({
      tenant: "acme",
      roles: ["action"],
      window: "custom",
      fromIso: "2026-03-01T00:00:00.000Z",
      toIso: "2026-03-02T00:00:00.000Z",
      candidateSource: "pasted",
      candidateJson: JSON.stringify({ roleTools: { action: ["a"] } }, null, 2),
      baselineSource: "recorded",
      thresholdPercent: "0.5",
    });
  });

  it("labels a stored config with its revision, version, time and author", () => {
    expect(
      storedConfigChoice({
        revision: 3,
        configVersion: "cfg_0123456789abcdef",
        savedAt: NOW,
        authorName: "ops@example.test",
      }),
    ).toEqual({
      version: "cfg_0123456789abcdef",
      label: "r3 · cfg_01234567 · 2026-03-10 12:00:00 UTC · ops@example.test",
    });
  });
});
