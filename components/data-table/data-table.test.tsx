import { cleanup, render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { RunRow } from "@/lib/dashboard/types";
import { runsHref, runTraceHref } from "@/lib/dashboard/url";
import { parseSearchParams, RUN_SORT_KEYS, runsSearchSchema } from "@/lib/schemas/dashboard";
import { runsColumns } from "../runs/runs-columns";
import { createDataColumnHelper, DataTable } from "./data-table";

function run(overrides: Partial<RunRow>): RunRow {
  return {
    tenantId: "acme",
    runId: "run-1",
    firstSeen: "2026-03-02T07:12:00.000Z",
    lastSeen: "2026-03-02T07:40:00.000Z",
    decisions: 12,
    maxIteration: 11,
    roles: ["action"],
    modes: ["observe"],
    droppedTokens: 1_234,
    reinstatements: 0,
    emptyPaletteWarnings: 0,
    stageErrors: 0,
    harmfulDrops: 0,
    ...overrides,
  };
}

/** Rows as the server hands them over: already sorted by last seen, newest first. */
const ROWS: RunRow[] = [
  run({
    runId: "run-b",
    tenantId: "globex",
    lastSeen: "2026-03-02T09:00:00.000Z",
    decisions: 1_500,
    roles: ["action", "planner"],
    modes: ["observe", "enforce"],
    droppedTokens: 70_311_631,
    reinstatements: 3,
    harmfulDrops: 2,
  }),
  run({ runId: "run-a", tenantId: "acme", lastSeen: "2026-03-02T08:00:00.000Z" }),
];

/** The runs page's state and sort links: each sortable column links to its sort. */
const SEARCH = parseSearchParams(runsSearchSchema, { tenant: "acme" });
const SORT_LINKS = Object.fromEntries(
  RUN_SORT_KEYS.map((key) => [
    key,
    runsHref(SEARCH, { sort: key, dir: key === "lastSeen" ? "asc" : undefined }),
  ]),
);

function renderRuns(rows: RunRow[] = ROWS) {
  return render(
    <DataTable
      columns={runsColumns}
      data={rows}
      caption="Runs, one page at a time"
      getRowId={(row) => `${row.tenantId}\u0000${row.runId}`}
      sort={{ id: "lastSeen", desc: true }}
      sortLinks={SORT_LINKS}
      emptyMessage="No runs match these filters."
      testId="runs-table"
    />,
  );
}

const headerCells = () => screen.getAllByRole("columnheader");
const bodyRows = () =>
  within(screen.getAllByRole("rowgroup")[1] as HTMLElement).getAllByRole("row");

describe("DataTable", () => {
  it("is a table named by its caption, with one header per column in order", () => {
    renderRuns();
    const table = screen.getByRole("table", { name: "Runs, one page at a time" });
    expect(table.getAttribute("data-testid")).toBe("runs-table");
    expect(headerCells().map((th) => th.textContent?.replace(/[▲▼↕]/g, ""))).toEqual([
      "Run",
      "Tenant",
      "Roles",
      "Modes",
      "Iterations",
      "First seen",
      "Last seen",
      "Dropped tokens",
      "Reinstatements",
      "Empty palettes",
      "Stage errors",
      "Harmful drops",
    ]);
  });

  it("links each sortable header to its sort and marks the current sort", () => {
    renderRuns();
    const lastSeen = screen.getByRole("columnheader", { name: /Last seen/ });
    expect(lastSeen.getAttribute("aria-sort")).toBe("descending");
    const lastSeenLink = within(lastSeen).getByRole("link");
    expect(lastSeenLink.getAttribute("href")).toBe("/runs?tenant=acme&dir=asc");
    expect(lastSeenLink.textContent).toBe("Last seen▼");

    const tenant = screen.getByRole("columnheader", { name: /Tenant/ });
    expect(tenant.getAttribute("aria-sort")).toBeNull();
    expect(within(tenant).getByRole("link").getAttribute("href")).toBe(
      "/runs?tenant=acme&sort=tenant",
    );
    expect(within(tenant).getByRole("link").textContent).toBe("Tenant↕");

    // Only the current sort carries aria-sort.
    expect(headerCells().filter((th) => th.hasAttribute("aria-sort"))).toEqual([lastSeen]);
  });

  it("leaves columns without a sort link as plain text", () => {
    renderRuns();
    for (const name of ["Roles", "Modes"]) {
      const header = screen.getByRole("columnheader", { name });
      expect(within(header).queryByRole("link")).toBeNull();
    }
    // Every other header has exactly one link, to a /runs URL.
    const linked = headerCells().filter((th) => within(th).queryByRole("link"));
    expect(linked).toHaveLength(10);
  });

  it("shows the rows in the order given (the server sorts), with their cells formatted", () => {
    renderRuns();
    const rows = bodyRows();
    expect(rows).toHaveLength(2);
    const first = within(rows[0] as HTMLElement).getAllByRole("cell");
    expect(first.map((cell) => cell.getAttribute("data-column"))).toEqual([
      "runId",
      "tenant",
      "roles",
      "modes",
      "decisions",
      "firstSeen",
      "lastSeen",
      "droppedTokens",
      "reinstatements",
      "emptyPaletteWarnings",
      "stageErrors",
      "harmfulDrops",
    ]);
    const text = first.map((cell) => cell.textContent);
    expect(text[0]).toBe("run-b");
    expect(text[1]).toBe("globex");
    expect(text[4]).toBe("1,500");
    expect(text[7]).toBe("70,311,631");
    expect(text[8]).toBe("3");
    expect(text[11]).toBe("2");
    expect(
      within(first[0] as HTMLElement)
        .getByRole("link")
        .getAttribute("href"),
    ).toBe(runTraceHref("globex", "run-b"));
    expect(within(rows[1] as HTMLElement).getAllByRole("cell")[0]?.textContent).toBe("run-a");

    // Reversing the input reverses the rows: the table never re-sorts on its own.
    cleanup();
    renderRuns([...ROWS].reverse());
    expect(bodyRows().map((row) => within(row).getAllByRole("cell")[0]?.textContent)).toEqual([
      "run-a",
      "run-b",
    ]);
  });

  it("right-aligns numeric columns and puts a column's description on its header", () => {
    renderRuns();
    const iterations = screen.getByRole("columnheader", { name: /Iterations/ });
    expect(iterations.className).toBe("num");
    expect(iterations.getAttribute("title")).toBe("Decisions stored for the run");
    expect(screen.getByRole("columnheader", { name: /Tenant/ }).className).toBe("");
    const cells = within(bodyRows()[0] as HTMLElement).getAllByRole("cell");
    expect(cells[4]?.className).toBe("num");
    expect(cells[1]?.className).toBe("");
  });

  it("shows the empty message across every column when there are no rows", () => {
    renderRuns([]);
    const rows = bodyRows();
    expect(rows).toHaveLength(1);
    const cell = within(rows[0] as HTMLElement).getByRole("cell");
    expect(cell.textContent).toBe("No runs match these filters.");
    expect(cell.getAttribute("colspan")).toBe(String(runsColumns.length));
  });
});

describe("DataTable cell context", () => {
  interface Line {
    name: string;
    size: number | null;
  }
  const column = createDataColumnHelper<Line>();

  it("gives renderers the value, the row, a fallback for an empty value, and the cell on demand", () => {
    const columns = [
      column.accessor("name", {
        header: "Name",
        cell: (info) => `${info.getValue()} (cell ${info.cell.id}, row ${info.row.id})`,
      }),
      column.accessor("size", {
        header: "Size",
        cell: (info) => String(info.renderValue() ?? "none"),
      }),
      column.display({ id: "static", header: "Static", cell: "fixed" }),
    ];
    render(
      <DataTable
        columns={columns}
        data={[
          { name: "alpha", size: 3 },
          { name: "beta", size: null },
        ]}
        caption="Lines"
        getRowId={(line) => line.name}
      />,
    );
    const rows = within(screen.getByRole("table")).getAllByRole("row").slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole("cell")
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ["alpha (cell alpha_name, row alpha)", "3", "fixed"],
      ["beta (cell beta_name, row beta)", "none", "fixed"],
    ]);
    cleanup();
  });
});
