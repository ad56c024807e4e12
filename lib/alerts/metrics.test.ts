import { describe, expect, it } from "vitest";
import { ALERT_METRICS } from "@/lib/schemas/alerts";
import { METRICS, readMetric, rowsInWindow, sumRows, windowEndingAt } from "./metrics";

const minute = (hh: number, mm: number) => new Date(Date.UTC(2026, 11, 1, hh, mm));

/** rollup_minute rows of one tenant: one per minute from 10:00, as the ingest writes them. */
const rows = [
  {
    bucket: minute(10, 0),
    decisions: 100,
    outcomes: 50,
    harmfulDecisions: 5,
    zeroCallOutcomes: 1,
    decisionsEmptyPalette: 2,
    decisionsReinstated: 0,
    decisionsStageError: 0,
    droppedTokens: 1000,
  },
  {
    bucket: minute(10, 1),
    decisions: 100,
    outcomes: 50,
    harmfulDecisions: 0,
    zeroCallOutcomes: 1,
    decisionsEmptyPalette: 0,
    decisionsReinstated: 4,
    decisionsStageError: 1,
    droppedTokens: 500,
  },
  {
    bucket: minute(10, 5),
    decisions: 200,
    outcomes: 100,
    harmfulDecisions: 20,
    zeroCallOutcomes: 0,
    decisionsEmptyPalette: 0,
    decisionsReinstated: 0,
    decisionsStageError: 3,
    droppedTokens: 250,
  },
  {
    bucket: minute(10, 6),
    decisions: 10,
    outcomes: 0,
    harmfulDecisions: 0,
    zeroCallOutcomes: 0,
    decisionsEmptyPalette: 10,
    decisionsReinstated: 0,
    decisionsStageError: 0,
    droppedTokens: 0,
  },
];

describe("alert metrics over a window of rollup rows", () => {
  it("a window ending at an evaluated minute holds the window's minutes up to and including it", () => {
    const window = windowEndingAt(minute(10, 5), 5);
    expect(window).toEqual({ from: minute(10, 1), to: minute(10, 6) });
    expect(rowsInWindow(rows, window).map((row) => row.bucket)).toEqual([
      minute(10, 1),
      minute(10, 5),
    ]);
  });

  it("computes each rate as a share of its own sample", () => {
    const sums = sumRows(rowsInWindow(rows, windowEndingAt(minute(10, 5), 5)));
    expect(readMetric("harmful-drop-rate", sums)).toMatchObject({
      value: (100 * 20) / 150,
      sample: 150,
    });
    expect(readMetric("zero-call-rate", sums)).toMatchObject({
      value: (100 * 1) / 150,
      sample: 150,
    });
    expect(readMetric("reinstatement-rate", sums)).toMatchObject({
      value: (100 * 4) / 300,
      sample: 300,
    });
    expect(readMetric("stage-error-rate", sums)).toMatchObject({
      value: (100 * 4) / 300,
      sample: 300,
    });
    expect(readMetric("empty-palette-rate", sums)).toMatchObject({ value: 0, sample: 300 });
    expect(readMetric("dropped-tokens", sums)).toMatchObject({ value: 750, sample: 300 });
    expect(readMetric("decisions", sums)).toMatchObject({ value: 300, sample: 300 });
  });

  it("says what the value is and over how much", () => {
    const sums = sumRows(rowsInWindow(rows, windowEndingAt(minute(10, 6), 5)));
    expect(readMetric("empty-palette-rate", sums).text).toBe("4.8 % over 210 decisions");
    expect(readMetric("harmful-drop-rate", sums).text).toBe("20 % over 100 outcomes");
    expect(readMetric("dropped-tokens", sums).text).toBe("250 tokens over 210 decisions");
  });

  it("a rate over an empty sample has no value; counts are zero", () => {
    const sums = sumRows([]);
    expect(readMetric("harmful-drop-rate", sums)).toMatchObject({
      value: null,
      sample: 0,
      text: "no value: 0 outcomes",
    });
    expect(readMetric("decisions", sums)).toMatchObject({
      value: 0,
      sample: 0,
      text: "0 decisions over 0 decisions",
    });
  });

  it("sums numeric strings as PostgreSQL bigint sums may arrive", () => {
    expect(sumRows([{ decisions: "12" }, { decisions: 3 }]).decisions).toBe(15);
  });

  it("defines every metric the rule schema accepts, with a label and unit", () => {
    for (const id of ALERT_METRICS) {
      expect(METRICS[id].id).toBe(id);
      expect(METRICS[id].label.length).toBeGreaterThan(0);
      expect(["%", "tokens", "decisions"]).toContain(METRICS[id].unit);
    }
  });
});
