/**
 * Tool lists stored once per tenant (`palettes`): a decision names its `offered` list by
 * `palette_id`. Agents offer the same palette over and over, so a transaction usually finds
 * every list among those this process has already seen committed and sends nothing; the others
 * are added (or found, when another transaction added them first) with one statement.
 *
 * Ids are remembered only once the transaction that used them has committed
 * (`rememberPalettes`): a list added by a transaction that rolls back is gone, and its id must
 * not name anything later.
 */
import { createHash } from "node:crypto";
import type pg from "pg";
import type { DecisionRow } from "./events";

/** Most lists remembered per process; beyond it the memory starts over. */
const MAX_REMEMBERED = 20_000;
const remembered = new Map<string, number>();

/** Lists a transaction found or added, to remember once it has committed. */
export type LearnedPalettes = ReadonlyArray<readonly [key: string, id: number]>;

interface Wanted {
  key: string;
  tenant: string;
  tools: readonly string[];
  hash: string;
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

/** The SHA-256 of a list as JSON: the key of its row, whatever its length. */
export function paletteHash(tools: readonly string[]): string {
  return hashOfJson(JSON.stringify(tools));
}

const hashOfJson = (json: string) => createHash("sha256").update(json).digest("hex");

/**
 * Sets `palette_id` on every row (always, so a row retried in another transaction never keeps
 * an id from one that rolled back), adding the lists not stored yet.
 */
export async function resolvePalettes(
  client: pg.PoolClient,
  rows: readonly DecisionRow[],
): Promise<LearnedPalettes> {
  const wanted = new Map<string, Wanted>();
  for (const row of rows) {
    // The list as JSON once: the key of the memory, and what a new list's hash is taken of.
    const json = JSON.stringify(row.offered);
    const key = `${row.tenant_id}\u0000${json}`;
    const id = remembered.get(key);
    if (id !== undefined) {
      row.palette_id = id;
      continue;
    }
    row.palette_id = null;
    let entry = wanted.get(key);
    if (!entry) {
      entry = {
        key,
        tenant: row.tenant_id,
        tools: row.offered,
        hash: hashOfJson(json),
        rows: [],
      };
      wanted.set(key, entry);
    }
    entry.rows.push(row);
  }
  if (wanted.size === 0) return [];

  const found = await addOrFind(client, [...wanted.values()], true);
  const missing = [...wanted.values()].filter((entry) => !found.has(idKey(entry)));
  // Lists another transaction committed after this statement's snapshot was taken (this
  // statement waited for it on the unique key): a second statement sees them.
  if (missing.length > 0) {
    for (const [key, id] of await addOrFind(client, missing, false)) found.set(key, id);
  }
  const learned: [string, number][] = [];
  for (const entry of wanted.values()) {
    const id = found.get(idKey(entry));
    if (id === undefined) throw new Error(`No palette row for a list of tenant ${entry.tenant}.`);
    for (const row of entry.rows) row.palette_id = id;
    learned.push([entry.key, id]);
  }
  return learned;
}

const idKey = (entry: { tenant: string; hash: string }) => `${entry.tenant}\u0000${entry.hash}`;

/** Adds the lists (in key order, so concurrent transactions wait for each other, never deadlock) and reads their ids. */
async function addOrFind(
  client: pg.PoolClient,
  entries: readonly Wanted[],
  add: boolean,
): Promise<Map<string, number>> {
  const input = JSON.stringify(
    [...entries]
      .sort((a, b) => (idKey(a) < idKey(b) ? -1 : idKey(a) > idKey(b) ? 1 : 0))
      .map((entry) => ({ tenant_id: entry.tenant, hash: entry.hash, tools: entry.tools })),
  );
  const { rows } = await client.query<{ tenant_id: string; hash: string; id: number }>(
    add
      ? `WITH input AS (
           SELECT i.tenant_id, decode(i.hash, 'hex') AS hash, i.tools
             FROM json_to_recordset($1::json) AS i(tenant_id text, hash text, tools text[])
         ), added AS (
           INSERT INTO palettes (tenant_id, hash, tools)
           SELECT tenant_id, hash, tools FROM input ORDER BY tenant_id, hash
           ON CONFLICT (tenant_id, hash) DO NOTHING
           RETURNING tenant_id, hash, id
         )
         SELECT tenant_id, encode(hash, 'hex') AS hash, id FROM added
         UNION ALL
         SELECT p.tenant_id, encode(p.hash, 'hex'), p.id
           FROM palettes p JOIN input i ON p.tenant_id = i.tenant_id AND p.hash = i.hash`
      : `SELECT p.tenant_id, encode(p.hash, 'hex') AS hash, p.id
           FROM json_to_recordset($1::json) AS i(tenant_id text, hash text)
           JOIN palettes p ON p.tenant_id = i.tenant_id AND p.hash = decode(i.hash, 'hex')`,
    [input],
  );
  return new Map(rows.map((row) => [idKey({ tenant: row.tenant_id, hash: row.hash }), row.id]));
}

/** Remembers the lists of a committed transaction. */
export function rememberPalettes(learned: LearnedPalettes): void {
  if (remembered.size + learned.length > MAX_REMEMBERED) remembered.clear();
  for (const [key, id] of learned) remembered.set(key, id);
}
