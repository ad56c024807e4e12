import { describe, expect, it } from "vitest";
import type { ChangeMarker } from "./config-versions";
import { prepareCohortSeries } from "./series";
import type { CohortBucketRow } from "./types";

const HOUR = 3_600_000;
const from = new Date("2026-03-02T06:00:00Z");
const range = {
  from,
  to: new Date(from.getTime() + 6 * HOUR),
  bucketMs: HOUR,
  granularity: "hour" as const,
};
const at = (hours: number) => new Date(from.getTime() + hours * HOUR);

function row(hours: number, key: string, values: Partial<CohortBucketRow>): CohortBucketRow {
  return {
    bucket: at(hours),
    key,
    decisions: 0,
    droppedTokens: 0,
    outcomes: 0,
    harmfulDecisions: 0,
    zeroCallOutcomes: 0,
    ...values,
  };
}

const cohorts = {
  a: { key: "observe", label: "Observe" },
  b: { key: "enforce", label: "Enforce" },
};

describe("prepareCohortSeries", () => {
  const rows = [
    row(1, "observe", { decisions: 40, droppedTokens: 4_800, outcomes: 40, harmfulDecisions: 4 }),
    row(2, "observe", { decisions: 20, droppedTokens: 2_295, outcomes: 0 }),
    row(4, "enforce", { decisions: 30, droppedTokens: 4_330, outcomes: 30, zeroCallOutcomes: 6 }),
    row(4, "enforce", { decisions: 10, droppedTokens: 1_000, outcomes: 10, zeroCallOutcomes: 4 }),
    row(3, "other", { decisions: 99, outcomes: 99 }),
  ];
  const prepared = prepareCohortSeries(rows, cohorts, range, at(4.5));
  const chart = (metric: string) => {
    const found = prepared.charts.find((candidate) => candidate.metric === metric);
    if (!found) throw new Error(metric);
    return found;
  };

  it("has one point per bucket, rates per outcome and means per decision", () => {
    const harmful = chart("harmfulDropRate");
    expect(harmful.points.map((point) => point.t)).toEqual(
      [0, 1, 2, 3, 4, 5].map((h) => at(h).getTime()),
    );
    expect(harmful.points[1]).toEqual({ t: at(1).getTime(), a: 0.1, b: null });
    expect(chart("droppedTokens").points[2]).toEqual({ t: at(2).getTime(), a: 114.75, b: null });
    // Rows of the same bucket and cohort add up: (6 + 4) / (30 + 10).
    expect(chart("zeroCallRate").points[4]).toEqual({ t: at(4).getTime(), a: null, b: 0.25 });
  });

  it("leaves a gap, not a zero, where a cohort has no denominator", () => {
    // Bucket 2 has observe decisions but no outcomes: no rate.
    expect(chart("harmfulDropRate").points[2]?.a).toBeNull();
    expect(chart("harmfulDropRate").points[0]).toEqual({ t: at(0).getTime(), a: null, b: null });
    expect(chart("harmfulDropRate").counts).toEqual({ a: 1, b: 1 });
    expect(chart("droppedTokens").counts).toEqual({ a: 2, b: 1 });
  });

  it("has no values in buckets that have not started", () => {
    const early = prepareCohortSeries(rows, cohorts, range, at(3.5));
    expect(early.charts[1]?.points[4]).toEqual({ t: at(4).getTime(), a: null, b: null });
  });

  it("keeps the markers inside the window only", () => {
    const marker = (hours: number): ChangeMarker => ({
      t: at(hours).getTime(),
      at: at(hours).toISOString(),
      kind: "mode",
      value: "enforce",
    });
    const withMarkers = prepareCohortSeries(rows, cohorts, range, at(5), [
      marker(-1),
      marker(4),
      marker(6),
    ]);
    expect(withMarkers.markers.map((item) => item.t)).toEqual([at(4).getTime()]);
    expect(withMarkers.labels).toEqual({ a: "Observe", b: "Enforce" });
  });
});
