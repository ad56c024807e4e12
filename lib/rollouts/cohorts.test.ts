import { describe, expect, it } from "vitest";
import { addCohortSums, compareCohorts, type MetricComparison, sumCohorts } from "./cohorts";
import { DESIGNED_CELLS, ENFORCE_CFG_B, OBSERVE_CFG_A, OBSERVE_CFG_B } from "./test-fixtures";
import { ZERO_COHORT_SUMS } from "./types";

/**
 * Expected values were computed separately in Python with SciPy 1.17 from the raw per-decision
 * values (not from sums): means and variances with NumPy, `ttest_ind(..., equal_var=False)` for
 * Welch, `ttest_1samp` for the per-cohort t intervals, `binomtest(...).proportion_ci("wilson")`
 * for Wilson, and the method-10 formula over those limits for Newcombe.
 */
const observe = addCohortSums(OBSERVE_CFG_A, OBSERVE_CFG_B);
const byId = (rows: MetricComparison[], id: string) => {
  const row = rows.find((candidate) => candidate.id === id);
  if (!row) throw new Error(`no metric ${id}`);
  return row;
};

describe("sumCohorts", () => {
  it("adds the cells a predicate keeps", () => {
    const total = sumCohorts(DESIGNED_CELLS, (cell) => cell.mode === "observe");
    expect(total.decisions).toBe(60);
    expect(total.droppedTokens).toBe(7095);
    expect(total.droppedTokensSq).toBe(847_675);
    expect(total.harmfulDecisions).toBe(4);
    expect(sumCohorts([], () => true)).toEqual(ZERO_COHORT_SUMS);
  });
});

describe("compareCohorts: observe (A) vs enforce (B)", () => {
  const rows = compareCohorts(observe, ENFORCE_CFG_B);

  it("lists every metric once, in order", () => {
    expect(rows.map((row) => row.id)).toEqual([
      "droppedTokens",
      "offeredTools",
      "selectedTools",
      "reinstatementRate",
      "emptyPaletteRate",
      "stageErrorRate",
      "harmfulDropRate",
      "zeroCallRate",
    ]);
  });

  it("compares mean dropped tokens with a Welch interval", () => {
    const row = byId(rows, "droppedTokens");
    expect(row.a.value).toBeCloseTo(118.25, 12);
    expect(row.a.n).toBe(60);
    expect(row.a.lower).toBeCloseTo(115.11465326752165, 9);
    expect(row.a.upper).toBeCloseTo(121.38534673247835, 9);
    expect(row.b.value).toBeCloseTo(144.33333333333334, 12);
    expect(row.b.lower).toBeCloseTo(140.09471188822636, 9);
    expect(row.difference?.estimate).toBeCloseTo(26.083333333333343, 9);
    expect(row.df).toBeCloseTo(61.7179258847867, 8);
    expect(row.difference?.lower).toBeCloseTo(20.889313640612652, 8);
    expect(row.difference?.upper).toBeCloseTo(31.277353026054033, 8);
    // Delta method on the log ratio (Python: exp(log(mb/ma) ± z·se) − 1).
    expect(row.relative?.estimate).toBeCloseTo(0.22057787174066257, 12);
    expect(row.relative?.lower).toBeCloseTo(0.17471976445521298, 9);
    expect(row.relative?.upper).toBeCloseTo(0.26822616428342694, 9);
    expect(row.significant).toBe(true);
    expect(row.tone).toBe("better");
    expect(row.a.display).toEqual({
      value: "118.3",
      detail: "sd 12.1",
      interval: "[115.1, 121.4]",
    });
    expect(row.difference?.display).toEqual({ estimate: "+26.1", interval: "[+20.9, +31.3]" });
    expect(row.relative?.display).toEqual({ estimate: "+22.1%", interval: "[+17.5%, +26.8%]" });
  });

  it("has no Welch interval when neither cohort varies", () => {
    const row = byId(rows, "offeredTools");
    expect(row.a.value).toBe(5);
    expect(row.b.value).toBe(5);
    expect(row.difference?.estimate).toBe(0);
    expect(row.difference?.lower).toBeNull();
    expect(row.difference?.display.interval).toBe("—");
    expect(row.relative?.estimate).toBe(0);
    expect(row.relative?.display.interval).toBe("—");
    expect(row.significant).toBe(false);
    expect(row.tone).toBe("none");
  });

  it("compares the harmful-drop rate per decision with an outcome (Newcombe)", () => {
    const row = byId(rows, "harmfulDropRate");
    expect(row.base).toBe("outcomes");
    expect(row.a.value).toBeCloseTo(4 / 60, 12);
    expect(row.a.lower).toBeCloseTo(0.0262286987245062, 12);
    expect(row.a.upper).toBeCloseTo(0.15925357313197167, 12);
    expect(row.b.value).toBe(0);
    expect(row.b.upper).toBeCloseTo(0.11351339317396875, 12);
    expect(row.difference?.estimate).toBeCloseTo(-0.06666666666666667, 12);
    expect(row.difference?.lower).toBeCloseTo(-0.15925357313197167, 12);
    expect(row.difference?.upper).toBeCloseTo(0.05383445233709701, 12);
    // The interval includes zero: not coloured.
    expect(row.significant).toBe(false);
    expect(row.tone).toBe("none");
    // B = 0: relative −100%, no log-ratio interval.
    expect(row.relative?.estimate).toBe(-1);
    expect(row.relative?.lower).toBeNull();
    expect(row.a.display).toEqual({
      value: "6.67%",
      detail: "4 / 60",
      interval: "[2.62%, 15.93%]",
    });
    expect(row.difference?.display).toEqual({
      estimate: "−6.67 pp",
      interval: "[−15.93 pp, +5.38 pp]",
    });
  });

  it("flags the zero-tool-call rate of enforce as worse", () => {
    const row = byId(rows, "zeroCallRate");
    expect(row.a.display.value).toBe("0.00%");
    expect(row.b.display.value).toBe("20.00%");
    expect(row.b.display.detail).toBe("6 / 30");
    expect(row.difference?.lower).toBeCloseTo(0.07902508802967954, 12);
    expect(row.difference?.upper).toBeCloseTo(0.3730569641314825, 12);
    expect(row.significant).toBe(true);
    expect(row.tone).toBe("worse");
    // A = 0: the relative difference is undefined.
    expect(row.relative).toBeNull();
  });

  it("uses decisions as the base of the warning rates", () => {
    const reinstatement = byId(rows, "reinstatementRate");
    expect(reinstatement.b.n).toBe(30);
    expect(reinstatement.difference?.lower).toBeCloseTo(0.011130284449253514, 12);
    expect(reinstatement.tone).toBe("worse");
    const empty = byId(rows, "emptyPaletteRate");
    expect(empty.difference?.lower).toBeCloseTo(-0.032793577347398524, 12);
    expect(empty.tone).toBe("none");
  });
});

describe("compareCohorts: before (cfg-a) vs after (cfg-b, both modes)", () => {
  const rows = compareCohorts(OBSERVE_CFG_A, addCohortSums(OBSERVE_CFG_B, ENFORCE_CFG_B));

  it("finds fewer harmful drops after the change", () => {
    const row = byId(rows, "harmfulDropRate");
    expect(row.difference?.estimate).toBeCloseTo(-0.1, 12);
    expect(row.difference?.lower).toBeCloseTo(-0.23051775227522295, 12);
    expect(row.difference?.upper).toBeCloseTo(-0.006506079040878618, 12);
    expect(row.tone).toBe("better");
  });

  it("uses Welch for the tokens", () => {
    const row = byId(rows, "droppedTokens");
    expect(row.df).toBeCloseTo(87.85782281987335, 8);
    expect(row.difference?.lower).toBeCloseTo(5.887195656746213, 8);
    expect(row.difference?.upper).toBeCloseTo(19.112804343253785, 8);
  });
});

describe("compareCohorts with empty cohorts", () => {
  it("shows dashes, not zeros, for a cohort without decisions", () => {
    const rows = compareCohorts(observe, ZERO_COHORT_SUMS);
    // Every metric of a comparison is there, each empty on the side without decisions.
    const metrics = compareCohorts(observe, ENFORCE_CFG_B).map((row) => row.id);
    expect(metrics.length).toBeGreaterThan(0);
    expect(rows.map((row) => row.id)).toEqual(metrics);
    for (const row of rows) {
      expect(row.b.value).toBeNull();
      expect(row.b.display.value).toBe("—");
      expect(row.difference).toBeNull();
      expect(row.relative).toBeNull();
      expect(row.tone).toBe("none");
    }
  });

  it("keeps rates without outcomes empty even when there are decisions", () => {
    const noOutcomes = { ...ENFORCE_CFG_B, outcomes: 0, zeroCallOutcomes: 0 };
    const row = byId(compareCohorts(observe, noOutcomes), "zeroCallRate");
    expect(row.b.value).toBeNull();
    expect(row.b.n).toBe(0);
  });
});
