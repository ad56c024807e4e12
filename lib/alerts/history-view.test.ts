import { describe, expect, it } from "vitest";
import { formatLatency, prepareDeliveryRows, prepareTransitionRows } from "./history-view";

describe("prepareTransitionRows", () => {
  it("words each transition's value over its sample in the metric's unit", () => {
    const rows = prepareTransitionRows("empty-palette-rate", "decisions", [
      {
        id: 7,
        kind: "firing",
        value: 12.5,
        sample: 1200,
        threshold: 10,
        minute: new Date("2026-03-01T11:00:00Z"),
        muted: true,
      },
    ]);
    expect(rows).toEqual([
      {
        id: "7",
        kind: "firing",
        minute: "2026-03-01T11:00:00.000Z",
        value: "13 % over 1,200 decisions",
        threshold: "10 %",
        muted: true,
      },
    ]);
  });
});

describe("prepareDeliveryRows", () => {
  it("lists every attempt with its status, latency and error, and the next try while pending", () => {
    const [row] = prepareDeliveryRows([
      {
        id: "d1",
        kind: "firing",
        status: "pending",
        channelKind: "webhook",
        channelUrl: "https://example.com/hook",
        createdAt: new Date("2026-03-01T11:00:00Z"),
        deliveredAt: null,
        nextAttemptAt: new Date("2026-03-01T11:02:00Z"),
        attemptLog: [
          {
            attempt: 1,
            at: new Date("2026-03-01T11:00:01Z"),
            statusCode: null,
            latencyMs: 10000,
            error: "timed out",
          },
          {
            attempt: 2,
            at: new Date("2026-03-01T11:01:00Z"),
            statusCode: 503,
            latencyMs: 42,
            error: "HTTP 503",
          },
        ],
      },
    ]);
    expect(row?.nextAttemptAt).toBe("2026-03-01T11:02:00.000Z");
    expect(row?.channel).toBe("webhook");
    expect(row?.attempts).toEqual([
      {
        attempt: 1,
        at: "2026-03-01T11:00:01.000Z",
        status: "no answer",
        ok: false,
        latency: "10.0 s",
        error: "timed out",
      },
      {
        attempt: 2,
        at: "2026-03-01T11:01:00.000Z",
        status: "503",
        ok: false,
        latency: "42 ms",
        error: "HTTP 503",
      },
    ]);
  });

  it("shows no next try once delivered", () => {
    const [row] = prepareDeliveryRows([
      {
        id: "d2",
        kind: "test",
        status: "delivered",
        channelKind: "slack",
        channelUrl: "https://hooks.slack.com/services/x",
        createdAt: new Date("2026-03-01T11:00:00Z"),
        deliveredAt: new Date("2026-03-01T11:00:01Z"),
        nextAttemptAt: new Date("2026-03-01T11:00:30Z"),
        attemptLog: [
          {
            attempt: 1,
            at: new Date("2026-03-01T11:00:01Z"),
            statusCode: 200,
            latencyMs: 80,
            error: null,
          },
        ],
      },
    ]);
    expect(row?.nextAttemptAt).toBeNull();
    expect(row?.channel).toBe("Slack");
    expect(row?.attempts[0]?.ok).toBe(true);
    expect(formatLatency(999)).toBe("999 ms");
  });
});
