import { describe, expect, it } from "vitest";
import { overviewSearchSchema, parseSearchParams, runsSearchSchema } from "@/lib/schemas/dashboard";
import { overviewHref, runsHref, runTraceHref, toSearchString } from "./url";

describe("toSearchString", () => {
  it("skips empty values, false and defaults", () => {
    expect(toSearchString({ a: "1", b: undefined, c: "", d: false, e: true, f: 2 }, { f: 2 })).toBe(
      "?a=1&e=1",
    );
    expect(toSearchString({})).toBe("");
  });
});

describe("overviewHref", () => {
  const state = parseSearchParams(overviewSearchSchema, {});

  it("is the bare path for the default state", () => {
    expect(overviewHref(state)).toBe("/");
  });

  it("keeps filters and drops from/to unless the range is custom", () => {
    const href = overviewHref(state, { tenant: "acme & co", split: "role", from: "x" });
    expect(href).toBe("/?tenant=acme+%26+co&split=role");
    const custom = overviewHref(state, {
      range: "custom",
      from: "2026-03-10T00:00:00.000Z",
      to: "2026-03-11T00:00:00.000Z",
    });
    expect(new URL(custom, "http://x").searchParams.get("from")).toBe("2026-03-10T00:00:00.000Z");
  });

  it("round-trips through the schema", () => {
    const href = overviewHref(state, {
      range: "7d",
      mode: "enforce",
      sort: "harmfulDrops",
      dir: "asc",
      live: "15",
    });
    const parsed = parseSearchParams(overviewSearchSchema, new URL(href, "http://x").searchParams);
    expect(parsed).toMatchObject({
      range: "7d",
      mode: "enforce",
      sort: "harmfulDrops",
      dir: "asc",
      live: "15",
    });
  });
});

describe("runsHref", () => {
  const state = parseSearchParams(runsSearchSchema, { before: "k4", tenant: "acme" });

  it("goes back to the first page when anything but the position changes", () => {
    expect(runsHref(state, { sort: "droppedTokens" })).toBe("/runs?tenant=acme&sort=droppedTokens");
    expect(runsHref(state, { after: "k5" })).toBe("/runs?tenant=acme&after=k5");
  });

  it("writes flags as 1 and leaves them out when off", () => {
    expect(runsHref(state, { warnings: true, harmful: false })).toBe(
      "/runs?tenant=acme&warnings=1",
    );
  });
});

describe("runTraceHref", () => {
  it("encodes the run id into one path segment", () => {
    expect(runTraceHref("acme", "run/1 ü?")).toBe("/runs/run%2F1%20%C3%BC%3F?tenant=acme");
    expect(runTraceHref("acme", "r1", { page: 1, issues: true })).toBe(
      "/runs/r1?tenant=acme&issues=1",
    );
    expect(runTraceHref("acme", "r1", { page: 3 })).toBe("/runs/r1?tenant=acme&page=3");
  });
});
