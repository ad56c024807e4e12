/**
 * The per-(tenant, tool) size table (`tool_sizes`) from the `tool_tokens` maps of newly stored
 * decisions, by the rule the OpenTelemetry ingest keeps it (lib/otlp/store.ts): the estimate
 * seen last wins, compared as stored (the decision's time to the millisecond, then the larger
 * estimate), so any order of batches leaves the same row.
 */
import type pg from "pg";
import type { DecisionRow } from "./events";

interface ToolSize {
  tenant: string;
  tool: string;
  tokens: number;
  seenAt: string;
}

/** The latest size per (tenant, tool) among `decisions`, in (tenant, tool) order. */
export function latestToolSizes(
  decisions: readonly Pick<DecisionRow, "tenant_id" | "ts" | "tool_tokens">[],
): ToolSize[] {
  const latest = new Map<string, ToolSize>();
  for (const decision of decisions) {
    if (decision.tool_tokens === null) continue;
    for (const [tool, tokens] of Object.entries(decision.tool_tokens)) {
      const key = `${decision.tenant_id}\u0000${tool}`;
      const current = latest.get(key);
      // `ts` is an ISO string of one format (toISOString), so text order is time order.
      const newer =
        !current ||
        decision.ts > current.seenAt ||
        (decision.ts === current.seenAt && tokens > current.tokens);
      if (newer) latest.set(key, { tenant: decision.tenant_id, tool, tokens, seenAt: decision.ts });
    }
  }
  return [...latest.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, size]) => size);
}

/**
 * Upserts the sizes `decisions` carry, in one statement (rows in key order, so concurrent
 * transactions lock them in the same order). Runs inside the caller's transaction.
 */
export async function upsertDecisionToolSizes(
  client: pg.PoolClient,
  decisions: readonly DecisionRow[],
): Promise<void> {
  const sizes = latestToolSizes(decisions);
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
