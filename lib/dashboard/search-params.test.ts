import { describe, expect, it } from "vitest";
import {
  overviewSearchSchema,
  parseSearchParams,
  readSearchParams,
  runExportSearchSchema,
  runsSearchSchema,
  runTraceSearchSchema,
} from "@/lib/schemas/dashboard";

describe("overviewSearchSchema", () => {
  it("has defaults for an empty URL", () => {
    expect(parseSearchParams(overviewSearchSchema, {})).toEqual({
      range: "24h",
      split: "tenant",
      sort: "decisions",
      lines: "top",
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
      lines: "most",
    });
    expect(parsed).toEqual({ range: "24h", split: "tenant", sort: "decisions", lines: "top" });
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

  it("filters by every stored mode, off (unrouted agents) included", () => {
    for (const mode of ["observe", "enforce", "off"]) {
      expect(parseSearchParams(overviewSearchSchema, { mode }).mode).toBe(mode);
      expect(readSearchParams(runsSearchSchema, new URLSearchParams({ mode }))).toMatchObject({
        ok: true,
        data: { mode },
      });
    }
    expect(readSearchParams(runsSearchSchema, new URLSearchParams("mode=unrouted"))).toEqual({
      ok: false,
      message: expect.stringContaining("mode: "),
    });
  });
});

describe("runsSearchSchema", () => {
  it("parses paging, sorting and flags", () => {
    const parsed = parseSearchParams(
      runsSearchSchema,
      new URLSearchParams(
        "after=abc&last=1&size=25&sort=droppedTokens&dir=asc&warnings=1&harmful=0&q=run-",
      ),
    );
    expect(parsed).toMatchObject({
      range: "all",
      after: "abc",
      last: true,
      size: 25,
      sort: "droppedTokens",
      dir: "asc",
      warnings: true,
      harmful: false,
      q: "run-",
    });
  });

  it("no longer sorts by the highest iteration, which is not a column of the list", () => {
    expect(parseSearchParams(runsSearchSchema, { sort: "maxIteration" }).sort).toBe("lastSeen");
    expect(readSearchParams(runsSearchSchema, new URLSearchParams("sort=maxIteration"))).toEqual({
      ok: false,
      message: expect.stringContaining("sort: "),
    });
  });

  it("drops nonsense positions and sizes for their defaults", () => {
    expect(parseSearchParams(runsSearchSchema, { after: "x".repeat(2_001) }).after).toBeUndefined();
    expect(parseSearchParams(runsSearchSchema, { last: "maybe" }).last).toBe(false);
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

describe("values PostgreSQL or JavaScript dates cannot hold", () => {
  it("pages drop text with NUL and dates outside the instant window", () => {
    const parsed = parseSearchParams(
      runsSearchSchema,
      new URLSearchParams(
        "tenant=a%00b&role=r%00&q=%00&range=custom&from=-271821-04-20T00:00:00Z&to=2026-01-01T00:00:00Z",
      ),
    );
    expect(parsed).toMatchObject({ range: "custom", from: undefined, to: "2026-01-01T00:00:00Z" });
    expect(parsed.tenant).toBeUndefined();
    expect(parsed.role).toBeUndefined();
    expect(parsed.q).toBeUndefined();
    for (const from of [
      "+275760-09-13T00:00:00Z",
      "0000-01-01T00:00:00Z",
      "1969-12-31T23:59:59Z",
    ]) {
      expect(
        parseSearchParams(overviewSearchSchema, { range: "custom", from }).from,
      ).toBeUndefined();
    }
    expect(
      parseSearchParams(overviewSearchSchema, { range: "custom", from: "1970-01-01T00:00:00Z" })
        .from,
    ).toBe("1970-01-01T00:00:00Z");
  });

  it("exports refuse them, naming the parameter and the rule", () => {
    const tenant = readSearchParams(runsSearchSchema, new URLSearchParams("tenant=a%00b"));
    expect(tenant).toEqual({
      ok: false,
      message: "Invalid query parameter tenant: must not contain NUL (%00)",
    });
    const from = readSearchParams(
      overviewSearchSchema,
      new URLSearchParams("range=custom&from=-271821-04-20T00:00:00Z&sort=nope"),
    );
    expect(from.ok).toBe(false);
    if (!from.ok) {
      expect(from.message).toContain(
        "from: expected an ISO-8601 date and time from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z",
      );
      expect(from.message).toContain("sort: ");
    }
    expect(readSearchParams(runExportSearchSchema, new URLSearchParams("runId=r1"))).toEqual({
      ok: false,
      message: "Invalid query parameter tenant: required",
    });
  });

  it("reads repeated parameters as a page does: the first one", () => {
    const read = readSearchParams(runsSearchSchema, new URLSearchParams("tenant=a&tenant=b%00"));
    expect(read).toMatchObject({ ok: true, data: { tenant: "a" } });
  });

  it("reads flags written as 0, false or off as off", () => {
    for (const value of ["0", "false", "off"]) {
      expect(readSearchParams(runsSearchSchema, { warnings: value })).toMatchObject({
        ok: true,
        data: { warnings: false },
      });
    }
    expect(parseSearchParams(runsSearchSchema, { warnings: "on" }).warnings).toBe(true);
  });
});
