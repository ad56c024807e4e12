/**
 * The per-(tenant, tool) size table (`tool_sizes`), written from the `tool_tokens` maps of
 * newly stored decisions and from the tool definitions of OTLP LLM calls (lib/otlp/store.ts):
 * the estimate seen last wins, compared as stored (the time to the millisecond, then the larger
 * estimate), so any order of batches leaves the same row.
 */

import { compareCodeUnits } from "@/lib/text-order";
import type { DecisionRow } from "./events";
import { jsonLiteral } from "./rollup-upserts";

/** One tool's size estimate, as one decision or LLM call reported it. */
export interface ToolSizeSighting {
  tenant: string;
  tool: string;
  tokens: number;
  /** ISO time of one format (toISOString), so text order is time order. */
  seenAt: string;
}

/**
 * The latest sighting per (tenant, tool): the later time, and at an equal millisecond the
 * larger estimate, so any order of sightings gives the same rows. A batch of 500 decisions
 * offering 20 tools each is 10,000 sightings, so one is taken without allocating anything
 * unless it is the first of its tool.
 */
class LatestSizes {
  private readonly byTenant = new Map<string, Map<string, ToolSizeSighting>>();

  see(tenant: string, tool: string, tokens: number, seenAt: string): void {
    let tools = this.byTenant.get(tenant);
    if (tools === undefined) {
      tools = new Map();
      this.byTenant.set(tenant, tools);
    }
    const current = tools.get(tool);
    if (current === undefined) tools.set(tool, { tenant, tool, tokens, seenAt });
    else if (seenAt > current.seenAt || (seenAt === current.seenAt && tokens > current.tokens)) {
      current.tokens = tokens;
      current.seenAt = seenAt;
    }
  }

  /** In (tenant, tool) order, the order concurrent transactions lock the rows in. */
  values(): ToolSizeSighting[] {
    const inOrder = <T>(map: Map<string, T>) =>
      [...map.keys()].sort(compareCodeUnits).map((key) => map.get(key) as T);
    return inOrder(this.byTenant).flatMap((tools) => inOrder(tools));
  }
}

/** The latest size per (tenant, tool) among `decisions`, in (tenant, tool) order. */
export function latestToolSizes(
  decisions: readonly Pick<DecisionRow, "tenant_id" | "ts" | "tool_tokens">[],
): ToolSizeSighting[] {
  const latest = new LatestSizes();
  for (const decision of decisions) {
    const sizes = decision.tool_tokens;
    if (sizes === null) continue;
    for (const tool of Object.keys(sizes)) {
      latest.see(decision.tenant_id, tool, sizes[tool] as number, decision.ts);
    }
  }
  return latest.values();
}

/** The latest of `sightings` per (tenant, tool), in (tenant, tool) order. */
export function latestOf(sightings: Iterable<ToolSizeSighting>): ToolSizeSighting[] {
  const latest = new LatestSizes();
  for (const s of sightings) latest.see(s.tenant, s.tool, s.tokens, s.seenAt);
  return latest.values();
}

/**
 * The statement that upserts `sizes` (one per (tenant, tool), in key order, so concurrent
 * transactions lock the rows in the same order; `latestOf`, `latestToolSizes`): a stored row is
 * replaced only by a later one. The rows travel as an escaped JSON literal, so the statement
 * goes in the transaction's last round trip with the rollups (`writeAggregatesAndCommit`) and
 * holds its rows locked only until the commit. Null when there is nothing to write.
 */
export function upsertToolSizesSql(sizes: readonly ToolSizeSighting[]): string | null {
  if (sizes.length === 0) return null;
  const rows = sizes.map((s) => ({
    tenant_id: s.tenant,
    tool: s.tool,
    tokens: s.tokens,
    seen_at: s.seenAt,
  }));
  return `INSERT INTO tool_sizes (tenant_id, tool, tokens, seen_at)
     SELECT u.tenant_id, u.tool, u.tokens, u.seen_at
       FROM json_to_recordset(${jsonLiteral(rows)})
         AS u(tenant_id text, tool text, tokens int, seen_at timestamptz)
     ON CONFLICT (tenant_id, tool) DO UPDATE SET tokens = EXCLUDED.tokens, seen_at = EXCLUDED.seen_at
      WHERE (EXCLUDED.seen_at, EXCLUDED.tokens) > (tool_sizes.seen_at, tool_sizes.tokens)`;
}
