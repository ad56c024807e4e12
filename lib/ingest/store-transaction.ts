/**
 * One ingest transaction: raw rows, the decision ↔ outcome join (decision-outcomes.ts), the
 * runs summary, every rollup and the tool sizes the new decisions carry (`tool_tokens`,
 * lib/ingest/tool-sizes.ts), committed together, so a total can never disagree with the rows
 * it sums.
 *
 * Rows go in with COPY (lib/ingest/copy.ts). Idempotency: the transaction first adds its event
 * ids to `event_ids` (lib/ingest/event-ids.ts), skipping those already there, and copies only
 * the rows whose ids it added; an id a concurrent transaction is adding makes it wait for that
 * one's outcome. Rollups are built only from the rows copied, so a duplicate is stored once and
 * counted once. Each round trip is a wait, under load, for PostgreSQL and for the server's
 * thread, so they are kept few: a batch of decisions is four — `BEGIN` with the event ids, the
 * locks and the look-ups of waiting joins, COPY (two), the rollups with `COMMIT` — and new
 * palettes, tool lists this process has not seen, outcomes and joins left to the database
 * (with the waits for keys another transaction holds) add theirs only when there are some.
 *
 * Two transactions, in this process or another, that store a decision and its outcome at the
 * same time would not see each other's rows and never join them. So each join key (tenant,
 * run, iteration) has a transaction-scoped advisory lock, and a transaction joins at a key only
 * while it holds the key's lock, after the transactions that held it before have ended. It
 * tries every key's lock once its event ids are added, without waiting: at the keys it holds it
 * joins as if alone. At a key another transaction holds (an outcome whose decision is in the
 * batch still being stored: the usual case when an agent's decision and outcome land in
 * consecutive batches) it writes its decisions unjoined, waits for the lock only after, and
 * then joins there in the database — so consecutive batches are written side by side and wait
 * only for each other's end. Outcomes the database may join are written after that join, marked as it
 * joined them, so that no outcome row is written twice. Batches that share a run but not an
 * iteration never wait for each other. Rollup rows are upserted in key order
 * (`rollup-upserts.ts`), so concurrent transactions do not deadlock on them.
 *
 * A decision and its outcome that arrive in one transaction — what an agent's telemetry client
 * usually sends, since it records both within seconds — are joined in memory and stored joined
 * (`joinHere`); only the rest is paired by the database (`joinOutcomes`), which reads the
 * stored decisions back. Either way the harmful tools are found here and a joined decision gets
 * a row in `decision_outcomes` with the commit; the decision row is written once.
 */
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { getPool } from "@/lib/db/client";
import { sqlArrayLiteral } from "@/lib/db/sql-literal";
import { isUnavailable } from "@/lib/db/unavailable";
import {
  copyData,
  JOINED_OUTCOME_COLUMNS,
  joinedOutcomeLine,
  NUMBERED_DECISION_COLUMNS,
  numberedDecisionLine,
} from "./copy";
import {
  type DecisionOutcomeRow,
  insertDecisionOutcomesSql,
  type NumberedDecision,
  outcomeRowsOf,
  takeDecisionIdsSql,
} from "./decision-outcomes";
import { type DecisionRow, droppedTools, harmfulTools, type OutcomeRow } from "./events";
import {
  type LearnedPalettes,
  NOTHING_LEARNED,
  PALETTE_GATE,
  paletteEpochOf,
  rememberPalettes,
  resolvePalettes,
  toolsOfPalettes,
} from "./palettes";
import { writeAggregatesAndCommit } from "./rollup-upserts";
import { aggregateDeltas, type JoinedDecision, joinedDecision } from "./rollups";
import { latestToolSizes, upsertToolSizesSql } from "./tool-sizes";

export type StoreInput =
  | { kind: "decision"; row: DecisionRow }
  | { kind: "outcome"; row: OutcomeRow };

/** `created`: stored now. `duplicate`: this tenant already had the event id; nothing stored. */
export type TransactionStatus = "created" | "duplicate";

const eventKey = (tenant: string, id: string) => `${tenant}\u0000${id}`;

/** Writes `items` in one transaction; one status per item, once committed. */
export async function writeTransaction(items: StoreInput[]): Promise<TransactionStatus[]> {
  // The first occurrence of an event id in the group is the one stored.
  const firstIndex = new Map<string, number>();
  items.forEach((item, i) => {
    const key = eventKey(item.row.tenant_id, item.row.event_id);
    if (!firstIndex.has(key)) firstIndex.set(key, i);
  });
  const unique = [...firstIndex.values()].map((i) => items[i] as StoreInput);

  const client = await getPool().connect();
  const created = new Set<string>();
  let palettes: LearnedPalettes = NOTHING_LEARNED;
  try {
    const { epoch, stored, contended, ids, waiting, unjoined } = await begin(client, unique);
    const fresh = unique.filter(
      (item) => !stored.has(eventKey(item.row.tenant_id, item.row.event_id)),
    );
    const newDecisions = fresh
      .filter((i) => i.kind === "decision")
      .map((i) => i.row as DecisionRow);
    const newOutcomes = fresh.filter((i) => i.kind === "outcome").map((i) => i.row as OutcomeRow);
    const here = joinHere(
      newDecisions,
      newOutcomes,
      (key) => contended.has(key) || waiting.has(key) || unjoined.has(key),
    );
    palettes = await resolvePalettes(client, newDecisions, epoch);
    const numbered = newDecisions.map(
      (row, i): NumberedDecision => ({ id: ids[i] as string, row }),
    );
    await insertDecisions(client, numbered);
    for (const item of fresh) created.add(eventKey(item.row.tenant_id, item.row.event_id));
    // What was not joined here is joined by the database, where a join is possible: at a key
    // with a new outcome, or with an outcome already waiting; and at every contended key with a
    // new row, once its lock is held, since the transaction that held it may have stored the
    // other half.
    const elsewhere = [...newDecisions, ...newOutcomes].filter((row) => {
      const key = joinKey(row);
      return (
        contended.has(key) ||
        (!here.settled.has(key) && (here.outcomeKeys.has(key) || waiting.has(key)))
      );
    });
    const locksToWait = new Set(
      elsewhere.filter((row) => contended.has(joinKey(row))).map(lockKey),
    );
    // The new outcomes the database may join go in after its join, which says which it joined:
    // each row is written once, already marked, instead of copied and then updated.
    const touched = new Set(elsewhere.map(joinKey));
    const toJoin = newOutcomes.filter(
      (row) => !here.joinedOutcomes.has(row) && touched.has(joinKey(row)),
    );
    const there = await joinOutcomes(client, elsewhere, toJoin, locksToWait);
    await insertOutcomes(client, newOutcomes, new Set([...here.joinedOutcomes, ...there.outcomes]));
    const joined = [...here.joinedOf.values(), ...there.decisions];
    await writeAggregatesAndCommit(client, aggregateDeltas(newDecisions, joined), [
      insertDecisionOutcomesSql([...outcomeRowsOf(numbered, here.joinedOf), ...there.rows]),
      upsertToolSizesSql(latestToolSizes(newDecisions)),
    ]);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    client.release(isUnavailable(error) ? (error as Error) : undefined);
    throw error;
  }
  client.release();
  rememberPalettes(palettes);

  return items.map((item, i) => {
    const key = eventKey(item.row.tenant_id, item.row.event_id);
    return firstIndex.get(key) === i && created.has(key) ? "created" : "duplicate";
  });
}

/**
 * The text of a row's join key as its advisory lock names it (U+0001 between the parts: SQL text
 * cannot hold the U+0000 of `joinKey`), and the lock's number, hashed from it by PostgreSQL.
 */
const lockKey = (row: { tenant_id: string; run_id: string; iteration: number }) =>
  `${row.tenant_id}\u0001${row.run_id}\u0001${row.iteration}`;
const LOCK_OF_KEY = (key: string) => `hashtextextended(${key}, 7369)`;

/**
 * Opens the transaction and, in one round trip (one simple query, so every value is written
 * into its text as an escaped literal):
 *
 * 1. adds the (tenant, event id) keys of `items` to `event_ids` (lib/ingest/event-ids.ts),
 *    skipping those already there, and answers those skipped: stored already, as a decision or
 *    as an outcome. An id a concurrent transaction is adding makes the insert wait for that
 *    transaction: if it commits, the id counts as stored here; if it rolls back, it is added
 *    here. Ids are inserted in key order, so two transactions adding overlapping ids wait for
 *    each other in one order, never in a cycle;
 * 2. then tries the transaction-scoped advisory lock of every join key (tenant, run,
 *    iteration) of `items`, without waiting: the keys a concurrent transaction holds come back
 *    as `contended` (join keys, `joinKey`), and this transaction joins nothing at them until it
 *    holds their locks too (`joinOutcomes`);
 * 3. looks up what the transaction must know before it writes (`waitingJoinsSql`): the keys
 *    where an outcome waits, and where a stored decision waits for the outcome `items` hold;
 * 4. takes an id for each of their decisions (decision-outcomes.ts; those of decisions found
 *    stored already go unused) and the palette gate (lib/ingest/palettes.ts).
 *
 * The ids come before the locks so that a transaction never holds a join key's lock while it
 * waits for an id. The same batch sent twice at once (a client retrying a request still in
 * flight) used to split the keys' locks between its two transactions, each then waiting for
 * the other — one for an id, the other for a key — until PostgreSQL broke the deadlock after
 * `deadlock_timeout` (a second) and the store retried. Now the second waits at its ids, holding
 * no lock, for the first to end, and then finds every id stored. The look-up comes after the
 * tries (each statement of the query sees what committed before it began), so it is exact at
 * every key this transaction holds.
 */
async function begin(
  client: pg.PoolClient,
  items: StoreInput[],
): Promise<{
  epoch: string;
  stored: Set<string>;
  contended: Set<string>;
  ids: string[];
  waiting: Set<string>;
  unjoined: Set<string>;
}> {
  const joinKeyOf = new Map<string, string>();
  for (const { row } of items) joinKeyOf.set(lockKey(row), joinKey(row));
  const results = (await client.query(
    `BEGIN;
     WITH k AS (SELECT * FROM unnest(${sqlArrayLiteral(items.map((item) => item.row.tenant_id))}::text[],
                                     ${sqlArrayLiteral(items.map((item) => item.row.event_id))}::text[],
                                     ${sqlArrayLiteral(items.map((item) => item.row.ts))}::timestamptz[])
                  AS k(tenant_id, event_id, ts)),
          added AS (INSERT INTO event_ids (tenant_id, event_id, ts)
                    SELECT tenant_id, event_id, ts FROM k ORDER BY tenant_id, event_id
                    ON CONFLICT DO NOTHING
                    RETURNING tenant_id, event_id)
     SELECT k.tenant_id, k.event_id FROM k
      WHERE NOT EXISTS (SELECT 1 FROM added a
                         WHERE a.tenant_id = k.tenant_id AND a.event_id = k.event_id);
     WITH keys AS (SELECT key, ${LOCK_OF_KEY("key")} AS k
                     FROM unnest(${sqlArrayLiteral([...joinKeyOf.keys()])}::text[]) AS key),
          tried AS MATERIALIZED (
            SELECT k, pg_try_advisory_xact_lock(k) AS held
              FROM (SELECT DISTINCT k FROM keys ORDER BY k) AS distinct_keys)
     SELECT keys.key FROM keys JOIN tried USING (k) WHERE NOT tried.held;
     ${waitingJoinsSql(items)};
     ${takeDecisionIdsSql(items.filter((item) => item.kind === "decision").length)};
     ${PALETTE_GATE}`,
  )) as unknown as pg.QueryResult<{
    tenant_id: string;
    event_id: string;
    key: string;
    kind: "waiting" | "unjoined";
    run_id: string;
    iteration: number;
    id: string;
  }>[];
  const stored = new Set(
    (results[1]?.rows ?? []).map((row) => eventKey(row.tenant_id, row.event_id)),
  );
  const contended = new Set(
    (results[2]?.rows ?? []).map(({ key }) => joinKeyOf.get(key) as string),
  );
  const waiting = new Set<string>();
  const unjoined = new Set<string>();
  for (const row of results[3]?.rows ?? []) {
    (row.kind === "waiting" ? waiting : unjoined).add(joinKey(row));
  }
  const ids = (results[4]?.rows ?? []).map(({ id }) => id);
  return { epoch: paletteEpochOf(results), stored, contended, ids, waiting, unjoined };
}

/**
 * The statement that waits for the advisory locks of the `contended` keys (`lockKey` texts), in
 * lock order, once this transaction's rows are written: the transactions holding them have
 * committed or rolled back when it ends, so the join that follows it in the same round trip
 * (`joinOutcomes`) sees their rows. Two transactions that each hold a key the other waits for
 * are a deadlock PostgreSQL breaks by failing one, which is then retried (write-retry.ts); it
 * takes two concurrent batches with rows of different event ids at the same two join keys,
 * whose tries each took one of them. The same batch sent twice at once is not such a pair: its
 * second transaction waits at its event ids, before trying any lock.
 */
const lockContendedSql = (contended: Iterable<string>) =>
  `SELECT pg_advisory_xact_lock(k)
     FROM (SELECT DISTINCT ${LOCK_OF_KEY("key")} AS k
             FROM unnest(${sqlArrayLiteral([...contended])}::text[]) AS key ORDER BY k) AS keys`;

/**
 * The look-up of what the transaction must know before it writes, for `begin`'s round trip
 * once the join keys' locks were tried: the join keys (tenant, run, iteration) of `items` at
 * which an outcome is waiting to be joined (`kind` 'waiting'); and, among the keys where
 * `items` hold both a decision and an outcome, those with a stored decision still waiting for
 * its outcome ('unjoined'). The advisory locks make both exact for the keys this transaction
 * locked. The statement is the function `routelens_waiting_joins` (migration
 * 20261215000000_ingest_join_functions, which says how it probes), planned once per connection.
 */
function waitingJoinsSql(items: StoreInput[]): string {
  const decisionKeys = new Set<string>();
  for (const item of items) if (item.kind === "decision") decisionKeys.add(joinKey(item.row));
  const both = new Map<string, StoreInput["row"]>();
  for (const item of items) {
    const key = joinKey(item.row);
    if (item.kind === "outcome" && decisionKeys.has(key)) both.set(key, item.row);
  }
  return `SELECT * FROM routelens_waiting_joins(${joinKeyArrays(items.map((item) => item.row))},
     ${joinKeyArrays([...both.values()])})`;
}

/** The key a decision and its outcome are joined on. */
const joinKey = (row: { tenant_id: string; run_id: string; iteration: number }) =>
  `${row.tenant_id}\u0000${row.run_id}\u0000${row.iteration}`;

/** The join keys of `rows` as three array literals, the arguments of an `unnest(…)`. */
const joinKeyArrays = (rows: readonly { tenant_id: string; run_id: string; iteration: number }[]) =>
  `${sqlArrayLiteral(rows.map((row) => row.tenant_id))}::text[],
     ${sqlArrayLiteral(rows.map((row) => row.run_id))}::text[],
     ${sqlArrayLiteral(rows.map((row) => row.iteration))}::int[]`;

/**
 * The joins this transaction makes in memory: a decision and its outcome sent together (as an
 * agent's telemetry client sends them) are stored joined, with no second write of either row.
 *
 * The result is the one the SQL join (`joinOutcomes`) would store. At a key where the new
 * rows hold a decision and an outcome, and nothing stored at the key waits (no outcome waiting
 * to be joined, no decision waiting for its outcome: `blocked` tells), every new decision of
 * the key is joined to the key's first new outcome in the order of the batch — the order their
 * ids were taken in — and that outcome is marked joined. Such keys are `settled`: the SQL join
 * skips them. `joinedOf` gives each decision joined here as the SQL join would return it.
 */
function joinHere(
  decisions: readonly DecisionRow[],
  outcomes: readonly OutcomeRow[],
  blocked: (key: string) => boolean,
): {
  joinedOf: Map<DecisionRow, JoinedDecision>;
  joinedOutcomes: Set<OutcomeRow>;
  settled: Set<string>;
  outcomeKeys: Set<string>;
} {
  const firstOutcome = new Map<string, OutcomeRow>();
  for (const outcome of outcomes) {
    const key = joinKey(outcome);
    if (!firstOutcome.has(key)) firstOutcome.set(key, outcome);
  }
  const outcomeKeys = new Set(firstOutcome.keys());
  const settled = new Set<string>();
  const joinedOf = new Map<DecisionRow, JoinedDecision>();
  const joinedOutcomes = new Set<OutcomeRow>();
  for (const decision of decisions) {
    const key = joinKey(decision);
    const outcome = firstOutcome.get(key);
    if (outcome === undefined || blocked(key)) continue;
    settled.add(key);
    const harmful = harmfulTools(outcome.called, decision.dropped);
    joinedOf.set(decision, joinedDecision(decision, outcome.called, harmful));
    joinedOutcomes.add(outcome);
  }
  return { joinedOf, joinedOutcomes, settled, outcomeKeys };
}

/** Rows per COPY data message: small enough to overlap encoding with PostgreSQL's parsing. */
const COPY_CHUNK_ROWS = 100;

/**
 * Streams the rows through COPY a chunk at a time: PostgreSQL parses one chunk while the next
 * is encoded, and between chunks the event loop is free to serve the other transaction's
 * replies. Rejects with PostgreSQL's error (e.g. a unique violation) if COPY fails.
 */
export async function copyRows<Row>(
  client: pg.PoolClient,
  statement: string,
  rows: readonly Row[],
  line: (row: Row) => string,
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
    const flushed = stream.write(copyData(rows.slice(i, i + COPY_CHUNK_ROWS), line));
    await Promise.race([
      done,
      new Promise((resolve) => (flushed ? setImmediate(resolve) : stream.once("drain", resolve))),
    ]);
  }
  if (!failed) stream.end();
  await done;
}

/** Copies the new decisions with the ids taken for them. */
async function insertDecisions(client: pg.PoolClient, rows: NumberedDecision[]): Promise<void> {
  if (rows.length === 0) return;
  const statement = `COPY decisions (${NUMBERED_DECISION_COLUMNS.join(", ")}) FROM STDIN`;
  await copyRows(client, statement, rows, numberedDecisionLine);
}

/** Copies the new outcomes, in batch order; those in `joined` are stored joined. */
async function insertOutcomes(
  client: pg.PoolClient,
  rows: OutcomeRow[],
  joined: Set<OutcomeRow>,
): Promise<void> {
  if (rows.length === 0) return;
  const statement = `COPY outcomes (${JOINED_OUTCOME_COLUMNS.join(", ")}) FROM STDIN`;
  await copyRows(client, statement, rows, (row) => joinedOutcomeLine(row, joined.has(row)));
}

/** A pair the join's statement found: the stored decision, and its outcome's part. */
interface PairRow
  extends Pick<
    JoinedDecision,
    "tenant_id" | "run_id" | "role" | "mode" | "config_version" | "iteration"
  > {
  ts: Date;
  /** Null for a decision that selected its whole offered list (`selectedIsOffered`). */
  selected: string[] | null;
  /** `ts` to the microsecond, for the outcome row that names the decision by it. */
  exact_ts: string;
  decision_id: string;
  palette_id: string | null;
  /** The decision's own offered list: only for a decision stored before palettes. */
  offered: string[] | null;
  /** The stored outcome's calls; null for one of `outcomes` (`unwritten`, its index). */
  called: string[] | null;
  unwritten: number | null;
}

/**
 * Pairs every not-yet-joined decision with the first not-yet-joined outcome of the same
 * (tenant, run, iteration), for the keys this transaction touched, whichever arrived first:
 * outcomes stored unjoined before (in the order they were stored), then `outcomes`, this
 * transaction's new ones not joined in memory and not yet written (in batch order), and marks
 * the stored outcomes it pairs as joined. The statement is the function
 * `routelens_join_outcomes` (migration 20261215000000_ingest_join_functions, which says how it
 * probes), planned once per connection. When `contended` keys are given, the same round trip
 * first waits for their locks (`lockContendedSql`); each statement of a simple query sees what
 * committed before it began.
 *
 * The statement only pairs: the harmful tools of each pair are found here, as for a join in
 * memory, from the decision's tool list (`toolsOfPalettes`: usually known to this process),
 * and the outcome rows go in with the commit. Answers the decisions joined, their outcome rows,
 * and which of `outcomes` they were joined to: the caller writes those marked joined.
 */
async function joinOutcomes(
  client: pg.PoolClient,
  touched: { tenant_id: string; run_id: string; iteration: number }[],
  outcomes: readonly OutcomeRow[],
  contended: ReadonlySet<string>,
): Promise<{
  decisions: JoinedDecision[];
  rows: DecisionOutcomeRow[];
  outcomes: Set<OutcomeRow>;
}> {
  if (touched.length === 0) return { decisions: [], rows: [], outcomes: new Set() };
  const keys = [...new Map(touched.map((t) => [joinKey(t), t])).values()];
  const join = `SELECT * FROM routelens_join_outcomes(${joinKeyArrays(keys)},
     ${joinKeyArrays(outcomes)})`;
  const results = (await client.query(
    contended.size > 0 ? `${lockContendedSql(contended)};\n${join}` : join,
  )) as unknown as pg.QueryResult<PairRow> | pg.QueryResult<PairRow>[];
  const pairs = (Array.isArray(results) ? results[results.length - 1] : results)?.rows ?? [];

  const toolsOf = await toolsOfPalettes(client, pairs);
  const decisions: JoinedDecision[] = [];
  const rows: DecisionOutcomeRow[] = [];
  const joinedOutcomes = new Set<OutcomeRow>();
  for (const pair of pairs) {
    const outcome = pair.unwritten === null ? undefined : outcomes[pair.unwritten];
    if (outcome !== undefined) joinedOutcomes.add(outcome);
    const called = outcome?.called ?? pair.called ?? [];
    const offered =
      (pair.palette_id === null ? null : toolsOf(pair.tenant_id, pair.palette_id)) ??
      pair.offered ??
      [];
    const selected = pair.selected ?? offered;
    const harmful = harmfulTools(called, droppedTools(offered, selected));
    decisions.push({
      tenant_id: pair.tenant_id,
      run_id: pair.run_id,
      role: pair.role,
      mode: pair.mode,
      config_version: pair.config_version,
      iteration: pair.iteration,
      ts: pair.ts,
      called,
      harmful_tools: harmful,
      offered: offered as string[],
      selected: selected as string[],
    });
    rows.push({
      tenant_id: pair.tenant_id,
      decision_id: pair.decision_id,
      ts: pair.exact_ts,
      called,
      harmful_tools: harmful,
    });
  }
  return { decisions, rows, outcomes: joinedOutcomes };
}
