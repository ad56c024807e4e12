/**
 * The backtest job's reads and writes (`lib/backtest/job.ts`): claiming a backtest, reading the window's decisions in
 * keyset-paged chunks, the per-tool size estimates, and committing a chunk (partial sums and
 * keyset position in one statement, so a resumed job never counts a decision twice).
 */
import "server-only";
import type pg from "pg";
import { type RecordedDecision, TRACE_TEXTS, UNREAD_TRACE } from "@/lib/backtest/replay";
import type { BacktestResult, BacktestState, ToolSizeEstimate } from "@/lib/backtest/types";
import { getPool } from "@/lib/db/client";
import { DECISIONS_WITH_OUTCOMES } from "@/lib/ingest/decision-outcomes";

/** The keyset position after the last committed decision: (ts, id), ascending. */
export interface Cursor {
  ts: Date;
  id: number;
}

/** A backtest as the job reads it when it starts or resumes. */
export interface ClaimedBacktest {
  id: string;
  tenantId: string;
  roles: string[];
  from: Date;
  to: Date;
  candidate: unknown;
  baseline: unknown;
  state: BacktestState;
  replayed: number;
  estimatedTotal: number;
  cursor: Cursor | null;
  result: BacktestResult | null;
}

interface ClaimRow {
  id: string;
  tenant_id: string;
  roles: string[] | null;
  window_from: Date;
  window_to: Date;
  candidate: unknown;
  baseline: unknown;
  state: BacktestState;
  replayed: number;
  estimated_total: number;
  cursor_ts: Date | null;
  cursor_id: number | null;
  result: BacktestResult | null;
}

/**
 * Marks a queued or running backtest as running and returns it; a backtest asked to cancel
 * before the job got to it is cancelled here. Null when there is nothing to run.
 */
export async function claimBacktest(id: string): Promise<ClaimedBacktest | null> {
  const pool = getPool();
  await pool.query(
    `UPDATE backtests SET state = 'cancelled', finished_at = now(), updated_at = now()
      WHERE id = $1 AND state = 'cancelling'`,
    [id],
  );
  const { rows } = await pool.query<ClaimRow>(
    `UPDATE backtests
        SET state = 'running', started_at = coalesce(started_at, now()), updated_at = now()
      WHERE id = $1 AND state IN ('queued', 'running')
      RETURNING id, tenant_id, roles, window_from, window_to, candidate, baseline, state,
                replayed, estimated_total, cursor_ts, cursor_id, result`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    tenantId: row.tenant_id,
    roles: row.roles ?? [],
    from: row.window_from,
    to: row.window_to,
    candidate: row.candidate,
    baseline: row.baseline,
    state: row.state,
    replayed: row.replayed,
    estimatedTotal: row.estimated_total,
    cursor:
      row.cursor_ts !== null && row.cursor_id !== null
        ? { ts: row.cursor_ts, id: row.cursor_id }
        : null,
    result: row.result,
  };
}

export async function saveEstimate(id: string, estimatedTotal: number): Promise<void> {
  await getPool().query(
    "UPDATE backtests SET estimated_total = $2, updated_at = now() WHERE id = $1",
    [id, estimatedTotal],
  );
}

/** How the job reads the window after a point: where to cut it, and how much the rollups hold. */
export interface WindowPlan {
  cuts: Date[];
  /** The decisions the rollups hold for the tenant and roles from the point to the window's end. */
  decisions: number;
}

/**
 * Where to cut the window after `start` so that each slice holds at most about `size`
 * decisions, by the minute rollups' counts: the start of each minute that would take a slice
 * past `size`. The slices between `start`, the cuts and the window's end cover the window
 * whatever the rollups hold; the counts only decide where the cuts fall (a minute holding more
 * than `size` is one slice, read in several chunks). Their sum is the job's estimated total.
 */
export async function planWindow(
  backtest: Pick<ClaimedBacktest, "tenantId" | "roles" | "to">,
  start: Date,
  size: number,
): Promise<WindowPlan> {
  const params: unknown[] = [backtest.tenantId, start, backtest.to];
  let roleFilter = "";
  if (backtest.roles.length > 0) {
    params.push(backtest.roles);
    roleFilter = "AND role = ANY($4::text[])";
  }
  const { rows } = await getPool().query<{ bucket: Date; n: number }>(
    `SELECT bucket, sum(decisions)::float8 AS n FROM rollup_minute
      WHERE tenant_id = $1 AND bucket >= date_trunc('minute', $2::timestamptz) AND bucket < $3
        ${roleFilter}
      GROUP BY bucket ORDER BY bucket`,
    params,
  );
  const cuts: Date[] = [];
  let held = 0;
  let decisions = 0;
  for (const { bucket, n } of rows) {
    if (held > 0 && held + n > size && bucket > start) {
      cuts.push(bucket);
      held = 0;
    }
    held += n;
    decisions += n;
  }
  return { cuts, decisions };
}

/**
 * A decision row as the job reads it. The name lists and the intent come as JSON text and the
 * trace as its stored text: parsed by `DecisionTexts`, which keeps one parsed copy of each
 * distinct list and intent (recorded traffic offers the same lists over and over), rather than
 * by the driver's text-array parser for every row. The trace comes in full only when it holds
 * something the replay reads (`REPLAY_TRACE`), and the replay parses only those.
 */
interface DecisionRow {
  id: number;
  ts: Date;
  run_id: string;
  iteration: number;
  role: string;
  mode: string;
  config_version: string;
  turn_hop_index: number;
  /** The list of a decision stored before palettes; null when `palette_id` names it. */
  offered: string | null;
  palette_id: number | null;
  /** Null for a decision that selected its whole offered list (`selectedIsOffered`). */
  selected: string | null;
  forced_choice: string | null;
  intent: string | null;
  trace: string;
  has_outcome: boolean;
  called: string | null;
  reinstatements: number;
  empty_palette_warnings: number;
  stage_errors: number;
}

const decisionColumns = (trace: string) => `id, ts, run_id, iteration, role, mode,
  config_version, turn_hop_index, to_json(offered)::text AS offered, palette_id,
  to_json(selected)::text AS selected, forced_choice, intent::text AS intent, ${trace} AS trace,
  has_outcome, to_json(called)::text AS called, reinstatements, empty_palette_warnings,
  stage_errors`;

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const contains = (text: string) => `strpos(stored.trace, ${literal(text)}) > 0`;

/**
 * The stored trace as the replay reads it: its text when it holds something the replay reads
 * (`traceNeedsReading`, the same rule) or is not a list, else the stand-in that reads the same.
 * Most traces are not read, and their text was a good part of the bytes of a row. Reads
 * `stored.trace` from `STORED_TRACE`.
 */
const REPLAY_TRACE = `CASE
    WHEN left(stored.trace, 1) <> '[' OR ${contains(TRACE_TEXTS.degraded)}
      OR ${contains(TRACE_TEXTS.lazySelect)}
      OR (${contains(TRACE_TEXTS.lazyStage)} AND NOT ${contains(TRACE_TEXTS.lazyRecord)})
      THEN stored.trace
    WHEN ${contains(TRACE_TEXTS.lazyStage)} THEN ${literal(UNREAD_TRACE.lazyStage)}
    ELSE ${literal(UNREAD_TRACE.noLazyStage)}
  END`;

/**
 * The trace's text, decompressed once per row (`|| ''` makes a plain copy; `OFFSET 0` keeps
 * PostgreSQL from folding it back into each use): a compressed trace would otherwise be
 * decompressed again by every `strpos` of `REPLAY_TRACE`.
 */
const STORED_TRACE = "CROSS JOIN LATERAL (SELECT trace::text || '' AS trace OFFSET 0) stored";

/** The list of a missing value: one copy, so that it is one list to the job's memories too. */
const NO_NAMES: readonly string[] = [];

/** Most distinct lists and intents remembered; emptied when full. */
const MAX_REMEMBERED_TEXTS = 10_000;

/** Turns decision rows into recorded decisions, keeping one parsed copy of each distinct text. */
export class DecisionTexts {
  private readonly lists = new Map<string, readonly string[]>();
  private readonly intents = new Map<string, unknown>();
  private readonly palettes = new Map<number, readonly string[]>();

  /** Reads the offered lists (`palettes`) of `rows` not read yet: one query, usually none. */
  async loadPalettes(
    connection: pg.Pool | pg.PoolClient,
    tenantId: string,
    rows: readonly DecisionRow[],
  ): Promise<void> {
    const unknown = new Set<number>();
    for (const row of rows) {
      if (row.palette_id !== null && !this.palettes.has(row.palette_id)) {
        unknown.add(row.palette_id);
      }
    }
    if (unknown.size === 0) return;
    if (this.palettes.size + unknown.size > MAX_REMEMBERED_TEXTS) this.palettes.clear();
    const { rows: found } = await connection.query<{ id: number; tools: string[] }>(
      "SELECT id, tools FROM palettes WHERE tenant_id = $1 AND id = ANY($2::bigint[])",
      [tenantId, [...unknown]],
    );
    for (const palette of found) this.palettes.set(palette.id, palette.tools);
  }

  private names(text: string | null): readonly string[] {
    if (text === null) return NO_NAMES;
    let names = this.lists.get(text);
    if (!names) {
      const parsed: unknown = JSON.parse(text);
      names = Array.isArray(parsed)
        ? parsed.filter((name): name is string => typeof name === "string")
        : [];
      if (this.lists.size >= MAX_REMEMBERED_TEXTS) this.lists.clear();
      this.lists.set(text, names);
    }
    return names;
  }

  private intent(text: string | null): unknown {
    if (text === null) return null;
    let intent = this.intents.get(text);
    if (intent === undefined) {
      intent = JSON.parse(text);
      if (this.intents.size >= MAX_REMEMBERED_TEXTS) this.intents.clear();
      this.intents.set(text, intent);
    }
    return intent;
  }

  decision(row: DecisionRow): RecordedDecision {
    const offered =
      row.palette_id === null
        ? this.names(row.offered)
        : (this.palettes.get(row.palette_id) ?? NO_NAMES);
    return {
      id: row.id,
      ts: row.ts,
      runId: row.run_id,
      iteration: row.iteration,
      role: row.role,
      mode: row.mode,
      configVersion: row.config_version,
      turnHopIndex: row.turn_hop_index,
      offered,
      selected: row.selected === null ? offered : this.names(row.selected),
      forcedChoice: row.forced_choice,
      intent: this.intent(row.intent),
      trace: row.trace,
      hasOutcome: row.has_outcome,
      called: this.names(row.called),
      reinstatements: row.reinstatements,
      emptyPaletteWarnings: row.empty_palette_warnings,
      stageErrors: row.stage_errors,
    };
  }
}

/** Connections the job reads the window on, apart from the pool's other work. */
export interface ReadConnections {
  /** None when the pool is too small to spare them: reads then take any pooled connection. */
  clients: pg.PoolClient[];
  close(): void;
}

/**
 * Up to `count` connections for the job's reads, set to read a window's slice through the
 * `ts` index in order. Left to choose, PostgreSQL reads a short slice with a bitmap heap scan,
 * whose block reads (PostgreSQL 18's asynchronous I/O, `io_method = worker`) cost the job's 1M
 * decisions about twice the database CPU of the ordered index scan. Spares at least two of the
 * pool's connections for everything else; closed rather than returned, so the setting goes
 * with them.
 */
export async function openReadConnections(count: number): Promise<ReadConnections> {
  const pool = getPool();
  const spare = Math.min(count, (pool.options.max ?? 10) - 2);
  const clients: pg.PoolClient[] = [];
  const close = () => {
    for (const client of clients.splice(0)) client.release(true);
  };
  try {
    for (let i = 0; i < spare; i++) {
      const client = await pool.connect();
      clients.push(client);
      await client.query("SET enable_bitmapscan = off");
    }
  } catch (error) {
    close();
    throw error;
  }
  return { clients, close };
}

/**
 * The next `limit` decisions of the window after `cursor`, in (ts, id) order. Reads the
 * `decisions_ts_idx` range from the cursor's time (a bounded scan of the window; rows of other
 * tenants in it are filtered), so every chunk costs about the same wherever it lies. On
 * `connection` when given (`openReadConnections`), else on any pooled one.
 */
export async function readDecisions(
  backtest: Pick<ClaimedBacktest, "tenantId" | "roles" | "from" | "to">,
  cursor: Cursor | null,
  limit: number,
  texts: DecisionTexts = new DecisionTexts(),
  connection: pg.Pool | pg.PoolClient = getPool(),
): Promise<RecordedDecision[]> {
  const params: unknown[] = [backtest.tenantId, cursor?.ts ?? backtest.from, backtest.to, limit];
  const conditions = ["tenant_id = $1", "ts >= $2", "ts < $3"];
  if (cursor) {
    params.push(cursor.id);
    conditions.push(`(ts > $2 OR id > $${params.length})`);
  }
  if (backtest.roles.length > 0) {
    params.push(backtest.roles);
    conditions.push(`role = ANY($${params.length}::text[])`);
  }
  const { rows } = await connection.query<DecisionRow>(
    `SELECT ${decisionColumns(REPLAY_TRACE)}
       FROM ${DECISIONS_WITH_OUTCOMES} AS decisions ${STORED_TRACE}
      WHERE ${conditions.join(" AND ")}
      ORDER BY ts, id
      LIMIT $4`,
    params,
  );
  await texts.loadPalettes(connection, backtest.tenantId, rows);
  return rows.map((row) => texts.decision(row));
}

/**
 * One recorded decision of a tenant's run, as the replay reads it (the run trace shows its
 * replayed stage table beside the recorded one); null when there is none.
 */
export async function readRecordedDecision(
  tenantId: string,
  runId: string,
  iteration: number,
): Promise<RecordedDecision | null> {
  const { rows } = await getPool().query<DecisionRow>(
    `SELECT ${decisionColumns("trace::text")} FROM ${DECISIONS_WITH_OUTCOMES} AS decisions
      WHERE tenant_id = $1 AND run_id = $2 AND iteration = $3
      ORDER BY id LIMIT 1`,
    [tenantId, runId, iteration],
  );
  const texts = new DecisionTexts();
  await texts.loadPalettes(getPool(), tenantId, rows);
  const row = rows[0];
  return row ? texts.decision(row) : null;
}

/**
 * What the store knows of each tool's size for the tenant: `tool_sizes` (OTLP definitions and
 * the `tool_tokens` decisions carry), then the recorded `dropped_tokens` shared evenly among the tools each
 * decision dropped, over the window (`tool_rollup_hour`). The catalogue fallback is added by
 * the job, which holds the configs.
 */
export async function readToolSizes(
  backtest: Pick<ClaimedBacktest, "tenantId" | "from" | "to">,
): Promise<Map<string, ToolSizeEstimate>> {
  const pool = getPool();
  const sizes = new Map<string, ToolSizeEstimate>();
  const otlp = await pool.query<{ tool: string; tokens: number }>(
    "SELECT tool, tokens FROM tool_sizes WHERE tenant_id = $1",
    [backtest.tenantId],
  );
  for (const row of otlp.rows) sizes.set(row.tool, { ...row, source: "otlp" });
  const drops = await pool.query<{ tool: string; tokens: number }>(
    `SELECT tool, sum(dropped_tokens) / sum(dropped) AS tokens FROM tool_rollup_hour
      WHERE tenant_id = $1 AND bucket >= date_trunc('hour', $2::timestamptz) AND bucket < $3
      GROUP BY tool HAVING sum(dropped) > 0`,
    [backtest.tenantId, backtest.from, backtest.to],
  );
  for (const row of drops.rows) {
    if (!sizes.has(row.tool)) {
      sizes.set(row.tool, {
        tool: row.tool,
        tokens: Math.round(row.tokens),
        source: "recorded-drops",
      });
    }
  }
  return sizes;
}

/**
 * Commits one chunk: the sums so far, the keyset position after it and the count, in one
 * statement, and only if the checkpoint is still the one this job started the chunk from (a
 * second worker on the same backtest cannot commit the same decisions again). Returns the
 * state afterwards (`cancelling` when a cancel was asked), or null when the checkpoint moved.
 */
export async function commitChunk(
  id: string,
  previous: Cursor | null,
  next: Cursor,
  replayed: number,
  result: BacktestResult,
): Promise<BacktestState | null> {
  const { rows } = await getPool().query<{ state: BacktestState }>(
    `UPDATE backtests
        SET result = $5::jsonb, cursor_ts = $3, cursor_id = $4, replayed = replayed + $6,
            updated_at = now()
      WHERE id = $1 AND state IN ('running', 'cancelling')
        AND cursor_id IS NOT DISTINCT FROM $2::bigint
      RETURNING state`,
    [id, previous?.id ?? null, next.ts, next.id, JSON.stringify(result), replayed],
  );
  return rows[0]?.state ?? null;
}

/** Ends a job: `done` (with the final result), `cancelled` or `failed` (with the reason). */
export async function finishBacktest(
  id: string,
  state: "done" | "cancelled" | "failed",
  details: { result?: BacktestResult; error?: string } = {},
): Promise<void> {
  await getPool().query(
    `UPDATE backtests
        SET state = $2, finished_at = now(), updated_at = now(),
            result = coalesce($3::jsonb, result), error = $4
      WHERE id = $1 AND state IN ('queued', 'running', 'cancelling')`,
    [
      id,
      state,
      details.result ? JSON.stringify(details.result) : null,
      details.error?.slice(0, 2000) ?? null,
    ],
  );
}

/** The state of a backtest, read between chunks. */
export async function readBacktestState(id: string): Promise<BacktestState | null> {
  const { rows } = await getPool().query<{ state: BacktestState }>(
    "SELECT state FROM backtests WHERE id = $1",
    [id],
  );
  return rows[0]?.state ?? null;
}

/** Backtests a server should (re)start: queued ones, and running ones whose job was lost. */
export async function unfinishedBacktests(): Promise<string[]> {
  const { rows } = await getPool().query<{ id: string }>(
    `SELECT id FROM backtests WHERE state IN ('queued', 'running', 'cancelling')
      ORDER BY created_at`,
  );
  return rows.map((row) => row.id);
}
