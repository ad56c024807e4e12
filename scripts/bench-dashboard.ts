/**
 * `npm run bench:dashboard` — server response time of the dashboard pages at 1M decisions.
 *
 * Starts a scratch embedded PostgreSQL (data in .data/bench-dashboard), bulk-loads decisions
 * straight in SQL (generate_series, not HTTP), fills outcomes, runs and every rollup from them
 * with INSERT … SELECT … GROUP BY, so they agree exactly as ingest would keep them, then starts
 * the production build (`next start`) on it and times full responses (status and whole body)
 * of each page, sequentially, after a warm-up. Prints the database's size on disk and p50 /
 * p95 / max per page against issue 17's targets (p95 ≤ 150 ms, the overview ≤ 100 ms).
 *
 *   npm run bench:dashboard -- [--decisions 1000000] [--requests 30] [--fresh]
 *                              [--pages tools,overview] [--port 3415]
 *
 * A data set loaded by an earlier run (same size, under 6 hours old) is reused unless --fresh;
 * migrations added since are applied to it. `--pages` times only the pages whose name contains
 * one of the comma-separated words; `--port` serves the app on that port instead of a free one.
 * Results are also written to bench-results/dashboard.json. Other pages join the benchmark by
 * adding an entry to `pagesFor` below.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import pg from "pg";
import { encodeRunKey } from "@/lib/dashboard/runs-position";
import { migrate } from "@/lib/db/migrate";
import { createWeekPartitions } from "@/lib/db/partitions";
import { runOrderColumns, runSortValueSql } from "@/lib/db/queries/runs-order";
import { TENANT_TABLE_NAMES } from "@/lib/db/tenant-tables";
import { DEMO_PROFILES } from "@/lib/demo/profiles";
import { decisionsWithOutcomes } from "@/lib/ingest/decision-outcomes";
import type { RunSortKey } from "@/lib/schemas/dashboard";
import { ensureBuild, startAppServer } from "./lib/app-server";
import { percentile } from "./lib/bench-args";
import { isReusable, markDataSet, takeDataSetLock } from "./lib/bench-data-set";
import { INSERT_ROLLUP_DAY, insertRollupHour, insertRollupMinute } from "./lib/bench-rollup-sql";
import { benchAdminCookie } from "./lib/bench-session";
import { failUsage, parseCommandLine, positiveWholeNumber } from "./lib/command-line";
import { dropDatabase, ensureDatabase, startLocalPostgres } from "./lib/local-postgres";

const DATA_DIR = ".data/bench-dashboard";
const LOCK_FILE = ".data/bench-dashboard.lock";
const DATABASE = "routelens_bench_dashboard";
/** Bump when the generated data set changes shape, so old loads are not reused. */
const DATA_VERSION = 8;
/** Issue 17's targets: every page p95 ≤ 150 ms, the overview ≤ 100 ms. */
const TARGET_P95_MS = 150;
const OVERVIEW_P95_MS = 100;
const ITERATIONS_PER_RUN = 10;
/** Issue 17's data set: 20 tenants and one run of 5,000 iterations. */
const LONG_RUN_ITERATIONS = 5_000;
const LONG_RUN_ID = "bench-long-run";
const TENANTS = [
  "bench-acme",
  "bench-globex",
  "bench-initech",
  "bench-umbrella",
  "bench-hooli",
  "bench-stark",
  "bench-wayne",
  "bench-tyrell",
  "bench-cyberdyne",
  "bench-soylent",
  "bench-wonka",
  "bench-aperture",
  "bench-vandelay",
  "bench-oscorp",
  "bench-massive",
  "bench-dunder",
  "bench-gringotts",
  "bench-monarch",
  "bench-nakatomi",
  "bench-pied-piper",
];
const ROLES = ["action", "reasoning", "reflection", "planner"];
/**
 * Tool names as agents name them (the demo tenants' catalogues): each bench tenant offers 30
 * of them, a different window of the list per tenant, so the names compress as real ones do.
 */
const TOOL_NAMES = [
  ...new Set(DEMO_PROFILES.flatMap((profile) => profile.tools.map((tool) => tool.name))),
];
/** Connections the load runs on: each INSERT … SELECT split in this many parts. */
const LOAD_CONNECTIONS = 2;

const log = (line: string) => console.log(`[bench:dashboard] ${line}`);

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  log(`${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return result;
}

/**
 * Palettes: per tenant, offered count (8–30), selected count (1–6) and variant (0 plain,
 * 1 forced tool reinstated, 2 empty palette, 3 stage error), with the arrays, the stage trace
 * and the warnings of such a decision, built once and joined to the generated decisions. The
 * trace is in the form ingest stores it (lib/db/stored-trace.ts): names of offered tools as
 * their positions in `offered`, fields at their default left out.
 */
const CREATE_PALETTES = `
CREATE TEMP TABLE bench_palettes AS
WITH combos AS (
  SELECT t.tenant, t.tn, oc, sc, v
    FROM unnest($1::text[]) WITH ORDINALITY AS t(tenant, tn),
         generate_series(8, 30) oc, generate_series(1, 6) sc, generate_series(0, 3) v
), lists AS (
  SELECT c.*,
         ARRAY(SELECT ($2::text[])[1 + (c.tn * 7 + x - 1) % cardinality($2::text[])]
                 FROM generate_series(1, c.oc) x ORDER BY x) AS offered
    FROM combos c
)
SELECT tenant, oc, sc, v, offered,
       offered[1:sc] AS selected,
       offered[sc + 1:oc] AS dropped,
       (oc - sc) * 37 AS dropped_tokens,
       CASE WHEN v = 1 THEN offered[1] END AS forced_choice,
       jsonb_build_array(
         jsonb_strip_nulls(jsonb_build_object('stage', 'intent', 'action', 'select',
           'kept', pg_temp.bench_positions(1, least(oc, sc + 4)),
           'dropped', pg_temp.bench_positions(least(oc, sc + 4) + 1, oc),
           'forced_choice', CASE WHEN v = 1 THEN offered[1] END,
           'detail', 'action verdict')),
         jsonb_strip_nulls(jsonb_build_object('stage', 'role_palette',
           'action', CASE WHEN v IN (2, 3) THEN 'abstain' ELSE 'select' END,
           'kept', CASE WHEN v IN (2, 3) THEN pg_temp.bench_positions(1, least(oc, sc + 4))
                        WHEN v = 1 THEN pg_temp.bench_positions(2, sc)
                        ELSE pg_temp.bench_positions(1, sc) END,
           'dropped', CASE WHEN v IN (2, 3) THEN NULL
                           WHEN v = 1 THEN '[0]'::jsonb
                                || coalesce(pg_temp.bench_positions(sc + 1, least(oc, sc + 4)), '[]')
                           ELSE pg_temp.bench_positions(sc + 1, least(oc, sc + 4)) END,
           'reinstated', CASE WHEN v = 1 THEN '[0]'::jsonb END,
           'forced_choice', CASE WHEN v = 1 THEN offered[1] END,
           'detail', CASE WHEN v = 2 THEN 'resolver returned an empty palette' ELSE 'role palette' END)),
         jsonb_strip_nulls(jsonb_build_object('stage', 'policy',
           'action', CASE WHEN v = 3 THEN 'error' ELSE 'select' END,
           'kept', pg_temp.bench_positions(1, sc),
           'dropped', CASE WHEN v IN (2, 3) THEN pg_temp.bench_positions(sc + 1, least(oc, sc + 4)) END,
           'forced_choice', CASE WHEN v = 1 THEN offered[1] END,
           'detail', CASE WHEN v = 3 THEN 'TimeoutError: catalogue lookup' ELSE 'within ceiling' END,
           'degraded', CASE WHEN v = 3 THEN true END))
       ) AS trace,
       CASE v
         WHEN 1 THEN jsonb_build_array(jsonb_build_object('code', 'forced_reinstated', 'stage', 'role_palette',
                       'detail', format('forced tool %s was not offered after role_palette; put back', offered[1])))
         WHEN 2 THEN jsonb_build_array(jsonb_build_object('code', 'empty_palette', 'stage', 'role_palette'))
         WHEN 3 THEN jsonb_build_array(jsonb_build_object('code', 'stage_error', 'stage', 'policy',
                       'detail', 'TimeoutError: catalogue lookup'))
         ELSE '[]'::jsonb
       END AS warnings
  FROM lists`;

/**
 * Each tenant's offered lists into `palettes`, as ingest stores them (keyed by the SHA-256 of
 * the list as JSON; the last day of a decision naming them is at most today), and their ids
 * into `bench_palettes` for the decisions to name.
 */
const STORE_PALETTES = `
ALTER TABLE bench_palettes ADD COLUMN palette_id bigint;
INSERT INTO palettes (tenant_id, hash, tools, last_day)
SELECT DISTINCT tenant, sha256(convert_to(to_json(offered)::text, 'UTF8')), offered,
       (now() AT TIME ZONE 'UTC')::date
  FROM bench_palettes ORDER BY 1, 2
    ON CONFLICT (tenant_id, hash) DO NOTHING;
UPDATE bench_palettes b SET palette_id = p.id
  FROM palettes p
 WHERE p.tenant_id = b.tenant AND p.hash = sha256(convert_to(to_json(b.offered)::text, 'UTF8'));`;

/** Positions a-1 … b-1 of the PostgreSQL slice [a:b] (0-based, as a stored trace writes them); NULL when empty. */
const CREATE_POSITIONS = `
CREATE FUNCTION pg_temp.bench_positions(a int, b int) RETURNS jsonb LANGUAGE sql IMMUTABLE AS
$$ SELECT CASE WHEN b >= a THEN to_jsonb(ARRAY(SELECT generate_series(a - 1, b - 1))) END $$`;

/**
 * Decisions `$5` to `$6` of the regular ones (`s`, with their lists `p`), in runs of 10
 * iterations spread evenly over the last 30 days, ending now, across the tenants and 4 roles;
 * every 97th with a reinstatement, 211th with an empty palette, 503rd with a stage error; 90%
 * with an outcome, every 53rd of those a harmful drop and every 41st a call of no tool. Decision
 * `g` has id `g`, so its outcome rows are made from the same numbers without reading it back.
 */
const REGULAR_DECISIONS = `
  (SELECT g, r, it, tn, tenant, run_id,
           ($3::text[])[1 + (it + r) % 4] AS role,
           CASE WHEN tn % 5 IN (1, 4) THEN 'observe' WHEN tn % 5 = 2 THEN 'enforce'
                WHEN (it + r) % 4 = 0 THEN 'enforce' ELSE 'observe' END AS mode,
           $2::timestamptz - interval '30 days'
             + (r::float8 / greatest($4::int, 1)) * interval '30 days' + it * interval '3 seconds'
             - interval '40 seconds' AS ts,
           CASE WHEN g % 503 = 0 THEN 3 WHEN g % 211 = 0 THEN 2 WHEN g % 97 = 0 THEN 1 ELSE 0 END AS v,
           8 + (g % 23) AS oc, 1 + (g % 6) AS sc,
           g % 10 <> 9 AS has_outcome,
           CASE WHEN g % 41 = 0 THEN 0 WHEN g % 53 = 0 THEN 2 ELSE 1 END AS calls
      FROM (SELECT g, (g - 1) / ${ITERATIONS_PER_RUN} AS r, (g - 1) % ${ITERATIONS_PER_RUN} AS it,
                   1 + ((g - 1) / ${ITERATIONS_PER_RUN}) % cardinality($1::text[]) AS tn,
                   ($1::text[])[1 + ((g - 1) / ${ITERATIONS_PER_RUN}) % cardinality($1::text[])] AS tenant,
                   'run-' || lpad(((g - 1) / ${ITERATIONS_PER_RUN})::text, 7, '0') AS run_id
              FROM generate_series($5::int, $6::int) g) base
  ) s
  JOIN bench_palettes p ON p.tenant = s.tenant AND p.oc = least(s.oc, 30) AND p.sc = s.sc AND p.v = s.v`;

/**
 * One long run of 5,000 iterations (`it`, with their lists `p`), one a second, ending in the
 * last half hour, with issues spread through it; every one with an outcome, every 25th a
 * harmful drop. Iteration `it` has id `$6 + it`.
 */
const LONG_RUN = `
  (SELECT it, CASE WHEN it % 25 = 0 THEN 2 ELSE 1 END AS calls
     FROM generate_series(0, $5::int - 1) it) s
  JOIN bench_palettes p ON p.tenant = $1 AND p.oc = 8 + s.it % 23 AND p.sc = 1 + s.it % 6
   AND p.v = CASE WHEN s.it % 61 = 0 THEN 2 WHEN s.it % 37 = 0 THEN 1 WHEN s.it % 89 = 0 THEN 3 ELSE 0 END`;

/** What a decision of `s` with lists `p` called: nothing, its first kept tool, or that and its first dropped one. */
const CALLED = `CASE s.calls WHEN 0 THEN '{}'::text[] WHEN 1 THEN ARRAY[p.selected[1]]
       ELSE ARRAY[p.selected[1], p.dropped[1]] END`;
/** Of those, the dropped one. */
const HARMFUL = "CASE WHEN s.calls = 2 THEN ARRAY[p.dropped[1]] ELSE '{}'::text[] END";

const INSERT_DECISIONS = `
INSERT INTO decisions (id, tenant_id, event_id, run_id, role, mode, iteration, turn_hop_index, ts,
  offered_count, selected_count, dropped_count, dropped_tokens, reinstatements,
  empty_palette_warnings, stage_errors, forced_choice, palette_identity, config_version, model,
  agent, intent_label, palette_id, selected, trace, warnings, intent)
SELECT s.g, s.tenant, 'e-' || s.g, s.run_id, s.role, s.mode, s.it, s.it % 3, s.ts,
       p.oc, p.sc, p.oc - p.sc, p.dropped_tokens + (s.g % 7),
       (s.v = 1)::int, (s.v = 2)::int, (s.v = 3)::int, p.forced_choice, NULL,
       CASE WHEN s.tn = 1 AND s.ts > $2::timestamptz - interval '10 days' THEN 'cfg-b' ELSE 'cfg-a' END,
       'model-' || (s.g % 3), 'bench-agent', 'action',
       p.palette_id, p.selected, p.trace, p.warnings,
       jsonb_build_object('label', 'action', 'matched_tool_keywords', '[]'::jsonb)
  FROM ${REGULAR_DECISIONS}`;

/** The regular decisions' outcomes as joined (`decision_outcomes`) and as sent (`outcomes`, a second later). */
const INSERT_REGULAR_OUTCOMES = `
WITH joined AS (
  INSERT INTO decision_outcomes (tenant_id, decision_id, ts, called, harmful_tools)
  SELECT s.tenant, s.g, s.ts, ${CALLED}, ${HARMFUL} FROM ${REGULAR_DECISIONS} WHERE s.has_outcome
)
INSERT INTO outcomes (tenant_id, event_id, run_id, role, iteration, ts, called, error, joined)
SELECT s.tenant, 'o-e-' || s.g, s.run_id, s.role, s.it, s.ts + interval '1 second', ${CALLED},
       NULL, true
  FROM ${REGULAR_DECISIONS} WHERE s.has_outcome`;

const longRunTs =
  "$3::timestamptz - ($5::int + 1800) * interval '1 second' + s.it * interval '1 second'";

const INSERT_LONG_RUN = `
INSERT INTO decisions (id, tenant_id, event_id, run_id, role, mode, iteration, turn_hop_index, ts,
  offered_count, selected_count, dropped_count, dropped_tokens, reinstatements,
  empty_palette_warnings, stage_errors, forced_choice, config_version, model, agent,
  palette_id, selected, trace, warnings)
SELECT $6::bigint + s.it, $1, 'long-' || s.it, $2, ($4::text[])[1 + s.it % 4], 'observe', s.it,
       s.it % 5, ${longRunTs},
       p.oc, p.sc, p.oc - p.sc, p.dropped_tokens, (p.v = 1)::int, (p.v = 2)::int, (p.v = 3)::int,
       p.forced_choice, 'cfg-a', 'model-1', 'bench-agent', p.palette_id, p.selected,
       p.trace, p.warnings
  FROM ${LONG_RUN}`;

const INSERT_LONG_RUN_OUTCOMES = `
WITH joined AS (
  INSERT INTO decision_outcomes (tenant_id, decision_id, ts, called, harmful_tools)
  SELECT $1, $6::bigint + s.it, ${longRunTs}, ${CALLED}, ${HARMFUL} FROM ${LONG_RUN}
)
INSERT INTO outcomes (tenant_id, event_id, run_id, role, iteration, ts, called, error, joined)
SELECT $1, 'o-long-' || s.it, $2, ($4::text[])[1 + s.it % 4], s.it,
       ${longRunTs} + interval '1 second', ${CALLED}, NULL, true
  FROM ${LONG_RUN}`;

/*
 * The statements below fill one part of the data set each: decisions with a `ts` in
 * [$1, $2) (hour-aligned bounds, so no minute or hour bucket is split between parts), or for
 * runs, the runs whose id hashes to part $1 of $2. The parts run side by side, one connection
 * each (`loadDataSet`).
 */
const IN_RANGE = "ts >= $1 AND ts < $2";
/** The decisions of the range with their outcomes, both read by time. */
const IN_RANGE_WITH_OUTCOMES = decisionsWithOutcomes({ from: "$1", to: "$2" });

/** What ingest writes beside every stored event: its id (lib/ingest/event-ids.ts). */
const INSERT_EVENT_IDS = `
INSERT INTO event_ids (tenant_id, event_id, ts)
SELECT tenant_id, event_id, ts FROM decisions WHERE ${IN_RANGE}
UNION ALL
SELECT tenant_id, event_id, ts FROM outcomes WHERE ${IN_RANGE}`;

const INSERT_RUNS = `
INSERT INTO runs (tenant_id, run_id, first_seen, last_seen, decisions, max_iteration, roles, modes,
  dropped_tokens, reinstatements, empty_palette_warnings, stage_errors, harmful_drops)
SELECT d.tenant_id, d.run_id, min(d.ts), max(d.ts), count(*), max(iteration),
       array_agg(DISTINCT role ORDER BY role), array_agg(DISTINCT mode ORDER BY mode),
       sum(dropped_tokens), sum(reinstatements), sum(empty_palette_warnings), sum(stage_errors),
       coalesce(sum(cardinality(h.harmful_tools)), 0)
  FROM decisions d
  -- Harmful drops are few: their outcome rows are hashed, not every decision's.
  LEFT JOIN (SELECT tenant_id, decision_id, ts, harmful_tools FROM decision_outcomes
              WHERE harmful_tools <> '{}') h
    ON h.tenant_id = d.tenant_id AND h.decision_id = d.id AND h.ts = d.ts
 WHERE (hashtext(run_id) & 2147483647) % $2::int = $1::int
 GROUP BY d.tenant_id, d.run_id`;

/**
 * Per tool and hour, from the palettes the decisions were made of. Every generated decision
 * takes its lists from `bench_palettes` by (tenant, offered count, selected count, variant),
 * and calls the first selected tool, then (a harmful drop) the first dropped one. So decisions
 * alike in those and in their number of calls are counted together by their integer columns,
 * and each group unnests its palette once: one read of the decisions, no grouping by lists.
 * (Six groupings of the rows by their lists took 233 s at 1M decisions, 491 s at 10M.)
 * Run a day at a time (`byTime`'s `daily`), so a day's rows share pages as ingest leaves them.
 */
const INSERT_TOOL_ROLLUP = `
INSERT INTO tool_rollup_hour (tenant_id, role, mode, bucket, tool, offered, selected, dropped,
  called, harmful_drops, dropped_tokens, unused_offers)
SELECT g.tenant_id, g.role, g.mode, g.bucket, x.tool,
       sum(g.n),
       sum(CASE WHEN x.kept THEN g.n ELSE 0 END),
       sum(CASE WHEN x.kept THEN 0 ELSE g.n END),
       sum(CASE WHEN x.called THEN g.n ELSE 0 END),
       sum(CASE WHEN x.harmful THEN g.n ELSE 0 END),
       sum(CASE WHEN x.kept THEN 0 ELSE g.t END),
       sum(CASE WHEN g.has_outcome AND (g.mode <> 'enforce' OR x.kept) AND NOT x.called
                THEN g.n ELSE 0 END)
  FROM (SELECT tenant_id, role, mode, date_trunc('hour', ts) AS bucket, offered_count AS oc,
               selected_count AS sc,
               reinstatements + 2 * empty_palette_warnings + 3 * stage_errors AS v,
               has_outcome, cardinality(called) AS calls, count(*) AS n,
               sum(dropped_tokens::float8 / nullif(dropped_count, 0)) AS t
          FROM ${IN_RANGE_WITH_OUTCOMES} AS decisions
         WHERE ${IN_RANGE} GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9) g
  JOIN bench_palettes p ON p.tenant = g.tenant_id AND p.oc = g.oc AND p.sc = g.sc AND p.v = g.v,
  LATERAL (SELECT o.tool, o.i <= g.sc AS kept,
                  (o.i = 1 AND g.calls >= 1) OR (o.i = g.sc + 1 AND g.calls = 2) AS called,
                  o.i = g.sc + 1 AND g.calls = 2 AS harmful
             FROM unnest(p.offered) WITH ORDINALITY AS o(tool, i)) x
 GROUP BY 1, 2, 3, 4, 5`;

const INSERT_TOOL_ROLLUP_DAY = `
INSERT INTO tool_rollup_day (tenant_id, role, mode, bucket, tool, offered, selected, dropped,
  called, harmful_drops, dropped_tokens, unused_offers)
SELECT tenant_id, role, mode, date_bin('1 day', bucket, TIMESTAMPTZ '2000-01-01 00:00:00+00'),
       tool, sum(offered), sum(selected), sum(dropped), sum(called), sum(harmful_drops),
       sum(dropped_tokens), sum(unused_offers)
  FROM tool_rollup_hour GROUP BY 1, 2, 3, 4, 5 ORDER BY 4`;

interface LoadedSet {
  runs: number;
  shortRunId: string;
  shortRunTenant: string;
  /** `after` keys of pages deep in the runs list, by name (`runsKeyAt`). */
  runKeys: Record<string, string>;
}

/**
 * The runs list's `after` key of the row at `offset` in an order (the key the page before it
 * links its Next to): what following Next that far would reach, written by the same SQL as
 * the page's keys (`lib/db/queries/runs-order.ts`).
 */
async function runsKeyAt(
  client: pg.Client,
  sort: RunSortKey,
  dir: "ASC" | "DESC",
  offset: number,
): Promise<string> {
  const { rows } = await client.query<{ value: string; tenant_id: string; run_id: string }>(
    `SELECT ${runSortValueSql(sort)} AS value, r.tenant_id, r.run_id FROM runs r
      ORDER BY ${runOrderColumns(sort)
        .map((column) => `${column} ${dir}`)
        .join(", ")}
     OFFSET $1 LIMIT 1`,
    [offset],
  );
  const row = rows[0];
  if (!row) throw new Error(`no run at offset ${offset} sorted by ${sort}`);
  return encodeRunKey(sort, { value: row.value, tenantId: row.tenant_id, runId: row.run_id });
}

/**
 * Drops the primary keys, unique constraints and indexes of the tenant tables (of a
 * partitioned table: the parent's, with its partitions'), and returns the statements that make
 * them again exactly as they were. Built once after the load, each is a sort of the table
 * rather than one index insertion per row, which is what a bulk load of millions of rows
 * spends most of its time on.
 */
async function dropIndexes(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ make: string; drop: string }>(
    `SELECT format('ALTER TABLE %s ADD CONSTRAINT %I %s', c.conrelid::regclass, c.conname,
                   pg_get_constraintdef(c.oid)) AS make,
            format('ALTER TABLE %s DROP CONSTRAINT %I', c.conrelid::regclass, c.conname) AS drop
       FROM pg_constraint c
      WHERE c.conrelid = ANY($1::regclass[]) AND c.contype IN ('p', 'u')
     UNION ALL
     SELECT replace(pg_get_indexdef(i.indexrelid), ' ON ONLY ', ' ON '),
            format('DROP INDEX %s', i.indexrelid::regclass)
       FROM pg_index i
      WHERE i.indrelid = ANY($1::regclass[])
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    [TENANT_TABLE_NAMES],
  );
  for (const { drop } of rows) await client.query(drop);
  return rows.map((row) => row.make);
}

/** `parts` hour-aligned time ranges [from, to) that cover the data set between them. */
function timeRanges(now: Date, parts: number): [Date, Date][] {
  const start = now.getTime() - 31 * 86_400_000;
  const end = now.getTime() + 86_400_000;
  const bounds = Array.from({ length: parts + 1 }, (_, i) => {
    const at = start + ((end - start) * i) / parts;
    return new Date(i === 0 || i === parts ? at : Math.floor(at / 3_600_000) * 3_600_000);
  });
  return bounds.slice(0, -1).map((from, i) => [from, bounds[i + 1] as Date]);
}

/** A range cut into days, every inner bound on the hour (an hour is never split in two). */
function daysOf([from, to]: [Date, Date]): [Date, Date][] {
  const days: [Date, Date][] = [];
  let start = from.getTime();
  while (start < to.getTime()) {
    const end = Math.min(Math.floor((start + 86_400_000) / 3_600_000) * 3_600_000, to.getTime());
    days.push([new Date(start), new Date(end)]);
    start = end;
  }
  return days;
}

async function loadDataSet(url: string, decisions: number): Promise<void> {
  const clients: pg.Client[] = [];
  try {
    for (let i = 0; i < LOAD_CONNECTIONS; i++) {
      const client = new pg.Client({ connectionString: url });
      clients.push(client);
      await client.connect();
      await client.query("SET work_mem = '256MB'");
      await client.query("SET maintenance_work_mem = '512MB'");
      await client.query("SET synchronous_commit = off");
    }
    const [first] = clients as [pg.Client];
    /** Runs `work` on every connection at once, part i on connection i. */
    const inParts = (work: (client: pg.Client, part: number) => Promise<unknown>) =>
      Promise.all(clients.map((client, part) => work(client, part)));
    const now = new Date();
    const ranges = timeRanges(now, LOAD_CONNECTIONS);
    const regular = decisions - LONG_RUN_ITERATIONS;
    const runs = Math.ceil(regular / ITERATIONS_PER_RUN);
    const runsPerPart = Math.ceil(runs / LOAD_CONNECTIONS);
    await first.query(
      `INSERT INTO tenants (id, is_demo) SELECT unnest($1::text[]), false ON CONFLICT DO NOTHING`,
      [TENANTS],
    );
    // The week partitions of the whole range, as a server running through it would have made.
    await createWeekPartitions(first, new Date(now.getTime() - 31 * 86_400_000), now);
    const indexes = await dropIndexes(first);
    await timed("built palettes", () =>
      inParts(async (client) => {
        await client.query(CREATE_POSITIONS);
        await client.query(CREATE_PALETTES, [TENANTS, TOOL_NAMES]);
        await client.query(STORE_PALETTES);
        await client.query("ANALYZE bench_palettes");
      }),
    );
    await timed(`inserted ${regular.toLocaleString("en-US")} decisions`, () =>
      inParts((client, part) => {
        // Whole runs per part: g numbers the decisions, ten to a run.
        const from = part * runsPerPart * ITERATIONS_PER_RUN + 1;
        const to = Math.min(regular, (part + 1) * runsPerPart * ITERATIONS_PER_RUN);
        const values = [TENANTS, now, ROLES, runs, from, to];
        return client
          .query(INSERT_DECISIONS, values)
          .then(() => client.query(INSERT_REGULAR_OUTCOMES, values));
      }),
    );
    await timed(`inserted a run of ${LONG_RUN_ITERATIONS} iterations`, async () => {
      const values = [TENANTS[0], LONG_RUN_ID, now, ROLES, LONG_RUN_ITERATIONS, regular + 1];
      await first.query(INSERT_LONG_RUN, values);
      await first.query(INSERT_LONG_RUN_OUTCOMES, values);
      // The decisions were given their ids: ingest's next one follows them.
      await first.query("SELECT setval('decisions_id_seq', (SELECT max(id) FROM decisions))");
    });
    /**
     * Runs `statement` on every part's time range, with planner `settings` for its duration;
     * `daily`: a day of the range at a time, so the rows it writes lie in the table day by day.
     */
    const byTime = (
      label: string,
      statement: string,
      settings: Record<string, string> = {},
      { daily = false } = {},
    ) =>
      timed(label, () =>
        inParts(async (client, part) => {
          const names = Object.keys(settings);
          for (const name of names) await client.query(`SET ${name} = ${settings[name]}`);
          const range = ranges[part] as [Date, Date];
          for (const chunk of daily ? daysOf(range) : [range]) await client.query(statement, chunk);
          for (const name of names) await client.query(`RESET ${name}`);
        }),
      );
    await byTime("filled event_ids", INSERT_EVENT_IDS);
    await timed("filled runs", () =>
      inParts((client, part) => client.query(INSERT_RUNS, [part, LOAD_CONNECTIONS])),
    );
    // A day at a time: each day's outcome rows are hashed to join its decisions.
    await byTime(
      "filled rollup_minute",
      insertRollupMinute(`WHERE ${IN_RANGE}`, IN_RANGE_WITH_OUTCOMES),
      {},
      { daily: true },
    );
    await byTime("filled rollup_hour", insertRollupHour("WHERE bucket >= $1 AND bucket < $2"));
    // Days are not split between the parts (their bounds are hours): one statement.
    await timed("filled rollup_day", () => first.query(INSERT_ROLLUP_DAY));
    // The planner cannot know that few groups share a palette: without this it sorts the
    // unnested tools by name to group them, twice as slow as hashing them.
    // A day at a time: ingest writes a day's rows together, and so a day's reads find them on
    // few pages (hashed groups come out in no order, which spread one day's rows over a third
    // of the table when the whole range was one statement).
    await byTime(
      "filled tool_rollup_hour",
      INSERT_TOOL_ROLLUP,
      { enable_sort: "off" },
      { daily: true },
    );
    await timed("filled tool_rollup_day", () => first.query(INSERT_TOOL_ROLLUP_DAY));
    await timed(`built ${indexes.length} indexes and keys`, () =>
      inParts(async (client, part) => {
        await client.query("SET max_parallel_maintenance_workers = 0");
        for (let i = part; i < indexes.length; i += LOAD_CONNECTIONS) {
          await client.query(indexes[i] as string);
        }
      }),
    );
    await timed("vacuum analyze", () => first.query("VACUUM ANALYZE"));
    await markDataSet(first, decisions, DATA_VERSION);
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}

async function describeDataSet(
  url: string,
): Promise<LoadedSet & { counts: Record<string, number> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const counts: Record<string, number> = {};
    for (const table of TENANT_TABLE_NAMES) {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
      counts[table] = Number(rows[0]?.n ?? 0);
    }
    const { rows } = await client.query<{ tenant_id: string; run_id: string }>(
      `SELECT tenant_id, run_id FROM runs WHERE run_id <> $1 ORDER BY last_seen DESC LIMIT 1 OFFSET 5000`,
      [LONG_RUN_ID],
    );
    const runs = counts.runs ?? 0;
    const middle = Math.floor(runs / 2);
    const runKeys = {
      deep: await runsKeyAt(client, "lastSeen", "DESC", Math.max(0, runs - 100)),
      droppedTokens: await runsKeyAt(client, "droppedTokens", "DESC", middle),
      decisions: await runsKeyAt(client, "decisions", "ASC", middle),
      runId: await runsKeyAt(client, "runId", "ASC", middle),
      harmfulDrops: await runsKeyAt(client, "harmfulDrops", "DESC", middle),
    };
    return {
      runs,
      runKeys,
      shortRunId: rows[0]?.run_id ?? "run-0000000",
      shortRunTenant: rows[0]?.tenant_id ?? TENANTS[0] ?? "",
      counts,
    };
  } finally {
    await client.end();
  }
}

/**
 * The database's size on disk (`pg_database_size`: every table, index and TOAST table, not
 * the WAL), and each tenant table's with its partitions, indexes and TOAST.
 */
async function diskUse(url: string): Promise<{ database: number; tables: [string, number][] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ size: string }>(
      "SELECT pg_database_size(current_database()) AS size",
    );
    const tables: [string, number][] = [];
    for (const table of TENANT_TABLE_NAMES) {
      const sized = await client.query<{ size: string | null }>(
        // pg_partition_tree gives nothing for a table without partitions.
        `SELECT coalesce((SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree($1::regclass)),
                         pg_total_relation_size($1::regclass)) AS size`,
        [table],
      );
      tables.push([table, Number(sized.rows[0]?.size ?? 0)]);
    }
    return { database: Number(rows[0]?.size ?? 0), tables };
  } finally {
    await client.end();
  }
}

function describeDisk(
  disk: { database: number; tables: [string, number][] },
  decisions: number,
): string {
  const gib = (bytes: number) => (bytes / 2 ** 30).toFixed(2);
  const perMillion = (disk.database * 1_000_000) / decisions;
  const largest = [...disk.tables]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([table, bytes]) => `${table} ${gib(bytes)}`)
    .join(", ");
  return `disk: ${gib(disk.database)} GiB (${(disk.database / 1e9).toFixed(2)} GB); per million decisions ${gib(perMillion)} GiB = ${(perMillion / 1e9).toFixed(2)} GB; largest tables (GiB, with indexes): ${largest}`;
}

interface BenchPage {
  name: string;
  path: string;
  /** A page's own p95 target in ms, instead of TARGET_P95_MS. */
  targetMs?: number;
}

function pagesFor(set: LoadedSet): BenchPage[] {
  const run = (tenant: string, id: string) =>
    `/runs/${encodeURIComponent(id)}?tenant=${encodeURIComponent(tenant)}`;
  return [
    { name: "overview, last 24 h", path: "/", targetMs: OVERVIEW_P95_MS },
    {
      name: "overview, last hour by role",
      path: "/?range=1h&split=role",
      targetMs: OVERVIEW_P95_MS,
    },
    { name: "overview, last 7 days", path: "/?range=7d", targetMs: OVERVIEW_P95_MS },
    {
      name: "overview, last 30 days",
      path: "/?range=30d",
      targetMs: OVERVIEW_P95_MS,
    },
    { name: "runs, first page", path: "/runs" },
    {
      name: `runs, deep page (after run ${(set.runs - 100).toLocaleString("en-US")})`,
      path: `/runs?after=${set.runKeys.deep}`,
    },
    { name: "runs, last page", path: "/runs?last=1" },
    {
      name: "runs, by dropped tokens, middle page",
      path: `/runs?sort=droppedTokens&after=${set.runKeys.droppedTokens}`,
    },
    {
      name: "runs, by iterations ascending, middle page",
      path: `/runs?sort=decisions&dir=asc&after=${set.runKeys.decisions}`,
    },
    {
      name: "runs, by run id, middle page",
      path: `/runs?sort=runId&after=${set.runKeys.runId}`,
    },
    {
      name: "runs, by harmful drops, middle page",
      path: `/runs?sort=harmfulDrops&after=${set.runKeys.harmfulDrops}`,
    },
    {
      name: "runs, tenant + role + warnings",
      path: `/runs?tenant=${TENANTS[2]}&role=reasoning&warnings=1`,
    },
    { name: "runs, run id prefix", path: "/runs?q=run-00123" },
    {
      name: `run trace, ${LONG_RUN_ITERATIONS} iterations (page 1)`,
      path: run(TENANTS[0] ?? "", LONG_RUN_ID),
    },
    {
      name: `run trace, ${LONG_RUN_ITERATIONS} iterations (page 10)`,
      path: `${run(TENANTS[0] ?? "", LONG_RUN_ID)}&page=10`,
    },
    {
      name: `run trace, ${ITERATIONS_PER_RUN} iterations`,
      path: run(set.shortRunTenant, set.shortRunId),
    },
    { name: "rollouts, last 7 days", path: "/rollouts" },
    {
      name: "rollouts, one tenant with a config change, last 30 days",
      path: `/rollouts?range=30d&tenant=${TENANTS[0]}`,
    },
    { name: "rollouts, last 30 days", path: "/rollouts?range=30d" },
    { name: "rollouts, last hour", path: "/rollouts?range=1h" },
    { name: "tools, last 24 h", path: "/tools" },
    { name: "tools, last 30 days", path: "/tools?range=30d" },
  ];
}

interface PageResult extends BenchPage {
  p50: number;
  p95: number;
  max: number;
  bytes: number;
}

async function measure(
  baseUrl: string,
  cookie: string,
  page: BenchPage,
  requests: number,
): Promise<PageResult> {
  const once = async () => {
    const started = performance.now();
    const response = await fetch(`${baseUrl}${page.path}`, { headers: { Cookie: cookie } });
    const body = await response.arrayBuffer();
    const elapsed = performance.now() - started;
    if (response.status !== 200) {
      throw new Error(`${page.path} answered ${response.status}`);
    }
    return { elapsed, bytes: body.byteLength };
  };
  for (let i = 0; i < 3; i++) await once();
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < requests; i++) {
    const result = await once();
    times.push(result.elapsed);
    bytes = result.bytes;
  }
  return {
    ...page,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: Math.max(...times),
    bytes,
  };
}

function renderTable(results: PageResult[]): string {
  const lines = [
    "| page | p50 ms | p95 ms | max ms | HTML kB | target |",
    "|---|---:|---:|---:|---:|---|",
  ];
  for (const r of results) {
    const limit = r.targetMs ?? TARGET_P95_MS;
    const verdict = r.p95 <= limit ? `✓ ≤ ${limit}` : `✗ > ${limit}`;
    lines.push(
      `| ${r.name} (\`${r.path}\`) | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.max.toFixed(0)} | ${(r.bytes / 1024).toFixed(0)} | ${verdict} |`,
    );
  }
  return lines.join("\n");
}

/** One run at a time owns the scratch database: a second would drop it under the first. */
const USAGE =
  "usage: npm run bench:dashboard -- [--decisions 1000000] [--requests 30] [--fresh] [--pages tools,overview] [--port 3415]";

async function main() {
  const { values } = parseCommandLine(
    {
      decisions: { type: "string" },
      requests: { type: "string" },
      fresh: { type: "boolean" },
      pages: { type: "string" },
      port: { type: "string" },
    },
    USAGE,
  );
  const port = values.port === undefined ? 0 : positiveWholeNumber("port", values.port, 0);
  const pageWords =
    values.pages
      ?.split(",")
      .map((word) => word.trim())
      .filter(Boolean) ?? [];
  const decisions = positiveWholeNumber("decisions", values.decisions, 1_000_000);
  const requests = positiveWholeNumber("requests", values.requests, 30);
  const fresh = values.fresh === true;
  if (decisions <= LONG_RUN_ITERATIONS) {
    failUsage(`--decisions must be more than ${LONG_RUN_ITERATIONS}`);
  }

  const releaseLock = takeDataSetLock("bench:dashboard", LOCK_FILE, DATA_DIR);
  ensureBuild(log);
  const server = await startLocalPostgres({
    dataDir: DATA_DIR,
    port: 0,
    log,
    settings: { shared_buffers: "512MB", max_wal_size: "4GB", checkpoint_timeout: "30min" },
  });
  let app: Awaited<ReturnType<typeof startAppServer>> | null = null;
  try {
    const url = server.urlFor(DATABASE);
    if (fresh || !(await isReusable(url, decisions, DATA_VERSION))) {
      await dropDatabase(server.adminUrl, DATABASE);
      await ensureDatabase(server.adminUrl, DATABASE);
      await migrate(url, { log });
      await timed("loaded the data set", () => loadDataSet(url, decisions));
    } else {
      log("reusing the data set of an earlier run (--fresh to reload)");
      await migrate(url, { log });
    }
    const set = await describeDataSet(url);
    const disk = await diskUse(url);
    log(describeDisk(disk, decisions));
    log(
      `data: ${Object.entries(set.counts)
        .map(([table, n]) => `${table} ${n.toLocaleString("en-US")}`)
        .join(", ")}`,
    );

    const pages = pagesFor(set).filter(
      (page) => pageWords.length === 0 || pageWords.some((word) => page.name.includes(word)),
    );
    if (pages.length === 0) throw new Error(`--pages ${values.pages} names no page`);
    app = await startAppServer({ databaseUrl: url, port, env: { ROUTELENS_DEMO: "0" } });
    log(`next start on ${app.baseUrl}; ${requests} timed requests per page after 3 warm-ups`);
    const cookie = await benchAdminCookie(url, app.baseUrl);
    const results: PageResult[] = [];
    for (const page of pages) {
      const result = await measure(app.baseUrl, cookie, page, requests);
      log(`${page.name}: p50 ${result.p50.toFixed(0)} ms, p95 ${result.p95.toFixed(0)} ms`);
      results.push(result);
    }

    const table = renderTable(results);
    console.log(`\n${table}\n`);
    mkdirSync("bench-results", { recursive: true });
    writeFileSync(
      "bench-results/dashboard.json",
      `${JSON.stringify({ at: new Date().toISOString(), decisions, requests, counts: set.counts, disk, results }, null, 2)}\n`,
    );
    const missed = results.filter((r) => r.p95 > (r.targetMs ?? TARGET_P95_MS));
    if (missed.length > 0) {
      console.log(
        `Target missed (p95 over the page's target): ${missed.map((r) => r.name).join(", ")}`,
      );
      process.exitCode = 1;
    } else {
      console.log(
        `Every page answered with p95 ≤ ${TARGET_P95_MS} ms (the overview ≤ ${OVERVIEW_P95_MS} ms).`,
      );
    }
  } finally {
    await app?.stop();
    await server.stop();
    releaseLock();
  }
}

main().catch((error: unknown) => {
  console.error(`[bench:dashboard] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
