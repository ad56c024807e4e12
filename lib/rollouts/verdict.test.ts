import { describe, expect, it } from "vitest";
import { addCohortSums } from "./cohorts";
import { OBSERVE_CFG_A, OBSERVE_CFG_B } from "./test-fixtures";
import { ZERO_COHORT_SUMS } from "./types";
import { decideVerdict } from "./verdict";

const observe = addCohortSums(OBSERVE_CFG_A, OBSERVE_CFG_B);
const clean = (outcomes: number) => ({ ...ZERO_COHORT_SUMS, decisions: outcomes, outcomes });

describe("decideVerdict", () => {
  it("is not safe when observe traffic shows harmful drops", () => {
    const verdict = decideVerdict(observe, 1);
    expect(verdict.status).toBe("harmful");
    expect(verdict.headline).toBe("Not safe to enforce: enforce would have broken calls");
    expect(verdict.minimumOutcomes).toBe(381);
    expect(verdict.rate).toBeCloseTo(4 / 60, 12);
    // SciPy Wilson limits of 4/60 (see cohorts.test.ts).
    expect(verdict.upper).toBeCloseTo(0.15925357313197167, 12);
    expect(verdict.display).toEqual({
      threshold: "1.00%",
      rate: "6.67%",
      interval: "[2.62%, 15.93%]",
      coverage: "100.00%",
    });
    expect(verdict.checks.map((check) => check.passed)).toEqual([false, false]);
    expect(verdict.checks[0]?.text).toContain("381 are needed");
    expect(verdict.checks[1]?.text).toBe(
      "Harmful-drop rate 6.67% (4 of 60); its 95% upper bound 15.93% is not below the 1.00% threshold.",
    );
  });

  it("is safe with enough clean outcomes", () => {
    // Wilson upper limit of 0/400 is 0.9512% (SciPy), below 1%; 400 ≥ 381.
    const verdict = decideVerdict(clean(400), 1);
    expect(verdict.status).toBe("safe");
    expect(verdict.headline).toBe("Safe to enforce");
    expect(verdict.upper).toBeCloseTo(0.009512294334296508, 12);
    expect(verdict.display.interval).toBe("[0.00%, 0.95%]");
    expect(verdict.checks.every((check) => check.passed)).toBe(true);
  });

  it("asks for more samples when the sample is clean but small", () => {
    const verdict = decideVerdict(clean(380), 1);
    expect(verdict.status).toBe("insufficient");
    expect(verdict.checks[0]?.text).toContain("(1 more)");
  });

  it("follows the threshold: 400 clean outcomes are too few for 0.5%", () => {
    const verdict = decideVerdict(clean(400), 0.5);
    // ⌊1.959964² · 0.995 / 0.005⌋ + 1 = 765.
    expect(verdict.minimumOutcomes).toBe(765);
    expect(verdict.status).toBe("insufficient");
    expect(verdict.display.threshold).toBe("0.50%");
  });

  it("can be unsafe with enough samples", () => {
    const verdict = decideVerdict({ ...clean(2_000), harmfulDecisions: 25, harmfulDrops: 30 }, 1);
    expect(verdict.status).toBe("harmful");
    expect(verdict.checks[0]?.passed).toBe(true);
    expect(verdict.checks[1]?.passed).toBe(false);
  });

  it("says when outcomes or traffic are missing", () => {
    expect(decideVerdict(ZERO_COHORT_SUMS, 1).headline).toBe("No observe traffic in this window");
    const noOutcomes = decideVerdict({ ...ZERO_COHORT_SUMS, decisions: 50 }, 1);
    expect(noOutcomes.status).toBe("no-outcomes");
    expect(noOutcomes.outcomeCoverage).toBe(0);
    expect(noOutcomes.display.rate).toBe("—");
  });
});
