/**
 * The per-(tenant, tool) size table (`tool_sizes`), written from the `tool_tokens` maps of
 * newly stored decisions and from the tool definitions of OTLP LLM calls (lib/otlp/store.ts):
 * the estimate seen last wins, compared as stored (the time to the millisecond, then the larger
 * estimate), so any order of batches leaves the same row.
 */
import type pg from "pg";
import type { DecisionRow } from "./events";

/** One tool's size estimate, as one decision or LLM call reported it. */
export interface ToolSizeSighting {
  tenant: string;
  tool: string;
  tokens: number;
  /** ISO time of one format (toISOString), so text order is time order. */
  seenAt: string;
}

/**
 * The latest sighting per (tenant, tool), in (tenant, tool) order: the later time, and at an
 * equal millisecond the larger estimate, so any order of sightings gives the same rows.
 */
function latestSightings(sightings: Iterable<ToolSizeSighting>): ToolSizeSighting[] {
  const latest = new Map<string, ToolSizeSighting>();
  for (const sighting of sightings) {
    const key = `${sighting.tenant}\u0000${sighting.tool}`;
    const current = latest.get(key);
    const newer =
      !current ||
      sighting.seenAt > current.seenAt ||
      (sighting.seenAt === current.seenAt && sighting.tokens > current.tokens);
    if (newer) latest.set(key, sighting);
  }
  return [...latest.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, size]) => size);
}

function* decisionSightings(
  decisions: readonly Pick<DecisionRow, "tenant_id" | "ts" | "tool_tokens">[],
): Generator<ToolSizeSighting> {
  for (const decision of decisions) {
    if (decision.tool_tokens === null) continue;
    for (const [tool, tokens] of Object.entries(decision.tool_tokens)) {
      yield { tenant: decision.tenant_id, tool, tokens, seenAt: decision.ts };
    }
  }
}

/** The latest size per (tenant, tool) among `decisions`, in (tenant, tool) order. */
export function latestToolSizes(
  decisions: readonly Pick<DecisionRow, "tenant_id" | "ts" | "tool_tokens">[],
): ToolSizeSighting[] {
  return latestSightings(decisionSightings(decisions));
}

/**
 * Upserts the latest of `sightings` in one statement (rows in key order, so concurrent
 * transactions lock them in the same order); a stored row is replaced only by a later one.
 * Runs inside the caller's transaction.
 */
export async function upsertToolSizes(
  client: pg.PoolClient,
  sightings: Iterable<ToolSizeSighting>,
): Promise<void> {
  const sizes = latestSightings(sightings);
  if (sizes.length === 0) return;
  await client.query(
    `INSERT INTO tool_sizes (tenant_id, tool, tokens, seen_at)
     SELECT u.tenant_id, u.tool, u.tokens, u.seen_at
       FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[])
         AS u(tenant_id, tool, tokens, seen_at)
     ON CONFLICT (tenant_id, tool) DO UPDATE SET tokens = EXCLUDED.tokens, seen_at = EXCLUDED.seen_at
      WHERE (EXCLUDED.seen_at, EXCLUDED.tokens) > (tool_sizes.seen_at, tool_sizes.tokens)`,
    [
      sizes.map((s) => s.tenant),
      sizes.map((s) => s.tool),
      sizes.map((s) => s.tokens),
      sizes.map((s) => s.seenAt),
    ],
  );
}

/** The sizes the `tool_tokens` maps of `decisions` carry. */
export async function upsertDecisionToolSizes(
  client: pg.PoolClient,
  decisions: readonly DecisionRow[],
): Promise<void> {
  await upsertToolSizes(client, decisionSightings(decisions));
}
