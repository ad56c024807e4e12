import { describe, expect, it } from "vitest";
import {
  formatMean,
  formatMeanDifference,
  formatRate,
  formatRateDifference,
  formatRelative,
} from "./format";

describe("rollout formatting", () => {
  it("keeps two decimals on rates so a bound under 1% never reads as 1%", () => {
    expect(formatRate(0.009512)).toBe("0.95%");
    expect(formatRate(4 / 60)).toBe("6.67%");
    expect(formatRate(0)).toBe("0.00%");
  });

  it("signs differences with a real minus and no sign on zero", () => {
    expect(formatRateDifference(0.05)).toBe("+5.00 pp");
    expect(formatRateDifference(-0.0667)).toBe("−6.67 pp");
    expect(formatRateDifference(0.00001)).toBe("0.00 pp");
    expect(formatRelative(-1)).toBe("−100.0%");
    expect(formatMeanDifference(26.08, 1)).toBe("+26.1");
    expect(formatMeanDifference(-0.04, 1)).toBe("0.0");
    expect(formatMean(-1.25, 1)).toBe("−1.3");
    expect(formatMean(1234.5, 1)).toBe("1,234.5");
  });
});
