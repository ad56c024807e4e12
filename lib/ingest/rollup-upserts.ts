/**
 * The SQL that adds one transaction's rollup deltas (lib/ingest/rollups.ts) to `rollup_minute`,
 * `rollup_hour`, `rollup_day`, `tool_rollup_hour`, `tool_rollup_day` and `runs`, and commits.
 */
import type pg from "pg";
import { sqlLiteral } from "@/lib/db/sql-literal";
import { type Aggregates, ROLLUP_MEASURES } from "./rollups";

const FLOAT_MEASURES = new Set(["dropped_tokens_sq", "offered_tools_sq", "selected_tools_sq"]);

/** A JSON value as a SQL literal. */
export const jsonLiteral = (value: unknown) => `${sqlLiteral(JSON.stringify(value))}::json`;

function upsertRollupSql(
  table: "rollup_minute" | "rollup_hour" | "rollup_day",
  rows: Aggregates["minute"],
): string | null {
  if (rows.length === 0) return null;
  const columns = ROLLUP_MEASURES.map(
    (m) => `${m} ${FLOAT_MEASURES.has(m) ? "float8" : "bigint"}`,
  ).join(", ");
  return `INSERT INTO ${table} (tenant_id, role, mode, config_version, bucket, ${ROLLUP_MEASURES.join(", ")})
     SELECT r.tenant_id, r.role, r.mode, r.config_version, r.bucket, ${ROLLUP_MEASURES.map((m) => `r.${m}`).join(", ")}
       FROM json_to_recordset(${jsonLiteral(rows)}) AS r(tenant_id text, role text, mode text,
            config_version text, bucket timestamptz, ${columns})
      ORDER BY r.tenant_id, r.role, r.mode, r.config_version, r.bucket
     ON CONFLICT (tenant_id, role, mode, config_version, bucket) DO UPDATE SET
       ${ROLLUP_MEASURES.map((m) => `${m} = ${table}.${m} + EXCLUDED.${m}`).join(",\n       ")}`;
}

function upsertToolsSql(
  table: "tool_rollup_hour" | "tool_rollup_day",
  rows: Aggregates["tools"],
): string | null {
  if (rows.length === 0) return null;
  return `INSERT INTO ${table} (tenant_id, role, mode, bucket, tool, offered, selected, dropped,
          called, harmful_drops, dropped_tokens, unused_offers)
       SELECT r.tenant_id, r.role, r.mode, r.bucket, r.tool, r.offered, r.selected, r.dropped,
          r.called, r.harmful_drops, r.dropped_tokens, r.unused_offers
         FROM json_to_recordset(${jsonLiteral(rows)}) AS r(tenant_id text, role text, mode text,
          bucket timestamptz, tool text, offered bigint, selected bigint, dropped bigint,
          called bigint, harmful_drops bigint, dropped_tokens float8, unused_offers bigint)
        ORDER BY r.tenant_id, r.role, r.mode, r.bucket, r.tool
       ON CONFLICT (tenant_id, role, mode, bucket, tool) DO UPDATE SET
         offered = ${table}.offered + EXCLUDED.offered,
         selected = ${table}.selected + EXCLUDED.selected,
         dropped = ${table}.dropped + EXCLUDED.dropped,
         called = ${table}.called + EXCLUDED.called,
         harmful_drops = ${table}.harmful_drops + EXCLUDED.harmful_drops,
         dropped_tokens = ${table}.dropped_tokens + EXCLUDED.dropped_tokens,
         unused_offers = ${table}.unused_offers + EXCLUDED.unused_offers`;
}

function upsertRunsSql(rows: Aggregates["runs"]): string | null {
  if (rows.length === 0) return null;
  return `INSERT INTO runs (tenant_id, run_id, first_seen, last_seen, decisions, max_iteration, roles,
          modes, dropped_tokens, reinstatements, empty_palette_warnings, stage_errors, harmful_drops)
       SELECT r.tenant_id, r.run_id, r.first_seen, r.last_seen, r.decisions, r.max_iteration,
          r.roles, r.modes, r.dropped_tokens, r.reinstatements, r.empty_palette_warnings,
          r.stage_errors, r.harmful_drops
         FROM json_to_recordset(${jsonLiteral(rows)}) AS r(tenant_id text, run_id text, first_seen timestamptz,
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
 * locked — is kept as short as it can be. `first` are the caller's own upserts of shared rows
 * (tool sizes, the OTLP call counts; null for none), run before the rollups for the same
 * reason. Tables in a fixed order, rows sorted by key: no deadlock between transactions.
 */
export async function writeAggregatesAndCommit(
  client: pg.PoolClient,
  aggregates: Aggregates,
  first: readonly (string | null)[] = [],
): Promise<void> {
  const statements = [
    ...first,
    upsertRollupSql("rollup_minute", aggregates.minute),
    upsertRollupSql("rollup_hour", aggregates.hour),
    upsertRollupSql("rollup_day", aggregates.day),
    upsertToolsSql("tool_rollup_hour", aggregates.tools),
    upsertToolsSql("tool_rollup_day", aggregates.toolDays),
    upsertRunsSql(aggregates.runs),
    "COMMIT",
  ].filter((statement) => statement !== null);
  await client.query(statements.join(";\n"));
}
