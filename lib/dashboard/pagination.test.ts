import { describe, expect, it } from "vitest";
import { describePage, pageWindow } from "./pagination";

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
