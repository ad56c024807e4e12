/**
 * The context tax and mode-off reads against real PostgreSQL: per-tool and per-day sums of
 * `tool_rollup_day` and `tool_rollup_hour` × `tool_sizes` equal what the raw rows give for every filter and tenant
 * scope; LLM calls without a tool list are counted per scope; an unrouted run's tool runs are
 * joined to its calls on the run trace; rollouts leave mode off out and count it.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type TenantScope, tenantsScope } from "@/lib/auth/scope";
import type { Period } from "@/lib/dashboard/time-range";
import { groupToolRuns } from "@/lib/dashboard/tool-runs";
import {
  countCallsWithoutTools,
  sumContextTaxByDay,
  sumContextTaxByTenantTool,
  sumContextTaxWithDays,
} from "@/lib/db/queries/context-tax";
import { countUnroutedDecisions, sumCohortCells } from "@/lib/db/queries/rollouts";
import type { RollupFilter } from "@/lib/db/queries/rollup";
import { listPageSpans, listRunDecisions } from "@/lib/db/queries/run-trace";
import type { StoredMode } from "@/lib/schemas/events";
import { sumContextTaxPerTool } from "@/lib/tools/context-tax";
import type { ContextTaxRow } from "@/lib/tools/types";
import { insertUnroutedRun } from "../support/otel-rows";
import { deleteTenantRows } from "../support/tenant-rows";

/** The per-tool context tax, summed over tenants as the tools page does. */
async function sumContextTaxByTool(filter: RollupFilter, period: Period) {
  return sumContextTaxPerTool(await sumContextTaxByTenantTool(filter, period));
}

/** The daily totals, with the window's estimates as the tools page passes them. */
async function sumDays(filter: RollupFilter, period: Period) {
  return sumContextTaxByDay(filter, period, await sumContextTaxByTenantTool(filter, period));
}

const suffix = Date.now().toString(36);
const TENANTS = [`tax-a-${suffix}`, `tax-b-${suffix}`] as const;
const ROLES = ["planner", "action"] as const;
const MODES: readonly StoredMode[] = ["observe", "enforce", "off"];
const TOOLS = ["search_docs", "create_ticket", "refund_order", "escalate", "lookup", "never"];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Inside the prune horizon, away from other tests' rows in time. */
const anchor = Math.floor(Date.now() / DAY) * DAY - 12 * DAY;

interface RawRow {
  tenant: string;
  role: string;
  mode: StoredMode;
  bucket: Date;
  tool: string;
  offered: number;
  selected: number;
  dropped: number;
  called: number;
  droppedTokens: number;
  unusedOffers: number;
}

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const next = random(14);
const int = (max: number) => Math.floor(next() * (max + 1));

const rows: RawRow[] = [];
for (const tenant of TENANTS) {
  for (const role of ROLES) {
    for (const mode of MODES) {
      for (let hour = 0; hour < 72; hour += 1 + int(7)) {
        for (const tool of TOOLS) {
          if (next() < 0.3) continue;
          const offered = 1 + int(20);
          const selected = mode === "off" ? offered : int(offered);
          const dropped = offered - selected;
          const inFront = mode === "enforce" ? selected : offered;
          // "never" is offered but never called; "escalate" has neither size nor drops in b.
          const called = tool === "never" ? 0 : int(inFront);
          rows.push({
            tenant,
            role,
            mode,
            bucket: new Date(anchor + hour * HOUR),
            tool,
            offered,
            selected,
            dropped: tool === "escalate" && tenant === TENANTS[1] ? 0 : dropped,
            called,
            droppedTokens:
              tool === "escalate" && tenant === TENANTS[1] ? 0 : dropped * (10 + int(90)) + 0.5,
            unusedOffers: inFront - called,
          });
        }
      }
    }
  }
}

/** Definition sizes: tenant a has every tool but `lookup`; tenant b only `search_docs`. */
const SIZES: Record<string, Record<string, number>> = {
  [TENANTS[0]]: {
    search_docs: 120,
    create_ticket: 340,
    refund_order: 95,
    escalate: 60,
    never: 800,
  },
  [TENANTS[1]]: { search_docs: 150 },
};

const WINDOW: Period = { from: new Date(anchor + 6 * HOUR), to: new Date(anchor + 60 * HOUR) };

/** What the context tax per tool should be, summed in JavaScript over the raw rows. */
function expectedByTool(filter: Omit<RollupFilter, "scope">, tenants: readonly string[]) {
  const inside = rows.filter(
    (row) =>
      tenants.includes(row.tenant) &&
      row.bucket >= WINDOW.from &&
      row.bucket < WINDOW.to &&
      (!filter.tenant || row.tenant === filter.tenant) &&
      (!filter.role || row.role === filter.role) &&
      (!filter.mode || row.mode === filter.mode),
  );
  const perTenantTool = new Map<string, { dropped: number; droppedTokens: number }>();
  for (const row of inside) {
    const key = `${row.tenant}/${row.tool}`;
    const sums = perTenantTool.get(key) ?? { dropped: 0, droppedTokens: 0 };
    sums.dropped += row.dropped;
    sums.droppedTokens += row.droppedTokens;
    perTenantTool.set(key, sums);
  }
  const tokensOf = (tenant: string, tool: string): number | null => {
    const size = SIZES[tenant]?.[tool];
    if (size !== undefined) return size;
    const sums = perTenantTool.get(`${tenant}/${tool}`);
    return sums && sums.dropped > 0 ? sums.droppedTokens / sums.dropped : null;
  };
  const byTool = new Map<string, ContextTaxRow>();
  for (const row of inside) {
    const line = byTool.get(row.tool) ?? {
      tool: row.tool,
      offers: 0,
      calls: 0,
      unusedOffers: 0,
      estimatedOffers: 0,
      definitionOffers: 0,
      offeredTokens: 0,
      unusedTokens: 0,
    };
    const offers = row.mode === "enforce" ? row.selected : row.offered;
    const tokens = tokensOf(row.tenant, row.tool);
    line.offers += offers;
    line.calls += row.called;
    line.unusedOffers += row.unusedOffers;
    if (tokens !== null) {
      line.estimatedOffers += offers;
      line.offeredTokens += offers * tokens;
      line.unusedTokens += row.unusedOffers * tokens;
    }
    if (SIZES[row.tenant]?.[row.tool] !== undefined) line.definitionOffers += offers;
    byTool.set(row.tool, line);
  }
  return [...byTool.values()].sort((a, b) => (a.tool < b.tool ? -1 : 1));
}

function closeTo(actual: ContextTaxRow[], expected: ContextTaxRow[]) {
  const sorted = [...actual].sort((a, b) => (a.tool < b.tool ? -1 : 1));
  expect(sorted.map(({ offeredTokens, unusedTokens, ...rest }) => rest)).toEqual(
    expected.map(({ offeredTokens, unusedTokens, ...rest }) => rest),
  );
  sorted.forEach((row, index) => {
    expect(row.offeredTokens).toBeCloseTo(expected[index]?.offeredTokens ?? Number.NaN, 4);
    expect(row.unusedTokens).toBeCloseTo(expected[index]?.unusedTokens ?? Number.NaN, 4);
  });
}

let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
  for (const row of rows) {
    await db.query(
      `INSERT INTO tool_rollup_hour (tenant_id, role, mode, bucket, tool, offered, selected,
         dropped, called, harmful_drops, dropped_tokens, unused_offers)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, $11)`,
      [
        row.tenant,
        row.role,
        row.mode,
        row.bucket,
        row.tool,
        row.offered,
        row.selected,
        row.dropped,
        row.called,
        row.droppedTokens,
        row.unusedOffers,
      ],
    );
  }
  // The day rollup holds the hours' sums per UTC day, as ingest keeps it: WINDOW reads its
  // middle day from it and the hours either side from tool_rollup_hour.
  await db.query(
    `INSERT INTO tool_rollup_day (tenant_id, role, mode, bucket, tool, offered, selected, dropped,
       called, harmful_drops, dropped_tokens, unused_offers)
     SELECT tenant_id, role, mode, date_trunc('day', bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
            tool, sum(offered), sum(selected), sum(dropped), sum(called), sum(harmful_drops),
            sum(dropped_tokens), sum(unused_offers)
       FROM tool_rollup_hour WHERE tenant_id = ANY($1::text[])
      GROUP BY 1, 2, 3, 4, 5`,
    [TENANTS],
  );
  for (const [tenant, sizes] of Object.entries(SIZES)) {
    for (const [tool, tokens] of Object.entries(sizes)) {
      await db.query(
        "INSERT INTO tool_sizes (tenant_id, tool, tokens, seen_at) VALUES ($1, $2, $3, now())",
        [tenant, tool, tokens],
      );
    }
  }
  // LLM calls without a tool list: inside the window, and one hour before it (not counted).
  for (const [tenant, role, hour, calls] of [
    [TENANTS[0], "planner", 10, 7],
    [TENANTS[0], "action", 30, 5],
    [TENANTS[1], "planner", 20, 11],
    [TENANTS[0], "planner", 5, 1_000],
  ] as const) {
    await db.query(
      `INSERT INTO otel_call_rollup_hour (tenant_id, role, bucket, calls_without_tools)
       VALUES ($1, $2, $3, $4)`,
      [tenant, role, new Date(anchor + hour * HOUR), calls],
    );
  }
});

afterAll(async () => {
  for (const tenant of [...TENANTS, `tax-off-${suffix}`]) {
    for (const table of ["tool_sizes", "otel_call_rollup_hour", "otel_spans"]) {
      await db.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [tenant]);
    }
    await deleteTenantRows(db, tenant);
  }
  await db.end();
});

const both = tenantsScope(TENANTS);
const onlyA = tenantsScope([TENANTS[0]]);

describe("sumContextTaxByTool", () => {
  it("equals the sums over the raw rows for every tenant, role and mode filter", async () => {
    for (const tenant of [undefined, ...TENANTS]) {
      for (const role of [undefined, ...ROLES]) {
        for (const mode of [undefined, ...MODES]) {
          const filter = { tenant, role, mode };
          const actual = await sumContextTaxByTool({ scope: both, ...filter }, WINDOW);
          closeTo(actual, expectedByTool(filter, TENANTS));
        }
      }
    }
  });

  it("reads only the viewer's tenants", async () => {
    const actual = await sumContextTaxByTool({ scope: onlyA }, WINDOW);
    closeTo(actual, expectedByTool({}, [TENANTS[0]]));
    const none = await sumContextTaxByTool({ scope: tenantsScope([]) }, WINDOW);
    expect(none).toEqual([]);
  });

  it("has no estimate for a tool without a definition or recorded drops", async () => {
    const b = TENANTS[1];
    const lines = await sumContextTaxByTool({ scope: both, tenant: b, mode: "off" }, WINDOW);
    // Mode off drops nothing: only search_docs has a definition size in tenant b.
    const estimated = lines.filter((line) => line.estimatedOffers > 0).map((line) => line.tool);
    expect(estimated).toEqual(["search_docs"]);
    const all = await sumContextTaxByTool({ scope: both, tenant: b }, WINDOW);
    const escalate = all.find((line) => line.tool === "escalate");
    expect(escalate?.offers).toBeGreaterThan(0);
    expect(escalate?.estimatedOffers).toBe(0);
  });
});

describe("sumContextTaxByDay", () => {
  it("splits the same totals by UTC day, tenant and role", async () => {
    const scopes: [TenantScope, readonly string[]][] = [
      [both, TENANTS],
      [onlyA, [TENANTS[0]]],
    ];
    for (const [scope, tenants] of scopes) {
      const days = await sumDays({ scope }, WINDOW);
      expect(new Set(days.map((day) => day.tenant))).toEqual(new Set(tenants));
      for (const line of days) expect(line.day.getTime() % DAY).toBe(0);
      const tools = expectedByTool({}, tenants);
      const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
      expect(sum(days.map((day) => day.offers))).toBe(sum(tools.map((tool) => tool.offers)));
      expect(sum(days.map((day) => day.unusedOffers))).toBe(
        sum(tools.map((tool) => tool.unusedOffers)),
      );
      expect(sum(days.map((day) => day.unusedTokens))).toBeCloseTo(
        sum(tools.map((tool) => tool.unusedTokens)),
        4,
      );
      expect(sum(days.map((day) => day.offeredTokens))).toBeCloseTo(
        sum(tools.map((tool) => tool.offeredTokens)),
        4,
      );
    }
    // One day, tenant and role against its raw rows (offers only: tokens need the window).
    const days = await sumDays({ scope: both }, WINDOW);
    const first = days.at(-1);
    if (!first) throw new Error("no day lines");
    const raw = rows.filter(
      (row) =>
        row.tenant === first.tenant &&
        row.role === first.role &&
        row.bucket >= WINDOW.from &&
        row.bucket.getTime() >= first.day.getTime() &&
        row.bucket.getTime() < first.day.getTime() + DAY,
    );
    expect(first.offers).toBe(
      raw.reduce((sum, row) => sum + (row.mode === "enforce" ? row.selected : row.offered), 0),
    );
  });
});

describe("sumContextTaxWithDays", () => {
  it("gives both reads' results in one pass, for every filter and tenant scope", async () => {
    const filters: RollupFilter[] = [{ scope: onlyA }, { scope: tenantsScope([]) }];
    for (const tenant of [undefined, ...TENANTS]) {
      for (const role of [undefined, ...ROLES]) {
        for (const mode of [undefined, ...MODES]) filters.push({ scope: both, tenant, role, mode });
      }
    }
    for (const filter of filters) {
      const { tenantTools, days } = await sumContextTaxWithDays(filter, WINDOW);
      const expectedTools = await sumContextTaxByTenantTool(filter, WINDOW);
      expect(tenantTools.map(({ tenant, tool }) => [tenant, tool])).toEqual(
        expectedTools.map(({ tenant, tool }) => [tenant, tool]),
      );
      tenantTools.forEach((row, index) => {
        const expected = expectedTools[index];
        if (!expected) throw new Error("missing row");
        for (const key of Object.keys(expected) as (keyof typeof expected)[]) {
          if (typeof expected[key] === "number") {
            expect(row[key], `${row.tenant}/${row.tool} ${key}`).toBeCloseTo(expected[key], 6);
          } else {
            expect(row[key], `${row.tenant}/${row.tool} ${key}`).toEqual(expected[key]);
          }
        }
      });
      const expectedDays = await sumContextTaxByDay(filter, WINDOW, expectedTools);
      expect(days.length).toBe(expectedDays.length);
      days.forEach((line, index) => {
        const expected = expectedDays[index];
        if (!expected) throw new Error("missing day line");
        expect([line.day, line.tenant, line.role]).toEqual([
          expected.day,
          expected.tenant,
          expected.role,
        ]);
        expect([line.offers, line.unusedOffers]).toEqual([expected.offers, expected.unusedOffers]);
        expect(line.offeredTokens).toBeCloseTo(expected.offeredTokens, 6);
        expect(line.unusedTokens).toBeCloseTo(expected.unusedTokens, 6);
      });
    }
  });
});

describe("countCallsWithoutTools", () => {
  it("counts the window's calls for the filter's tenants and role, ignoring a mode", async () => {
    expect(await countCallsWithoutTools({ scope: both }, WINDOW)).toBe(23);
    expect(await countCallsWithoutTools({ scope: onlyA }, WINDOW)).toBe(12);
    expect(await countCallsWithoutTools({ scope: both, role: "planner" }, WINDOW)).toBe(18);
    expect(await countCallsWithoutTools({ scope: both, tenant: TENANTS[1] }, WINDOW)).toBe(11);
    expect(await countCallsWithoutTools({ scope: both, mode: "off" }, WINDOW)).toBe(23);
    expect(await countCallsWithoutTools({ scope: tenantsScope([]) }, WINDOW)).toBe(0);
  });
});

describe("an unrouted run (mode off)", () => {
  const tenant = `tax-off-${suffix}`;
  const runId = `otel-run-${suffix}`;
  const start = new Date(anchor + 2 * DAY + 30 * 60_000);

  beforeAll(async () => {
    await insertUnroutedRun(db, {
      tenant,
      runId,
      role: "support-bot",
      start,
      calls: [
        {
          offered: ["search_docs", "create_ticket", "escalate"],
          called: ["search_docs", "create_ticket"],
          toolRuns: [
            { tool: "search_docs", afterMs: 450, durationMs: 12.5 },
            { tool: "create_ticket", afterMs: 460, durationMs: 30, error: "quota exceeded" },
          ],
        },
        {
          offered: ["search_docs", "create_ticket", "escalate"],
          called: ["escalate"],
          toolRuns: [{ tool: "escalate", afterMs: 500, durationMs: 5, withCallId: false }],
        },
        { offered: ["search_docs", "create_ticket", "escalate"], called: [] },
        { offered: ["search_docs", "create_ticket", "escalate"], called: null },
      ],
      sizes: { search_docs: 100, create_ticket: 200, escalate: 300 },
    });
  });

  it("joins each tool run to the decision of the call that asked for it", async () => {
    const decisions = await listRunDecisions(tenant, runId, { offset: 0, limit: 25 });
    expect(decisions.map((decision) => decision.mode)).toEqual(["off", "off", "off", "off"]);
    const spans = await listPageSpans(
      tenant,
      runId,
      decisions.map((decision) => decision.id),
    );
    const grouped = groupToolRuns(spans.calls, spans.toolRuns);
    const [first, second, third] = decisions;
    expect(
      grouped.get(first?.id ?? -1)?.map((run) => [run.name, run.durationMs, run.error]),
    ).toEqual([
      ["search_docs", 12.5, null],
      ["create_ticket", 30, "quota exceeded"],
    ]);
    expect(grouped.get(second?.id ?? -1)?.map((run) => [run.name, run.joinedBy])).toEqual([
      ["escalate", "time"],
    ]);
    expect(grouped.get(third?.id ?? -1)).toBeUndefined();
  });

  it("a page of later iterations still finds only its own tool runs", async () => {
    const page = await listRunDecisions(tenant, runId, { offset: 1, limit: 1 });
    const spans = await listPageSpans(
      tenant,
      runId,
      page.map((decision) => decision.id),
    );
    const grouped = groupToolRuns(spans.calls, spans.toolRuns);
    expect([...grouped.values()].flat().map((run) => run.name)).toEqual(["escalate"]);
    // A tenant's spans are not read under another tenant's name.
    expect(await listPageSpans(TENANTS[0], runId, [page[0]?.id ?? -1])).toEqual({
      calls: [],
      toolRuns: [],
    });
  });

  it("counts the context tax of its unused offers", async () => {
    const period = { from: new Date(anchor + 2 * DAY), to: new Date(anchor + 3 * DAY) };
    const lines = await sumContextTaxByTool({ scope: tenantsScope([tenant]) }, period);
    const byTool = Object.fromEntries(lines.map((line) => [line.tool, line]));
    // Three calls with an outcome; the fourth recorded no output, so it has no unused offer.
    expect(byTool.search_docs).toMatchObject({ offers: 4, calls: 1, unusedOffers: 2 });
    expect(byTool.escalate).toMatchObject({ offers: 4, calls: 1, unusedOffers: 2 });
    expect(byTool.search_docs?.unusedTokens).toBe(200);
    expect(byTool.create_ticket?.unusedTokens).toBe(400);
    expect(byTool.escalate?.offeredTokens).toBe(1_200);
  });

  it("is left out of the rollouts' cohorts and counted on its own", async () => {
    const window = {
      from: new Date(anchor + 2 * DAY),
      to: new Date(anchor + 3 * DAY),
      granularity: "hour" as const,
    };
    const scope = tenantsScope([tenant]);
    expect(await sumCohortCells({ scope }, window)).toEqual([]);
    expect(await countUnroutedDecisions({ scope }, window)).toBe(4);
    expect(await countUnroutedDecisions({ scope: onlyA }, window)).toBe(0);
  });
});
