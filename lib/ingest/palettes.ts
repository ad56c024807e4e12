/**
 * Tool lists stored once per tenant (`palettes`): a decision names its `offered` list by
 * `palette_id`. Agents offer the same palette over and over, so a transaction usually finds
 * every list among those this process has already seen committed and sends nothing; the others
 * are added (or found, when another transaction added them first) with one statement.
 *
 * Ids are remembered only once the transaction that used them has committed
 * (`rememberPalettes`): a list added by a transaction that rolls back is gone, and its id must
 * not name anything later.
 *
 * Retention (`prunePalettes`, which `npm run prune` runs before it removes decisions): each
 * list keeps `last_day`, the latest UTC day of a decision naming it, which ingest moves up when
 * it stores a later one, and a list whose last day lies before the horizon's day is deleted.
 * No stored decision may name a deleted list, and a server remembers lists between
 * transactions, so deletions pass a gate:
 *
 * - every transaction that stores decisions opens with `PALETTE_GATE`: a shared advisory lock
 *   held until it ends, and the count of deletions so far (`palette_prunes.epoch`);
 * - whatever deletes lists (`openPaletteDeletion`) takes the same lock exclusively, so it waits
 *   for the transactions in progress and they wait for it, and adds one to the count;
 * - a process forgets every list it remembers when the count it reads has changed.
 *
 * So a list a transaction names was stored when it began, and stays stored until it ends; once
 * it has ended, a list is deleted only if its last day (at least the day of every decision
 * naming it) lies before the horizon's day, and then those decisions are older than the
 * horizon and the same prune removes them.
 */
import { createHash } from "node:crypto";
import type pg from "pg";
import { inTransactionOn } from "@/lib/db/transaction";
import { compareCodeUnits } from "@/lib/text-order";
import type { DecisionRow } from "./events";
import { listKey } from "./list-key";

/** Most lists remembered per process; beyond it the memory starts over. */
const MAX_REMEMBERED = 20_000;
/**
 * Most statements adding or finding lists in one transaction. A list is added or found by the
 * first, unless another transaction added it after that statement's snapshot was taken: the
 * second sees it.
 */
const MAX_ROUNDS = 3;
/** The advisory lock of the gate: a pair of int4 keys, apart from the single-key locks. */
const GATE_LOCK = "7365996, 1";

/**
 * SQL statements (simple protocol, after `BEGIN`) that open the gate for a transaction storing
 * decisions; the last answers the deletion count, for `resolvePalettes`.
 */
export const PALETTE_GATE = `SELECT pg_advisory_xact_lock_shared(${GATE_LOCK});
  SELECT coalesce((SELECT epoch FROM palette_prunes WHERE id = 1), 0)::text AS epoch`;

/** The deletion count `PALETTE_GATE`'s last statement answered (the last of `results`). */
export function paletteEpochOf(results: pg.QueryResult | pg.QueryResult[]): string {
  const last = Array.isArray(results) ? results[results.length - 1] : results;
  const epoch = last?.rows[0]?.epoch;
  if (typeof epoch !== "string") throw new Error("The palette gate answered no deletion count.");
  return epoch;
}

/**
 * Before deleting tool lists in a transaction: waits for the transactions storing decisions to
 * end (and holds new ones back until this one ends), and adds one to the deletion count, so
 * every server process forgets the lists it remembers.
 */
export async function openPaletteDeletion(client: pg.ClientBase): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(${GATE_LOCK})`);
  await client.query("UPDATE palette_prunes SET epoch = epoch + 1 WHERE id = 1");
}

/**
 * A stored list: its id, its tools, and a UTC day (YYYY-MM-DD) its `last_day` is known to
 * reach.
 */
interface StoredPalette {
  id: number;
  tools: readonly string[];
  day: string;
}
const remembered = new Map<string, StoredPalette>();
/**
 * The tools of stored lists, by tenant and id (`idKey`). A list's row never changes and its id
 * never names another list, so what is known here stays true; it is forgotten with the lists.
 */
const toolsById = new Map<string, readonly string[]>();
const idKey = (tenant: string, id: number | string) => `${tenant}\u0000${id}`;
/** The deletion count the remembered lists were read under. */
let rememberedEpoch: string | null = null;

/** Lists a transaction found or added, to remember once it has committed. */
export interface LearnedPalettes {
  epoch: string;
  lists: ReadonlyArray<readonly [key: string, palette: StoredPalette]>;
}

/** A list the transaction's decisions name. */
interface Wanted {
  /** Tenant and the list (`memoryKey`): the key of the memory. */
  key: string;
  tenant: string;
  tools: string[];
  /** The latest UTC day of the transaction's decisions naming the list. */
  day: string;
  rows: DecisionRow[];
}

/**
 * A decision row's offered list in SQL, for the row aliased `alias`: its palette's, or the
 * `offered` column of a decision stored before palettes (or `{}`).
 */
export const offeredOf = (alias: string) =>
  `coalesce((SELECT pal.tools FROM palettes pal
              WHERE pal.tenant_id = ${alias}.tenant_id AND pal.id = ${alias}.palette_id),
            ${alias}.offered, '{}')`;

/**
 * A decision row's selected list in SQL, for the row aliased `alias`: its `selected` column, or
 * its offered list where that is NULL — a decision that selected all it was offered
 * (`selectedIsOffered`, lib/ingest/events.ts).
 */
export const selectedOf = (alias: string) => `coalesce(${alias}.selected, ${offeredOf(alias)})`;

const memoryKey = (tenant: string, tools: readonly string[]) => `${tenant}\u0000${listKey(tools)}`;

/** The SHA-256 of a list as JSON: the key of its row, whatever its length. */
export function paletteHash(tools: readonly string[]): string {
  return createHash("sha256").update(JSON.stringify(tools)).digest("hex");
}

/** The UTC day (YYYY-MM-DD) of a time. */
const utcDay = (time: Date) => time.toISOString().slice(0, 10);

/**
 * Sets `palette_id` on every row (always, so a row retried in another transaction never keeps
 * an id from one that rolled back), adding the lists not stored yet and moving the last day of
 * the others up to their rows' day. `epoch` is what `PALETTE_GATE` answered at the start of
 * the transaction.
 */
export async function resolvePalettes(
  client: pg.PoolClient,
  rows: readonly DecisionRow[],
  epoch: string,
): Promise<LearnedPalettes> {
  if (epoch !== rememberedEpoch) {
    forget();
    rememberedEpoch = epoch;
  }
  const wanted = new Map<string, Wanted>();
  for (const row of rows) {
    row.palette_id = null;
    const key = memoryKey(row.tenant_id, row.offered);
    // A stored time is ISO 8601 in UTC (`toISOString`): its first ten characters are its day.
    const day = row.ts.slice(0, 10);
    const entry = wanted.get(key);
    if (!entry)
      wanted.set(key, { key, tenant: row.tenant_id, tools: row.offered, day, rows: [row] });
    else {
      entry.rows.push(row);
      // The rows offering one list share one array from here on: the per-tool rollups find a
      // list by its array before they join its names (lib/ingest/rollups.ts). A row that
      // selected its offered array itself (an unrouted call) keeps doing so.
      if (row.selected === row.offered) row.selected = entry.tools;
      row.offered = entry.tools;
      if (day > entry.day) entry.day = day;
    }
  }

  const learned = new Map<string, StoredPalette>();
  const toMove: { tenant: string; id: number; day: string }[] = [];
  let unknown: Wanted[] = [];
  for (const entry of wanted.values()) {
    const palette = remembered.get(entry.key);
    if (palette === undefined) {
      unknown.push(entry);
    } else if (palette.day < entry.day) {
      learned.set(entry.key, { id: palette.id, tools: palette.tools, day: entry.day });
      toMove.push({ tenant: entry.tenant, id: palette.id, day: entry.day });
    } else {
      learned.set(entry.key, palette);
    }
  }
  for (let round = 1; unknown.length > 0 && round <= MAX_ROUNDS; round++) {
    const { added, found } = await addOrFind(client, unknown);
    for (const [key, id] of added) {
      const entry = wanted.get(key) as Wanted;
      learned.set(key, { id, tools: entry.tools, day: entry.day });
    }
    // Found: its last day is not known here, so it is moved wherever it is earlier.
    for (const [key, id] of found) {
      const entry = wanted.get(key) as Wanted;
      learned.set(key, { id, tools: entry.tools, day: entry.day });
      toMove.push({ tenant: entry.tenant, id, day: entry.day });
    }
    unknown = unknown.filter((entry) => !learned.has(entry.key));
  }
  await moveLastDays(client, toMove);

  for (const entry of wanted.values()) {
    const palette = learned.get(entry.key);
    if (palette === undefined)
      throw new Error(`No palette row for a list of tenant ${entry.tenant}.`);
    for (const row of entry.rows) row.palette_id = palette.id;
  }
  return { epoch, lists: [...learned] };
}

/**
 * Moves each list's `last_day` up to the given day where it is earlier. The rows are locked in
 * key order first, so two transactions moving the same lists never wait for each other in a
 * circle.
 */
async function moveLastDays(
  client: pg.PoolClient,
  lists: readonly { tenant: string; id: number; day: string }[],
): Promise<void> {
  if (lists.length === 0) return;
  await client.query(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::date[]) AS i(tenant_id, id, day)
     ), moving AS MATERIALIZED (
       SELECT p.tenant_id, p.id, i.day
         FROM palettes p JOIN input i ON p.tenant_id = i.tenant_id AND p.id = i.id
        WHERE p.last_day < i.day
        ORDER BY p.tenant_id, p.id
          FOR NO KEY UPDATE OF p
     )
     UPDATE palettes p SET last_day = greatest(p.last_day, m.day) FROM moving m
      WHERE p.tenant_id = m.tenant_id AND p.id = m.id`,
    [lists.map((list) => list.tenant), lists.map((list) => list.id), lists.map((list) => list.day)],
  );
}

/**
 * Adds the lists (in key order, so concurrent transactions wait for each other, never
 * deadlock) with their day as `last_day`, and reads the ids of those already stored. Answers
 * the ids of the lists added and of those found, by the entries' keys. A list another
 * transaction committed after this statement's snapshot was taken (the insert waited for it
 * on the unique key) is in neither: the next round finds it.
 */
async function addOrFind(
  client: pg.PoolClient,
  entries: readonly Wanted[],
): Promise<{ added: Map<string, number>; found: Map<string, number> }> {
  const hashed = entries
    .map((entry) => ({ entry, hash: paletteHash(entry.tools) }))
    .sort((a, b) =>
      compareCodeUnits(rowKey(a.entry.tenant, a.hash), rowKey(b.entry.tenant, b.hash)),
    );
  const { rows } = await client.query<{
    tenant_id: string;
    hash: string;
    id: string;
    added: boolean;
  }>(
    `WITH input AS (
       SELECT i.tenant_id, decode(i.hash, 'hex') AS hash, i.tools, i.day
         FROM json_to_recordset($1::json) AS i(tenant_id text, hash text, tools text[], day date)
     ), added AS (
       INSERT INTO palettes (tenant_id, hash, tools, last_day)
       SELECT tenant_id, hash, tools, day FROM input ORDER BY tenant_id, hash
       ON CONFLICT (tenant_id, hash) DO NOTHING
       RETURNING tenant_id, hash, id
     )
     SELECT tenant_id, encode(hash, 'hex') AS hash, id::text, true AS added FROM added
     UNION ALL
     SELECT p.tenant_id, encode(p.hash, 'hex'), p.id::text, false
       FROM palettes p JOIN input i ON p.tenant_id = i.tenant_id AND p.hash = i.hash`,
    [
      JSON.stringify(
        hashed.map(({ entry, hash }) => ({
          tenant_id: entry.tenant,
          hash,
          tools: entry.tools,
          day: entry.day,
        })),
      ),
    ],
  );
  const keyOf = new Map(hashed.map(({ entry, hash }) => [rowKey(entry.tenant, hash), entry.key]));
  const added = new Map<string, number>();
  const found = new Map<string, number>();
  for (const row of rows) {
    const key = keyOf.get(rowKey(row.tenant_id, row.hash));
    if (key !== undefined) (row.added ? added : found).set(key, Number(row.id));
  }
  return { added, found };
}

const rowKey = (tenant: string, hash: string) => `${tenant}\u0000${hash}`;

/**
 * Remembers the lists of a committed transaction, unless lists were deleted since it began (a
 * later transaction of this process saw a new deletion count first).
 */
export function rememberPalettes(learned: LearnedPalettes): void {
  if (learned.epoch !== rememberedEpoch || learned.lists.length === 0) return;
  if (remembered.size + learned.lists.length > MAX_REMEMBERED) forget();
  for (const [key, palette] of learned.lists) {
    remembered.set(key, palette);
    toolsById.set(idKey(tenantOfKey(key), palette.id), palette.tools);
  }
}

function forget(): void {
  remembered.clear();
  toolsById.clear();
}

/** The tenant of a `memoryKey`. */
const tenantOfKey = (key: string) => key.slice(0, key.indexOf("\u0000"));

/**
 * The tools of the lists `rows` name by `palette_id`, by tenant and id: those this process
 * knows, and the others read in one statement (and known from then on). The answer holds what
 * was known when it was asked, so a transaction that makes this process forget its lists while
 * the statement runs (a deletion seen, or the memory full) takes nothing from it. Call it
 * inside a transaction that passed `PALETTE_GATE`, so no list it names is deleted meanwhile.
 */
export async function toolsOfPalettes(
  client: pg.ClientBase,
  rows: readonly { tenant_id: string; palette_id: string | null }[],
): Promise<(tenant: string, id: string) => readonly string[] | undefined> {
  const known = new Map<string, readonly string[]>();
  const missing = new Map<string, { tenant: string; id: string }>();
  for (const { tenant_id, palette_id } of rows) {
    if (palette_id === null) continue;
    const key = idKey(tenant_id, palette_id);
    const tools = toolsById.get(key);
    if (tools !== undefined) known.set(key, tools);
    else missing.set(key, { tenant: tenant_id, id: palette_id });
  }
  if (missing.size > 0) {
    const lists = [...missing.values()];
    const { rows: found } = await client.query<{ tenant_id: string; id: string; tools: string[] }>(
      `SELECT p.tenant_id, p.id::text AS id, to_json(p.tools) AS tools
         FROM unnest($1::text[], $2::bigint[]) AS wanted(tenant_id, id)
         JOIN palettes p ON p.tenant_id = wanted.tenant_id AND p.id = wanted.id`,
      [lists.map((list) => list.tenant), lists.map((list) => list.id)],
    );
    if (toolsById.size + found.length > MAX_REMEMBERED) forget();
    for (const list of found) {
      const key = idKey(list.tenant_id, list.id);
      known.set(key, list.tools);
      toolsById.set(key, list.tools);
    }
  }
  return (tenant, id) => known.get(idKey(tenant, id));
}

/** Nothing learned: for a transaction that stored no decision. */
export const NOTHING_LEARNED: LearnedPalettes = { epoch: "", lists: [] };

/**
 * Deletes the lists no decision from the horizon on can name: those whose last day lies
 * before the horizon's UTC day. Walks the table in key order, `chunkSize` rows a transaction,
 * each behind the gate; when there is nothing to delete (the usual case) the gate is not
 * passed, so ingest is not held back. Run it before the decisions are removed: a decision
 * stored meanwhile naming a deleted list is older than the horizon, and goes with them.
 */
export async function prunePalettes(
  pool: pg.Pool,
  horizon: Date,
  { chunkSize, onChunk }: { chunkSize: number; onChunk: (deleted: number) => void },
): Promise<number> {
  const before = utcDay(horizon);
  const { rows: old } = await pool.query(
    "SELECT 1 FROM palettes WHERE last_day < $1::date LIMIT 1",
    [before],
  );
  if (old.length === 0) return 0;
  let after: PaletteKey | null = null;
  let total = 0;
  for (;;) {
    const chunk = await deletePaletteChunk(pool, before, chunkSize, after);
    if (chunk.deleted > 0) onChunk(chunk.deleted);
    total += chunk.deleted;
    // A chunk short of `chunkSize` reached the end of the table.
    if (chunk.last === null || chunk.deleted < chunkSize) return total;
    after = chunk.last;
  }
}

interface PaletteKey {
  tenant_id: string;
  id: string;
}

/** One chunk of `prunePalettes`: the lists deleted after the key `after`, and the last one. */
function deletePaletteChunk(
  pool: pg.Pool,
  before: string,
  chunkSize: number,
  after: PaletteKey | null,
): Promise<{ deleted: number; last: PaletteKey | null }> {
  return inTransactionOn(pool, async (client) => {
    await openPaletteDeletion(client);
    const { rows } = await client.query<PaletteKey & { deleted: number }>(
      `WITH doomed AS MATERIALIZED (
         SELECT tenant_id, id FROM palettes
          WHERE last_day < $1::date ${after ? "AND (tenant_id, id) > ($3, $4::bigint)" : ""}
          ORDER BY tenant_id, id
          LIMIT $2
       ), gone AS (
         DELETE FROM palettes p USING doomed d WHERE p.tenant_id = d.tenant_id AND p.id = d.id
       )
       SELECT (SELECT count(*)::int FROM doomed) AS deleted, l.tenant_id, l.id::text
         FROM (SELECT tenant_id, id FROM doomed ORDER BY tenant_id DESC, id DESC LIMIT 1) l`,
      after ? [before, chunkSize, after.tenant_id, after.id] : [before, chunkSize],
    );
    const last = rows[0];
    return last
      ? { deleted: last.deleted, last: { tenant_id: last.tenant_id, id: last.id } }
      : { deleted: 0, last: null };
  });
}
