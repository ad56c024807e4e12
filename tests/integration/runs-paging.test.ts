/**
 * The runs list paged by key, against real PostgreSQL: for every sort column in both
 * directions, walking Next from the first page and Previous from the last one each visit every
 * run once, in the order the list promises (the column, then tenant and run id the same way
 * round), through ties and through values beyond a double's precision; counts stop at their
 * cap; a page before the start is the first page, a page after the end the last one.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { tenantsScope } from "@/lib/auth/scope";
import type { RunsPosition } from "@/lib/dashboard/runs-position";
import {
  countRunsBefore,
  countRunsUpTo,
  listRunsInBatches,
  listRunsPage,
  type RunsFilter,
  type RunsOrder,
} from "@/lib/db/queries/runs";
import { RUN_SORT_KEYS, type RunSortKey } from "@/lib/schemas/dashboard";
import { deleteTenantRows } from "../support/tenant-rows";

const stamp = Date.now().toString(36);
const TENANTS = [`paging-a-${stamp}`, `paging-b-${stamp}`];
const RUNS_PER_TENANT = 23;
const SIZE = 7;
const client = new pg.Client({ connectionString: inject("databaseUrl") });
const filter: RunsFilter = { scope: tenantsScope(TENANTS) };

/** Each sort key's column, for the expected order read straight from the table. */
const COLUMNS: Record<RunSortKey, string[]> = {
  lastSeen: ["last_seen", "tenant_id", "run_id"],
  firstSeen: ["first_seen", "tenant_id", "run_id"],
  runId: ['run_id COLLATE "C"', "tenant_id"],
  tenant: ["tenant_id", "run_id"],
  decisions: ["decisions", "tenant_id", "run_id"],
  droppedTokens: ["dropped_tokens", "tenant_id", "run_id"],
  reinstatements: ["reinstatements", "tenant_id", "run_id"],
  emptyPaletteWarnings: ["empty_palette_warnings", "tenant_id", "run_id"],
  stageErrors: ["stage_errors", "tenant_id", "run_id"],
  harmfulDrops: ["harmful_drops", "tenant_id", "run_id"],
};

const idOf = (row: { tenantId: string; runId: string }) => `${row.tenantId}/${row.runId}`;

async function expectedOrder(order: RunsOrder): Promise<string[]> {
  const dir = order.dir === "asc" ? "ASC" : "DESC";
  const { rows } = await client.query<{ id: string }>(
    `SELECT tenant_id || '/' || run_id AS id FROM runs WHERE tenant_id = ANY($1::text[])
      ORDER BY ${COLUMNS[order.sort].map((column) => `${column} ${dir}`).join(", ")}`,
    [TENANTS],
  );
  return rows.map((row) => row.id);
}

beforeAll(async () => {
  await client.connect();
  const base = Date.now() - 3_600_000;
  for (const tenant of TENANTS) {
    await client.query("INSERT INTO tenants (id) VALUES ($1)", [tenant]);
    // Few distinct values per column, so most of each order is ties broken by tenant and run
    // id; the same run ids in both tenants, so ties on run id are broken by tenant. Two runs'
    // dropped tokens differ only past 2^53, where a double would make them equal.
    await client.query(
      `INSERT INTO runs (tenant_id, run_id, first_seen, last_seen, decisions, max_iteration, roles,
                         modes, dropped_tokens, reinstatements, empty_palette_warnings,
                         stage_errors, harmful_drops)
       SELECT $1, 'run-' || lpad((n % 11)::text, 2, '0') || '-' || n,
              to_timestamp(($2::bigint + (n % 4) * 1000) / 1000.0),
              to_timestamp(($2::bigint + (n % 5) * 60000 + 1) / 1000.0),
              n % 3 + 1, n % 4, '{action}', '{observe}',
              CASE WHEN n = 1 THEN 9007199254740993 WHEN n = 2 THEN 9007199254740992
                   ELSE (n % 6) * 100 END,
              n % 2, (n % 7 = 0)::int, 0, (n % 5 = 0)::int
         FROM generate_series(1, $3::int) AS n`,
      [tenant, base, RUNS_PER_TENANT],
    );
  }
});

afterAll(async () => {
  for (const tenant of TENANTS) await deleteTenantRows(client, tenant);
  await client.end();
});

async function walk(order: RunsOrder, start: RunsPosition, backwards: boolean) {
  const pages = [];
  let position = start;
  for (let guard = 0; guard < 100; guard++) {
    const page = await listRunsPage(filter, order, position, SIZE);
    pages.push(page);
    const more = backwards ? page.hasPrevious : page.hasNext;
    const key = backwards ? page.firstKey : page.lastKey;
    if (!more || !key) return pages;
    position = backwards ? { kind: "before", key } : { kind: "after", key };
  }
  throw new Error("the walk did not end");
}

describe("the runs list paged by key", () => {
  for (const sort of RUN_SORT_KEYS) {
    for (const dir of ["asc", "desc"] as const) {
      it(`visits every run once, in order, sorted by ${sort} ${dir}`, async () => {
        const order = { sort, dir };
        const expected = await expectedOrder(order);
        expect(expected).toHaveLength(TENANTS.length * RUNS_PER_TENANT);

        const forwards = await walk(order, { kind: "first" }, false);
        expect(forwards.flatMap((page) => page.rows.map(idOf))).toEqual(expected);
        expect(forwards.map((page) => page.hasPrevious)).toEqual(
          forwards.map((_, index) => index > 0),
        );
        for (const page of forwards) {
          const before = await countRunsBefore(filter, order, page, expected.length);
          expect(before).toBe(expected.indexOf(idOf(page.rows[0] ?? { tenantId: "", runId: "" })));
        }

        const backwards = await walk(order, { kind: "last" }, true);
        const lastPage = backwards[0];
        const firstPage = backwards.at(-1);
        expect(lastPage?.rows.map(idOf)).toEqual(expected.slice(-SIZE));
        expect(lastPage?.hasNext).toBe(false);
        // The walk back ends on the first page, full, though fewer than a page of runs were
        // left before the page after it.
        expect(firstPage?.position).toEqual({ kind: "first" });
        expect(firstPage?.rows.map(idOf)).toEqual(expected.slice(0, SIZE));
        const seen = [...backwards].reverse().flatMap((page) => page.rows.map(idOf));
        expect([...new Set(seen)]).toEqual(expected);
      });
    }
  }

  it("shows the last page for a key past the end", async () => {
    const order = { sort: "droppedTokens", dir: "desc" } as const;
    const expected = await expectedOrder(order);
    const last = await listRunsPage(filter, order, { kind: "last" }, SIZE);
    const key = last.lastKey;
    if (!key) throw new Error("no last row");
    const past = await listRunsPage(filter, order, { kind: "after", key }, SIZE);
    expect(past.position).toEqual({ kind: "last" });
    expect(past.rows.map(idOf)).toEqual(expected.slice(-SIZE));
    expect(past.hasNext).toBe(false);
    expect(await countRunsBefore(filter, order, past, expected.length)).toBe(
      expected.length - SIZE,
    );
  });

  it("counts exactly up to the cap and says more than it past the cap", async () => {
    const total = TENANTS.length * RUNS_PER_TENANT;
    expect(await countRunsUpTo(filter, total)).toBe(total);
    expect(await countRunsUpTo(filter, 10)).toBe(11);
    expect(await countRunsUpTo({ ...filter, tenant: TENANTS[0] }, 1_000)).toBe(RUNS_PER_TENANT);
  });

  it("downloads in batches, each after the last key of the one before", async () => {
    const order = { sort: "lastSeen", dir: "desc" } as const;
    const expected = await expectedOrder(order);
    const batches: string[][] = [];
    for await (const batch of listRunsInBatches(filter, order, { batchSize: 5, max: 23 })) {
      batches.push(batch.map(idOf));
    }
    expect(batches.map((batch) => batch.length)).toEqual([5, 5, 5, 5, 3]);
    expect(batches.flat()).toEqual(expected.slice(0, 23));
  });
});
