import { describe, expect, it } from "vitest";
import { describePreview } from "./rule-preview";

const READING = {
  metric: "harmful-drop-rate" as const,
  value: 3.1,
  sample: 312,
  text: "3.1 % over 312 outcomes",
};

describe("describePreview", () => {
  it("says whether the current value would fire the rule as typed", () => {
    expect(describePreview(READING, { comparison: "gt", threshold: "2", minSample: "0" })).toEqual({
      ok: true,
      text: "3.1 % over 312 outcomes",
      wouldFire: true,
      belowMinSample: false,
    });
    expect(
      describePreview(READING, { comparison: "gt", threshold: "5", minSample: "" }).wouldFire,
    ).toBe(false);
  });

  it("does not fire below the minimum sample, and says so", () => {
    const preview = describePreview(READING, {
      comparison: "gt",
      threshold: "2",
      minSample: "500",
    });
    expect(preview).toMatchObject({ wouldFire: false, belowMinSample: true });
  });

  it("leaves the answer open while the threshold is missing or out of a rate's range, or there is no value", () => {
    expect(describePreview(READING, { comparison: "gt", threshold: "" }).wouldFire).toBeNull();
    expect(describePreview(READING, { comparison: "gt", threshold: "150" }).wouldFire).toBeNull();
    expect(
      describePreview(
        { ...READING, value: null, sample: 0, text: "no value: 0 outcomes" },
        { comparison: "gt", threshold: "2" },
      ).wouldFire,
    ).toBeNull();
  });
});
