import { describe, expect, it } from "vitest";
import { toolsView } from "@/lib/rollouts/url";
import { overviewSearchSchema, parseSearchParams, runsSearchSchema } from "@/lib/schemas/dashboard";
import { rolloutsSearchSchema } from "@/lib/schemas/rollouts";
import { toolsSearchSchema } from "@/lib/schemas/tools";
import {
  defineView,
  exportHref,
  overviewView,
  rangeChanges,
  runExportHref,
  runsView,
  sortLinks,
} from "./url";

describe("defineView", () => {
  it("takes its defaults from the schema", () => {
    expect(overviewView.defaults).toEqual(parseSearchParams(overviewSearchSchema, {}));
    expect(runsView.defaults).toEqual(parseSearchParams(runsSearchSchema, {}));
    expect(toolsView.defaults).toEqual(parseSearchParams(toolsSearchSchema, {}));
    expect(overviewView.href(overviewView.defaults)).toBe("/");
    expect(runsView.query(runsView.defaults)).toBe("");
  });

  it("follows a changed schema default without a second list to update", () => {
    const view = defineView(
      "/x",
      rolloutsSearchSchema.extend({ range: toolsSearchSchema.shape.range }),
    );
    expect(view.defaults.range).toBe("24h");
    expect(view.href(view.defaults, { range: "7d" })).toBe("/x?range=7d");
    expect(view.href(view.defaults, { range: "24h" })).toBe("/x");
  });

  it("writes from and to only for a custom range", () => {
    const from = "2026-03-10T00:00:00.000Z";
    const to = "2026-03-11T00:00:00.000Z";
    expect(runsView.href(runsView.defaults, { range: "7d", from, to })).toBe("/runs?range=7d");
    expect(runsView.href(runsView.defaults, { range: "custom", from, to })).toBe(
      `/runs?range=custom&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    );
  });

  it("goes back to the first page only where asked", () => {
    const runs = parseSearchParams(runsSearchSchema, { after: "k1" });
    expect(runsView.href(runs, { tenant: "acme" })).toBe("/runs?tenant=acme");
    expect(runsView.href(runs)).toBe("/runs");
    expect(runsView.href(runs, { after: "k2" })).toBe("/runs?after=k2");
    // A link sets one position and drops the others.
    expect(runsView.href(runs, { before: "k0" })).toBe("/runs?before=k0");
    expect(runsView.href(runs, { last: true })).toBe("/runs?last=1");
  });
});

describe("rangeChanges", () => {
  const window = { from: new Date("2026-03-01T00:00:00Z"), to: new Date("2026-03-02T00:00:00Z") };

  it("passes a preset on and a custom range as its resolved bounds", () => {
    expect(rangeChanges({ range: "7d" }, window)).toEqual({
      range: "7d",
      from: undefined,
      to: undefined,
    });
    expect(rangeChanges({ range: "custom" }, window)).toEqual({
      range: "custom",
      from: "2026-03-01T00:00:00.000Z",
      to: "2026-03-02T00:00:00.000Z",
    });
  });
});

describe("sortLinks", () => {
  const keys = ["name", "count"] as const;
  const hrefFor = (changes: { sort: string; dir: string | undefined }) =>
    `?sort=${changes.sort}&dir=${changes.dir ?? "default"}`;

  it("turns the current column round and sorts others in their default direction", () => {
    expect(sortLinks(keys, { sort: "count", dir: "desc" }, hrefFor)).toEqual({
      name: "?sort=name&dir=default",
      count: "?sort=count&dir=asc",
    });
    expect(sortLinks(keys, { sort: "count", dir: "asc" }, hrefFor).count).toBe(
      "?sort=count&dir=desc",
    );
  });

  it("builds real links with a view", () => {
    const state = parseSearchParams(runsSearchSchema, { sort: "droppedTokens", after: "k" });
    const links = sortLinks(["droppedTokens", "runId"], { sort: state.sort, dir: "desc" }, (c) =>
      runsView.href(state, c),
    );
    expect(links).toEqual({
      droppedTokens: "/runs?sort=droppedTokens&dir=asc",
      runId: "/runs?sort=runId",
    });
  });
});

describe("exportHref", () => {
  it("is the download path with the view's query", () => {
    const runs = parseSearchParams(runsSearchSchema, { tenant: "acme", sort: "runId", last: "1" });
    // A link goes back to the first page unless it asks for another; a download has no pages.
    expect(exportHref("runs", runsView, runs)).toBe("/api/export/runs?tenant=acme&sort=runId");
    expect(exportHref("breakdown", overviewView, overviewView.defaults)).toBe(
      "/api/export/breakdown",
    );
    const tools = parseSearchParams(toolsSearchSchema, { tool: "refund", mode: "observe" });
    expect(exportHref("tools", toolsView, tools, { tool: undefined })).toBe(
      "/api/export/tools?mode=observe",
    );
  });

  it("names one run's iterations download by tenant and run id", () => {
    expect(runExportHref({ tenant: "acme", runId: "run 1/2" })).toBe(
      "/api/export/run?tenant=acme&runId=run+1%2F2",
    );
  });
});
