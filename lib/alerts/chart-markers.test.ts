import { describe, expect, it } from "vitest";
import { type AlertTransition, prepareAlertMarkers } from "./chart-markers";

const HOUR = 3_600_000;
const WINDOW = {
  from: new Date("2026-03-01T00:00:00Z"),
  to: new Date("2026-03-02T00:00:00Z"),
  granularity: "hour" as const,
  bucketMs: HOUR,
};
const NOW = new Date("2026-03-01T23:30:00Z");
const at = (iso: string) => new Date(iso);
const t = (iso: string) => Date.parse(iso);

function transition(
  kind: string,
  minute: string,
  ruleId = "r1",
  ruleName = "Harmful drops",
): AlertTransition {
  return { ruleId, ruleName, kind, minute: at(minute) };
}

describe("prepareAlertMarkers", () => {
  it("marks a firing and its resolution at their buckets and spans the time between", () => {
    const prepared = prepareAlertMarkers(
      [
        transition("firing", "2026-03-01T03:17:00Z"),
        transition("resolved", "2026-03-01T05:02:00Z"),
      ],
      WINDOW,
      NOW,
    );
    expect(prepared.markers.map((marker) => [marker.kind, marker.t])).toEqual([
      ["firing", t("2026-03-01T03:00:00Z")],
      ["resolved", t("2026-03-01T05:00:00Z")],
    ]);
    expect(prepared.markers[0]?.at).toBe("2026-03-01T03:17:00.000Z");
    expect(prepared.spans).toEqual([
      {
        ruleId: "r1",
        ruleName: "Harmful drops",
        x1: t("2026-03-01T03:00:00Z"),
        x2: t("2026-03-01T05:00:00Z"),
        open: false,
      },
    ]);
    expect(prepared.groups.map((group) => group.label)).toEqual([
      "Harmful drops firing",
      "Harmful drops resolved",
    ]);
  });

  it("draws a rule firing since before the window from the window's start to now, without a marker", () => {
    const prepared = prepareAlertMarkers(
      [transition("firing", "2026-02-27T10:00:00Z")],
      WINDOW,
      NOW,
    );
    expect(prepared.markers).toEqual([]);
    expect(prepared.spans).toEqual([
      {
        ruleId: "r1",
        ruleName: "Harmful drops",
        x1: WINDOW.from.getTime(),
        x2: t("2026-03-01T23:00:00Z"),
        open: true,
      },
    ]);
  });

  it("draws nothing for a rule resolved before the window", () => {
    const prepared = prepareAlertMarkers(
      [
        transition("firing", "2026-02-27T10:00:00Z"),
        transition("resolved", "2026-02-28T10:00:00Z"),
      ],
      WINDOW,
      NOW,
    );
    expect(prepared).toEqual({ markers: [], spans: [], groups: [] });
  });

  it("ends an open span at the last bucket already started, not in the future", () => {
    const prepared = prepareAlertMarkers(
      [transition("firing", "2026-03-01T10:00:00Z")],
      WINDOW,
      new Date("2026-03-01T12:10:00Z"),
    );
    expect(prepared.spans[0]?.x2).toBe(t("2026-03-01T12:00:00Z"));
    expect(prepared.spans[0]?.open).toBe(true);
    expect(prepared.groups[0]?.nearEnd).toBe(false);
    const late = prepareAlertMarkers([transition("firing", "2026-03-01T22:10:00Z")], WINDOW, NOW);
    expect(late.groups[0]?.nearEnd).toBe(true);
  });

  it("shares one line between markers of one bucket, and keeps rules apart", () => {
    const prepared = prepareAlertMarkers(
      [
        transition("firing", "2026-03-01T07:05:00Z", "r1", "Harmful drops"),
        transition("firing", "2026-03-01T07:40:00Z", "r2", "Silence"),
        transition("resolved", "2026-03-01T09:00:00Z", "r2", "Silence"),
      ],
      WINDOW,
      NOW,
    );
    expect(prepared.groups).toEqual([
      {
        t: t("2026-03-01T07:00:00Z"),
        label: "Harmful drops firing · Silence firing",
        hasFiring: true,
        nearEnd: false,
      },
      { t: t("2026-03-01T09:00:00Z"), label: "Silence resolved", hasFiring: false, nearEnd: false },
    ]);
    expect(prepared.spans.map((span) => [span.ruleId, span.open])).toEqual([
      ["r1", true],
      ["r2", false],
    ]);
  });

  it("ignores kinds it does not know", () => {
    expect(
      prepareAlertMarkers([transition("test", "2026-03-01T07:05:00Z")], WINDOW, NOW).markers,
    ).toEqual([]);
  });
});
