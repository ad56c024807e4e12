import { describe, expect, it } from "vitest";
import { describeKeysetPage, describePage, pageWindow } from "./pagination";

describe("describePage", () => {
  it("computes offsets and row numbers", () => {
    expect(describePage(3, 50, 1_234)).toEqual({
      page: 3,
      pageSize: 50,
      pageCount: 25,
      total: 1_234,
      firstRow: 101,
      lastRow: 150,
      offset: 100,
      hasPrevious: true,
      hasNext: true,
    });
  });

  it("clamps a page past the end to the last page", () => {
    expect(describePage(99, 50, 120)).toMatchObject({
      page: 3,
      offset: 100,
      lastRow: 120,
      hasNext: false,
    });
  });

  it("handles an empty list", () => {
    expect(describePage(1, 50, 0)).toMatchObject({
      page: 1,
      pageCount: 1,
      firstRow: 0,
      lastRow: 0,
      hasNext: false,
    });
  });
});

describe("pageWindow", () => {
  it("shows first, last and the neighbours, with gaps", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(5, 10)).toEqual([1, null, 3, 4, 5, 6, 7, null, 10]);
    expect(pageWindow(1, 4)).toEqual([1, 2, 3, 4]);
    expect(pageWindow(10, 10)).toEqual([1, null, 8, 9, 10]);
  });
});

describe("describeKeysetPage", () => {
  const page = { cap: 10_000, noun: "runs" };

  it("says where the page is when every row before it was counted", () => {
    expect(describeKeysetPage({ ...page, shown: 6, before: 25, total: 31 })).toBe(
      "26–31 of 31 runs",
    );
    expect(describeKeysetPage({ ...page, shown: 50, before: 0, total: 10_001 })).toBe(
      "1–50 of more than 10,000 runs",
    );
    expect(describeKeysetPage({ ...page, shown: 50, before: 9_950, total: 10_000 })).toBe(
      "9,951–10,000 of 10,000 runs",
    );
  });

  it("says what it knows past the count's cap", () => {
    expect(describeKeysetPage({ ...page, shown: 50, before: null, total: 10_001 })).toBe(
      "50 runs past the first 10,000 (more than 10,000 match)",
    );
    expect(describeKeysetPage({ ...page, shown: 0, before: 0, total: 0 })).toBe("No runs");
  });
});
