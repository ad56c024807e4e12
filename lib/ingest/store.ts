/**
 * Storing accepted events: raw rows, the decision ↔ outcome join, the runs summary and every
 * rollup, all in one transaction, so a success is only ever reported after commit and a
 * total can never disagree with the rows it sums.
 *
 * Concurrent requests are grouped (group commit): while one transaction runs, new requests
 * queue, and the next transaction takes all of them. Rows go in with COPY (lib/ingest/copy.ts).
 * Idempotency: the transaction first looks up which of its event ids are already stored and
 * copies only the others; the unique (tenant_id, event_id) indexes are the backstop — a
 * concurrent transaction that stored the same id first makes COPY fail, and the whole
 * transaction is retried. Rollups are built only from the rows copied, so a duplicate is
 * stored once and counted once.
 *
 * Up to WRITERS transactions run at once (PostgreSQL then uses more than one core). Each
 * first takes a transaction-scoped advisory lock per (tenant, run, iteration) it touches — the
 * key decisions and outcomes are joined on — in sorted order, so two transactions, in this
 * process or another, never insert a decision and its outcome concurrently (they would not see
 * each other and never be joined), while batches that share a run but not an iteration (a
 * run's events split over consecutive batches) do not wait for each other. Rollup rows are
 * upserted in key order, so concurrent transactions do not deadlock on them; a deadlock or
 * serialisation failure is retried anyway.
 */
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { getPool } from "@/lib/db/client";
import { DECISION_COLUMNS, decisionsCopyText, OUTCOME_COLUMNS, outcomesCopyText } from "./copy";
import type { DecisionRow, OutcomeRow } from "./events";
import { type Aggregates, aggregateDeltas, type JoinedDecision } from "./rollups";

export type StoreInput =
  | { kind: "decision"; row: DecisionRow }
  | { kind: "outcome"; row: OutcomeRow };

/**
 * `created`: stored now. `duplicate`: this tenant already had the event id; nothing stored.
 * `refused`: PostgreSQL would not store this event (a value validation let through); nothing
 * of it was stored, and `reason` says why in PostgreSQL's words.
 */
export type StoreStatus = "created" | "duplicate" | { refused: string };

export class DatabaseUnavailable extends Error {
  override name = "DatabaseUnavailable";
}

interface Pending {
  items: StoreInput[];
  resolve: (statuses: StoreStatus[]) => void;
  reject: (error: unknown) => void;
}

interface Writer {
  queue: Pending[];
  active: number;
}

const MAX_EVENTS_PER_TRANSACTION = 2_000;
const WRITERS = 2;
const globalForWriter = globalThis as unknown as { routelensWriter?: Writer };

function writer(): Writer {
  globalForWriter.routelensWriter ??= { queue: [], active: 0 };
  return globalForWriter.routelensWriter;
}

/** Stores the items; resolves with one status per item once they are committed. */
export function storeEvents(items: StoreInput[]): Promise<StoreStatus[]> {
  if (items.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const w = writer();
    w.queue.push({ items, resolve, reject });
    if (w.active < WRITERS) void drain(w);
  });
}

async function drain(w: Writer): Promise<void> {
  w.active += 1;
  try {
    while (w.queue.length > 0) {
      const group: Pending[] = [];
      let size = 0;
      while (w.queue.length > 0 && (group.length === 0 || size < MAX_EVENTS_PER_TRANSACTION)) {
        const next = w.queue.shift() as Pending;
        group.push(next);
        size += next.items.length;
      }
      await writeGroup(group);
    }
  } finally {
    w.active -= 1;
  }
}

/**
 * Writes a group in one transaction. If that fails for any reason but an unavailable database,
 * no request fails on account of another: each request is written alone, and a request that
 * PostgreSQL still refuses is written an event at a time (`writeIsolated`).
 */
async function writeGroup(group: Pending[]): Promise<void> {
  let statuses: StoreStatus[];
  try {
    statuses = await writeWithRetry(group.flatMap((p) => p.items));
  } catch (error) {
    if (error instanceof DatabaseUnavailable) {
      for (const pending of group) pending.reject(error);
    } else if (group.length === 1) {
      // The request was alone already: go straight to its events.
      const [pending] = group as [Pending];
      await settle(pending, () => writeEachAlone(pending.items, error));
    } else {
      for (const pending of group) await settle(pending, () => writeIsolated(pending.items));
    }
    return;
  }
  let offset = 0;
  for (const pending of group) {
    pending.resolve(statuses.slice(offset, offset + pending.items.length));
    offset += pending.items.length;
  }
}

async function settle(pending: Pending, write: () => Promise<StoreStatus[]>): Promise<void> {
  try {
    pending.resolve(await write());
  } catch (error) {
    pending.reject(error);
  }
}

/** Writes `items` in one transaction; if PostgreSQL refuses it, each item in a transaction of its own. */
async function writeIsolated(items: StoreInput[]): Promise<StoreStatus[]> {
  try {
    return await writeWithRetry(items);
  } catch (error) {
    return writeEachAlone(items, error);
  }
}

/**
 * After `items` together failed with `error`: one transaction per item, in order (so the first
 * of two events with one id is the one stored). An item PostgreSQL refuses on its own is
 * reported as refused; its neighbours are stored exactly once.
 */
async function writeEachAlone(items: StoreInput[], error: unknown): Promise<StoreStatus[]> {
  if (!isRefusal(error)) throw error;
  if (items.length === 1) return [{ refused: refusalReason(error) }];
  const statuses: StoreStatus[] = [];
  for (const item of items) {
    try {
      statuses.push(...(await writeWithRetry([item])));
    } catch (itemError) {
      if (!isRefusal(itemError)) throw itemError;
      statuses.push({ refused: refusalReason(itemError) });
    }
  }
  return statuses;
}

/**
 * PostgreSQL refused the data itself: a data exception (22…, e.g. a value out of range), an
 * integrity constraint (23…), a program limit (54…, e.g. a row too large) or an error raised by
 * a trigger or function (P0…). Anything else is not the event's fault.
 */
const REFUSAL_CLASSES = ["22", "23", "54", "P0"];

function isRefusal(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof DatabaseUnavailable) return false;
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === "string" && code.length === 5 && REFUSAL_CLASSES.includes(code.slice(0, 2))
  );
}

function refusalReason(error: unknown): string {
  const { message, detail } = error as { message: string; detail?: string };
  return detail ? `${message} (${detail})` : message;
}

// Deadlock, serialisation failure, and a unique violation: an event id that a concurrent
// transaction stored first, which the retry's duplicate check then sees.
const RETRYABLE = new Set(["40P01", "40001", "23505"]);
const UNAVAILABLE_CODES = new Set([
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** True for errors that mean "the database cannot be reached now": retry later. */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code;
  if (code && (UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|Client has encountered a connection error/i.test(
    error.message,
  );
}

async function writeWithRetry(items: StoreInput[]): Promise<StoreStatus[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeTransaction(items);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code && RETRYABLE.has(code) && attempt < 4) continue;
      if (isUnavailable(error)) throw new DatabaseUnavailable((error as Error).message);
      throw error;
    }
  }
}

const eventKey = (tenant: string, id: string) => `${tenant}\u0000${id}`;

async function writeTransaction(items: StoreInput[]): Promise<StoreStatus[]> {
  // The first occurrence of an event id in the group is the one stored.
  const firstIndex = new Map<string, number>();
  items.forEach((item, i) => {
    const key = eventKey(item.row.tenant_id, item.row.event_id);
    if (!firstIndex.has(key)) firstIndex.set(key, i);
  });
  const unique = [...firstIndex.values()].map((i) => items[i] as StoreInput);

  const client = await getPool().connect();
  const created = new Set<string>();
  try {
    await client.query("BEGIN");
    await client.query(
      `SELECT pg_advisory_xact_lock(k)
         FROM (SELECT DISTINCT hashtextextended(t || chr(1) || r || chr(1) || i, 7369) AS k
                 FROM unnest($1::text[], $2::text[], $3::int[]) AS u(t, r, i)
                ORDER BY k) AS keys`,
      [
        unique.map((item) => item.row.tenant_id),
        unique.map((item) => item.row.run_id),
        unique.map((item) => item.row.iteration),
      ],
    );
    const { stored, outcomesWaiting } = await lookUpStored(client, unique);
    const fresh = unique.filter(
      (item) => !stored.has(eventKey(item.row.tenant_id, item.row.event_id)),
    );
    const newDecisions = fresh
      .filter((i) => i.kind === "decision")
      .map((i) => i.row as DecisionRow);
    const newOutcomes = fresh.filter((i) => i.kind === "outcome").map((i) => i.row as OutcomeRow);
    await insertDecisions(client, newDecisions);
    await insertOutcomes(client, newOutcomes);
    for (const item of fresh) created.add(eventKey(item.row.tenant_id, item.row.event_id));
    // A join is only possible with a new outcome, or with an outcome already waiting.
    const joined =
      newOutcomes.length > 0 || outcomesWaiting
        ? await joinOutcomes(client, [...newDecisions, ...newOutcomes])
        : [];
    await writeAggregatesAndCommit(client, aggregateDeltas(newDecisions, joined));
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    client.release(isUnavailable(error) ? (error as Error) : undefined);
    throw error;
  }
  client.release();

  return items.map((item, i) => {
    const key = eventKey(item.row.tenant_id, item.row.event_id);
    return firstIndex.get(key) === i && created.has(key) ? "created" : "duplicate";
  });
}

/**
 * What the transaction must know before it writes: the (tenant, event id) keys of `items`
 * already stored, as a decision or as an outcome, and whether an outcome is waiting to be
 * joined at the (tenant, run, iteration) of one of them. The advisory locks make both exact
 * for the keys this transaction locked; an event id sent again under another run or iteration
 * by a concurrent transaction surfaces as a unique violation in COPY, and the transaction is
 * retried.
 */
async function lookUpStored(
  client: pg.PoolClient,
  items: StoreInput[],
): Promise<{ stored: Set<string>; outcomesWaiting: boolean }> {
  const { rows } = await client.query<{ tenant_id: string | null; event_id: string | null }>(
    // Written as per-key LATERAL probes so that PostgreSQL walks the unique indexes and the
    // small outcomes_waiting_idx whatever its statistics say, never scanning a whole table.
    `WITH k AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[])
                  AS k(tenant_id, event_id, run_id, iteration))
     SELECT k.tenant_id, k.event_id FROM k, LATERAL (
              SELECT 1 FROM decisions d WHERE d.tenant_id = k.tenant_id AND d.event_id = k.event_id
              UNION ALL
              SELECT 1 FROM outcomes o WHERE o.tenant_id = k.tenant_id AND o.event_id = k.event_id
              LIMIT 1) AS found
     UNION ALL
     SELECT NULL, NULL
      WHERE EXISTS (SELECT 1 FROM k, LATERAL (
              SELECT 1 FROM outcomes o
               WHERE o.tenant_id = k.tenant_id AND o.run_id = k.run_id
                 AND o.iteration = k.iteration AND NOT o.joined
               LIMIT 1) AS waiting)`,
    [
      items.map((item) => item.row.tenant_id),
      items.map((item) => item.row.event_id),
      items.map((item) => item.row.run_id),
      items.map((item) => item.row.iteration),
    ],
  );
  const stored = new Set<string>();
  let outcomesWaiting = false;
  for (const row of rows) {
    if (row.tenant_id === null || row.event_id === null) outcomesWaiting = true;
    else stored.add(eventKey(row.tenant_id, row.event_id));
  }
  return { stored, outcomesWaiting };
}

/** Rows per COPY data message: small enough to overlap encoding with PostgreSQL's parsing. */
const COPY_CHUNK_ROWS = 100;

/**
 * Streams the rows through COPY a chunk at a time: PostgreSQL parses one chunk while the next
 * is encoded, and between chunks the event loop is free to serve the other transaction's
 * replies. Rejects with PostgreSQL's error (e.g. a unique violation) if COPY fails.
 */
async function copyRows<Row>(
  client: pg.PoolClient,
  statement: string,
  rows: readonly Row[],
  encode: (rows: readonly Row[]) => string,
): Promise<void> {
  const stream = client.query(copyFrom(statement));
  let failed = false;
  const done = new Promise<void>((resolve, reject) => {
    stream.on("finish", resolve);
    stream.on("error", (error) => {
      failed = true;
      reject(error);
    });
  });
  done.catch(() => {}); // awaited below; this only keeps an early failure from counting as unhandled
  for (let i = 0; i < rows.length && !failed; i += COPY_CHUNK_ROWS) {
    const flushed = stream.write(encode(rows.slice(i, i + COPY_CHUNK_ROWS)));
    await Promise.race([
      done,
      new Promise((resolve) => (flushed ? setImmediate(resolve) : stream.once("drain", resolve))),
    ]);
  }
  if (!failed) stream.end();
  await done;
}

async function insertDecisions(client: pg.PoolClient, rows: DecisionRow[]): Promise<void> {
  if (rows.length === 0) return;
  const statement = `COPY decisions (${DECISION_COLUMNS.join(", ")}) FROM STDIN`;
  await copyRows(client, statement, rows, decisionsCopyText);
}

async function insertOutcomes(client: pg.PoolClient, rows: OutcomeRow[]): Promise<void> {
  if (rows.length === 0) return;
  const statement = `COPY outcomes (${OUTCOME_COLUMNS.join(", ")}) FROM STDIN`;
  await copyRows(client, statement, rows, outcomesCopyText);
}

/**
 * Pairs every not-yet-joined decision with the first not-yet-joined outcome of the same
 * (tenant, run, iteration), for the keys this transaction touched, whichever arrived first.
 */
async function joinOutcomes(
  client: pg.PoolClient,
  touched: { tenant_id: string; run_id: string; iteration: number }[],
): Promise<JoinedDecision[]> {
  if (touched.length === 0) return [];
  const keys = [
    ...new Map(
      touched.map((t) => [
        `${t.tenant_id}\u0000${t.run_id}\u0000${t.iteration}`,
        { tenant_id: t.tenant_id, run_id: t.run_id, iteration: t.iteration },
      ]),
    ).values(),
  ];
  const { rows } = await client.query<JoinedDecision>(
    `WITH keys AS (
       SELECT * FROM json_to_recordset($1::json) AS k(tenant_id text, run_id text, iteration int)
     ),
     pairs AS (
       SELECT DISTINCT ON (d.id) d.id AS decision_id, o.id AS outcome_id, o.called
         FROM keys k
         JOIN decisions d ON d.tenant_id = k.tenant_id AND d.run_id = k.run_id
                         AND d.iteration = k.iteration AND NOT d.has_outcome
         JOIN outcomes o ON o.tenant_id = k.tenant_id AND o.run_id = k.run_id
                         AND o.iteration = k.iteration AND NOT o.joined
        ORDER BY d.id, o.id
     ),
     marked AS (
       UPDATE outcomes o SET joined = true FROM pairs p WHERE o.id = p.outcome_id
     )
     UPDATE decisions d
        SET has_outcome = true,
            called = COALESCE(p.called, '{}'),
            harmful_tools = ARRAY(
              SELECT DISTINCT c FROM unnest(COALESCE(p.called, '{}')) AS c
               WHERE c = ANY(COALESCE(d.dropped, '{}')) ORDER BY c)
       FROM pairs p
      WHERE d.id = p.decision_id
     RETURNING d.tenant_id, d.run_id, d.role, d.mode, d.config_version, d.iteration,
               d.ts, d.called, d.harmful_tools`,
    [JSON.stringify(keys)],
  );
  return rows;
}

const ROLLUP_MEASURES = [
  "decisions",
  "dropped_tokens",
  "dropped_tokens_sq",
  "offered_tools",
  "offered_tools_sq",
  "selected_tools",
  "selected_tools_sq",
  "reinstatements",
  "empty_palette_warnings",
  "stage_errors",
  "decisions_reinstated",
  "decisions_empty_palette",
  "decisions_stage_error",
  "outcomes",
  "harmful_decisions",
  "harmful_drops",
  "zero_call_outcomes",
] as const;

const FLOAT_MEASURES = new Set(["dropped_tokens_sq", "offered_tools_sq", "selected_tools_sq"]);

/** A JSON value as a SQL literal, escaped by node-postgres (quotes and backslashes). */
const jsonLiteral = (client: pg.PoolClient, value: unknown) =>
  `${client.escapeLiteral(JSON.stringify(value))}::json`;

function upsertRollupSql(
  client: pg.PoolClient,
  table: "rollup_minute" | "rollup_hour",
  rows: Aggregates["minute"],
): string | null {
  if (rows.length === 0) return null;
  const columns = ROLLUP_MEASURES.map(
    (m) => `${m} ${FLOAT_MEASURES.has(m) ? "float8" : "bigint"}`,
  ).join(", ");
  return `INSERT INTO ${table} (tenant_id, role, mode, config_version, bucket, ${ROLLUP_MEASURES.join(", ")})
     SELECT r.tenant_id, r.role, r.mode, r.config_version, r.bucket, ${ROLLUP_MEASURES.map((m) => `r.${m}`).join(", ")}
       FROM json_to_recordset(${jsonLiteral(client, rows)}) AS r(tenant_id text, role text, mode text,
            config_version text, bucket timestamptz, ${columns})
      ORDER BY r.tenant_id, r.role, r.mode, r.config_version, r.bucket
     ON CONFLICT (tenant_id, role, mode, config_version, bucket) DO UPDATE SET
       ${ROLLUP_MEASURES.map((m) => `${m} = ${table}.${m} + EXCLUDED.${m}`).join(",\n       ")}`;
}

function upsertToolsSql(client: pg.PoolClient, rows: Aggregates["tools"]): string | null {
  if (rows.length === 0) return null;
  return `INSERT INTO tool_rollup_hour (tenant_id, role, mode, bucket, tool, offered, selected, dropped,
          called, harmful_drops, dropped_tokens)
       SELECT r.tenant_id, r.role, r.mode, r.bucket, r.tool, r.offered, r.selected, r.dropped,
          r.called, r.harmful_drops, r.dropped_tokens
         FROM json_to_recordset(${jsonLiteral(client, rows)}) AS r(tenant_id text, role text, mode text,
          bucket timestamptz, tool text, offered bigint, selected bigint, dropped bigint,
          called bigint, harmful_drops bigint, dropped_tokens float8)
        ORDER BY r.tenant_id, r.role, r.mode, r.bucket, r.tool
       ON CONFLICT (tenant_id, role, mode, bucket, tool) DO UPDATE SET
         offered = tool_rollup_hour.offered + EXCLUDED.offered,
         selected = tool_rollup_hour.selected + EXCLUDED.selected,
         dropped = tool_rollup_hour.dropped + EXCLUDED.dropped,
         called = tool_rollup_hour.called + EXCLUDED.called,
         harmful_drops = tool_rollup_hour.harmful_drops + EXCLUDED.harmful_drops,
         dropped_tokens = tool_rollup_hour.dropped_tokens + EXCLUDED.dropped_tokens`;
}

function upsertRunsSql(client: pg.PoolClient, rows: Aggregates["runs"]): string | null {
  if (rows.length === 0) return null;
  return `INSERT INTO runs (tenant_id, run_id, first_seen, last_seen, decisions, max_iteration, roles,
          modes, dropped_tokens, reinstatements, empty_palette_warnings, stage_errors, harmful_drops)
       SELECT r.tenant_id, r.run_id, r.first_seen, r.last_seen, r.decisions, r.max_iteration,
          r.roles, r.modes, r.dropped_tokens, r.reinstatements, r.empty_palette_warnings,
          r.stage_errors, r.harmful_drops
         FROM json_to_recordset(${jsonLiteral(client, rows)}) AS r(tenant_id text, run_id text, first_seen timestamptz,
          last_seen timestamptz, decisions bigint, max_iteration int, roles text[], modes text[],
          dropped_tokens bigint, reinstatements bigint, empty_palette_warnings bigint,
          stage_errors bigint, harmful_drops bigint)
        ORDER BY r.tenant_id, r.run_id
       ON CONFLICT (tenant_id, run_id) DO UPDATE SET
         first_seen = LEAST(runs.first_seen, EXCLUDED.first_seen),
         last_seen = GREATEST(runs.last_seen, EXCLUDED.last_seen),
         decisions = runs.decisions + EXCLUDED.decisions,
         max_iteration = GREATEST(runs.max_iteration, EXCLUDED.max_iteration),
         roles = ARRAY(SELECT DISTINCT x FROM unnest(runs.roles || EXCLUDED.roles) AS x ORDER BY x),
         modes = ARRAY(SELECT DISTINCT x FROM unnest(runs.modes || EXCLUDED.modes) AS x ORDER BY x),
         dropped_tokens = runs.dropped_tokens + EXCLUDED.dropped_tokens,
         reinstatements = runs.reinstatements + EXCLUDED.reinstatements,
         empty_palette_warnings = runs.empty_palette_warnings + EXCLUDED.empty_palette_warnings,
         stage_errors = runs.stage_errors + EXCLUDED.stage_errors,
         harmful_drops = runs.harmful_drops + EXCLUDED.harmful_drops`;
}

/**
 * Upserts every rollup and the runs summary and commits, in one round trip (a multi-statement
 * query; the rows travel as escaped JSON literals). Concurrent transactions touch the same
 * rollup rows, so the time between the first upsert and the commit — while those rows stay
 * locked — is kept as short as it can be. Tables in a fixed order, rows sorted by key: no
 * deadlock between transactions.
 */
async function writeAggregatesAndCommit(
  client: pg.PoolClient,
  aggregates: Aggregates,
): Promise<void> {
  const statements = [
    upsertRollupSql(client, "rollup_minute", aggregates.minute),
    upsertRollupSql(client, "rollup_hour", aggregates.hour),
    upsertToolsSql(client, aggregates.tools),
    upsertRunsSql(client, aggregates.runs),
    "COMMIT",
  ].filter((statement) => statement !== null);
  await client.query(statements.join(";\n"));
}
