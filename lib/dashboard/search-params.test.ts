import { describe, expect, it } from "vitest";
import {
  overviewSearchSchema,
  parseSearchParams,
  runsSearchSchema,
  runTraceSearchSchema,
} from "@/lib/schemas/dashboard";

describe("overviewSearchSchema", () => {
  it("has defaults for an empty URL", () => {
    expect(parseSearchParams(overviewSearchSchema, {})).toEqual({
      range: "24h",
      split: "tenant",
      sort: "decisions",
    });
  });

  it("falls back to defaults instead of failing on bad values", () => {
    const parsed = parseSearchParams(overviewSearchSchema, {
      range: "2y",
      mode: "sometimes",
      split: "model",
      sort: "'; DROP TABLE runs",
      dir: "sideways",
      live: "5",
      from: "not a date",
    });
    expect(parsed).toEqual({ range: "24h", split: "tenant", sort: "decisions" });
  });

  it("takes the first of repeated values and trims text", () => {
    const parsed = parseSearchParams(overviewSearchSchema, {
      tenant: ["  acme ", "globex"],
      role: "",
      mode: "observe",
    });
    expect(parsed).toMatchObject({ tenant: "acme", mode: "observe" });
    expect(parsed.role).toBeUndefined();
  });
});

describe("runsSearchSchema", () => {
  it("parses paging, sorting and flags", () => {
    const parsed = parseSearchParams(
      runsSearchSchema,
      new URLSearchParams("page=3&size=25&sort=droppedTokens&dir=asc&warnings=1&harmful=0&q=run-"),
    );
    expect(parsed).toMatchObject({
      range: "all",
      page: 3,
      size: 25,
      sort: "droppedTokens",
      dir: "asc",
      warnings: true,
      harmful: false,
      q: "run-",
    });
  });

  it("clamps nonsense pages and sizes to defaults", () => {
    for (const page of ["0", "-2", "1.5", "abc", "99999999"]) {
      expect(parseSearchParams(runsSearchSchema, { page }).page).toBe(1);
    }
    expect(parseSearchParams(runsSearchSchema, { size: "1000" }).size).toBe(50);
  });
});

describe("runTraceSearchSchema", () => {
  it("reads the tenant, page and the issues filter", () => {
    expect(
      parseSearchParams(runTraceSearchSchema, { tenant: "acme", page: "2", issues: "1" }),
    ).toEqual({
      tenant: "acme",
      page: 2,
      issues: true,
    });
  });
});
