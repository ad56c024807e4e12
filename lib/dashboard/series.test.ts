import { describe, expect, it } from "vitest";
import {
  OTHER_SERIES_LABEL,
  packSeries,
  prepareTimeSeries,
  rankSeries,
  unpackSeries,
} from "./series";
import { resolveTimeRange } from "./time-range";
import type { BucketMetricRow } from "./types";

const NOW = new Date("2026-03-10T14:37:00Z");
const range = resolveTimeRange({ range: "24h" }, NOW);
if (!range) throw new Error("expected a range");

function row(bucket: string, key: string | null, values: Partial<BucketMetricRow> = {}) {
  return {
    bucket: new Date(bucket),
    key,
    decisions: 1,
    droppedTokens: 0,
    reinstatements: 0,
    emptyPaletteWarnings: 0,
    ...values,
  } satisfies BucketMetricRow;
}

describe("rankSeries", () => {
  it("orders keys by decisions, then name, with safe ids", () => {
    const series = rankSeries([
      row("2026-03-10T10:00:00Z", "beta", { decisions: 5 }),
      row("2026-03-10T11:00:00Z", "alpha", { decisions: 5 }),
      row("2026-03-10T11:00:00Z", "gamma.prod", { decisions: 9 }),
    ]);
    expect(series.map((s) => [s.id, s.label])).toEqual([
      ["s0", "gamma.prod"],
      ["s1", "alpha"],
      ["s2", "beta"],
    ]);
  });

  it("folds keys beyond the cap, and rows the query folded, into one 'other' series", () => {
    const rows = ["a", "b", "c", "d"].map((key, index) =>
      row("2026-03-10T10:00:00Z", key, { decisions: 10 - index }),
    );
    const capped = rankSeries(rows, 2);
    expect(capped.map((s) => s.label)).toEqual(["a", "b", OTHER_SERIES_LABEL]);
    expect(capped[2]?.isOther).toBe(true);
    const folded = rankSeries([row("2026-03-10T10:00:00Z", null)]);
    expect(folded).toEqual([{ id: "s0", label: "other", isOther: true, colorIndex: 0 }]);
  });

  it("keeps a real key named 'other' apart from the folded series", () => {
    const series = rankSeries([
      row("2026-03-10T10:00:00Z", "other", { decisions: 3 }),
      row("2026-03-10T10:00:00Z", null, { decisions: 1 }),
    ]);
    expect(series.map((s) => [s.label, s.isOther])).toEqual([
      ["other", false],
      ["other", true],
    ]);
  });
});

describe("prepareTimeSeries", () => {
  it("has one point per bucket, zeros where a started bucket had no events", () => {
    const prepared = prepareTimeSeries(
      [
        row("2026-03-10T10:00:00Z", "acme", { droppedTokens: 120, reinstatements: 2 }),
        row("2026-03-10T12:00:00Z", "acme", { droppedTokens: 30 }),
      ],
      range,
      NOW,
    );
    const points = prepared.points.droppedTokens;
    expect(points).toHaveLength(24);
    const at = (iso: string) => points.find((p) => p.t === Date.parse(iso));
    expect(at("2026-03-10T10:00:00Z")?.s0).toBe(120);
    expect(at("2026-03-10T11:00:00Z")?.s0).toBe(0);
    expect(at("2026-03-10T12:00:00Z")?.s0).toBe(30);
    expect(at("2026-03-09T15:00:00Z")?.s0).toBe(0);
    expect(prepared.totals.droppedTokens.s0).toBe(150);
    expect(prepared.totals.reinstatements.s0).toBe(2);
    expect(prepared.totals.emptyPaletteWarnings.s0).toBe(0);
  });

  it("leaves buckets that have not started yet as gaps (null), never zeros", () => {
    const custom = resolveTimeRange(
      { range: "custom", from: "2026-03-10T12:00:00Z", to: "2026-03-10T18:00:00Z" },
      NOW,
    );
    if (!custom) throw new Error("expected a range");
    const prepared = prepareTimeSeries([row("2026-03-10T14:00:00Z", "acme")], custom, NOW);
    const points = prepared.points.reinstatements;
    expect(points).toHaveLength(360);
    const started = points.filter((p) => p.t <= NOW.getTime());
    const future = points.filter((p) => p.t > NOW.getTime());
    expect(started.every((p) => p.s0 === 0)).toBe(true);
    expect(future.length).toBeGreaterThan(0);
    expect(future.every((p) => p.s0 === null)).toBe(true);
  });

  it("splits by key and sums rows of the same bucket and series", () => {
    const prepared = prepareTimeSeries(
      [
        row("2026-03-10T10:00:00Z", "acme", { decisions: 4, emptyPaletteWarnings: 1 }),
        row("2026-03-10T10:00:00Z", "globex", { decisions: 2, emptyPaletteWarnings: 3 }),
        row("2026-03-10T10:00:00Z", "initech", { decisions: 1, emptyPaletteWarnings: 5 }),
      ],
      range,
      NOW,
      2,
    );
    expect(prepared.series.map((s) => s.label)).toEqual(["acme", "globex", "other"]);
    const point = prepared.points.emptyPaletteWarnings.find(
      (p) => p.t === Date.parse("2026-03-10T10:00:00Z"),
    );
    expect(point).toMatchObject({ s0: 1, s1: 3, s2: 5 });
  });

  it("with no rows has no series and all-empty points", () => {
    const prepared = prepareTimeSeries([], range, NOW);
    expect(prepared.series).toEqual([]);
    expect(prepared.points.droppedTokens).toHaveLength(24);
    expect(Object.keys(prepared.points.droppedTokens[0] ?? {})).toEqual(["t"]);
  });

  it("buckets by day for long ranges", () => {
    const month = resolveTimeRange({ range: "30d" }, NOW);
    if (!month) throw new Error("expected a range");
    const prepared = prepareTimeSeries(
      [row("2026-03-01T00:00:00Z", "acme", { droppedTokens: 7 })],
      month,
      NOW,
    );
    expect(prepared.granularity).toBe("day");
    expect(prepared.points.droppedTokens).toHaveLength(30);
    expect(prepared.totals.droppedTokens.s0).toBe(7);
  });
});

describe("packSeries", () => {
  it("sends each bucket start once and gives back the same points, gaps included", () => {
    const custom = resolveTimeRange(
      { range: "custom", from: "2026-03-10T12:00:00Z", to: "2026-03-10T18:00:00Z" },
      NOW,
    );
    if (!custom) throw new Error("expected a range");
    const keys = Array.from({ length: 11 }, (_, i) => `tenant-${i}`);
    const rows = keys.flatMap((key, i) => [
      row("2026-03-10T13:00:00Z", key, { decisions: 20 - i, droppedTokens: 10.5 * i }),
      row("2026-03-10T14:00:00Z", key, { reinstatements: i, emptyPaletteWarnings: 1 }),
    ]);
    const prepared = prepareTimeSeries(rows, custom, NOW);
    // Eight series and "other"; buckets after NOW are gaps.
    expect(prepared.series).toHaveLength(9);
    const packed = packSeries(prepared);
    expect(packed.starts).toEqual(prepared.points.droppedTokens.map((point) => point.t));
    expect(packed.columns.droppedTokens).toHaveLength(9);
    expect(packed.columns.droppedTokens[0]).toHaveLength(360);
    expect(packed.columns.reinstatements[0]?.at(-1)).toBeNull();
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(prepared).length / 2);
    expect(unpackSeries(JSON.parse(JSON.stringify(packed)))).toEqual(prepared);
  });
});
