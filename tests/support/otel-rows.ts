/**
 * Rows as OpenTelemetry ingest stores an unrouted agent's run (SPEC §8): per LLM call one span
 * row, one decision in mode `off` (offered = selected, event id `otel:<trace>:<span>`) and, when
 * its output was recorded, its outcome; its tool runs as span rows; the run summary, the rollups
 * with `unused_offers`, the tools' sizes and the LLM calls that carried no tool list. Written
 * with SQL, so the dashboard's reads can be tested against known rows.
 */
import { createHash } from "node:crypto";
import type pg from "pg";

export interface SeededToolRun {
  tool: string;
  /** Offset from its call's start, and duration, in milliseconds. */
  afterMs: number;
  durationMs: number;
  error?: string;
  /** False: the span records no call id (joined by time). */
  withCallId?: boolean;
}

export interface SeededCall {
  offered: string[];
  /** What the model called; null when the span recorded no output (calls not recorded). */
  called: string[] | null;
  toolRuns?: SeededToolRun[];
}

export interface SeededRun {
  tenant: string;
  runId: string;
  role: string;
  /** Start of the first call; calls follow each other a second apart. */
  start: Date;
  calls: SeededCall[];
  /** Estimated tokens per tool definition (`tool_sizes`). */
  sizes?: Record<string, number>;
  /** LLM calls of the run's role in its first hour that carried no tool list. */
  callsWithoutTools?: number;
}

const hex = (text: string, length: number) =>
  createHash("sha256").update(text).digest("hex").slice(0, length);

const hourOf = (ms: number) => new Date(Math.floor(ms / 3_600_000) * 3_600_000);
const minuteOf = (ms: number) => new Date(Math.floor(ms / 60_000) * 60_000);
const dayOf = (ms: number) => new Date(Math.floor(ms / 86_400_000) * 86_400_000);

/** Stores the run; returns its trace id. Rollups are added to, so runs may share buckets. */
export async function insertUnroutedRun(db: pg.Pool | pg.Client, run: SeededRun): Promise<string> {
  const traceId = hex(`${run.tenant}/${run.runId}`, 32);
  await db.query("INSERT INTO tenants (id) VALUES ($1) ON CONFLICT DO NOTHING", [run.tenant]);
  const startMs = run.start.getTime();
  for (const [iteration, call] of run.calls.entries()) {
    const spanId = hex(`${traceId}/call/${iteration}`, 16);
    const callMs = startMs + iteration * 1_000;
    const ts = new Date(callMs);
    const startNs = BigInt(callMs) * 1_000_000n;
    const callIds = (call.toolRuns ?? []).map((_, index) => `call-${iteration}-${index}`);
    await db.query(
      `INSERT INTO otel_spans (tenant_id, trace_id, span_id, run_id, kind, name, start_ns, end_ns, ts, call_ids)
       VALUES ($1, $2, $3, $4, 'llm_call', 'ai.generateText.doGenerate', $5, $6, $7, $8)`,
      [run.tenant, traceId, spanId, run.runId, startNs, startNs + 400_000_000n, ts, callIds],
    );
    for (const [index, toolRun] of (call.toolRuns ?? []).entries()) {
      const runNs = startNs + BigInt(toolRun.afterMs) * 1_000_000n;
      await db.query(
        `INSERT INTO otel_spans (tenant_id, trace_id, span_id, run_id, kind, name, start_ns, end_ns, ts, tool, call_id, error)
         VALUES ($1, $2, $3, $4, 'tool_run', 'ai.toolCall', $5, $6, $7, $8, $9, $10)`,
        [
          run.tenant,
          traceId,
          hex(`${traceId}/tool/${iteration}/${index}`, 16),
          run.runId,
          runNs,
          runNs + BigInt(Math.round(toolRun.durationMs * 1_000_000)),
          new Date(callMs + toolRun.afterMs),
          toolRun.tool,
          toolRun.withCallId === false ? null : callIds[index],
          toolRun.error ?? null,
        ],
      );
    }
    const called = call.called ?? [];
    const decision = await db.query<{ id: string }>(
      `INSERT INTO decisions (tenant_id, event_id, run_id, role, mode, iteration, turn_hop_index, ts,
         offered_count, selected_count, dropped_count, dropped_tokens, reinstatements,
         empty_palette_warnings, stage_errors, model, agent, offered, selected, trace, warnings)
       VALUES ($1, $2, $3, $4, 'off', $5, $5, $6, $7, $7, 0, 0, 0, 0, 0, 'mock-model', $4,
         $8, $8, '[]', '[]')
       RETURNING id`,
      [
        run.tenant,
        `otel:${traceId}:${spanId}`,
        run.runId,
        run.role,
        iteration,
        ts,
        call.offered.length,
        call.offered,
      ],
    );
    if (call.called !== null) {
      await db.query(
        `INSERT INTO decision_outcomes (tenant_id, decision_id, ts, called, harmful_tools)
         VALUES ($1, $2, $3, $4, '{}')`,
        [run.tenant, decision.rows[0]?.id, ts, called],
      );
    }
    if (call.called !== null) {
      await db.query(
        `INSERT INTO outcomes (tenant_id, event_id, run_id, role, iteration, ts, called, joined)
         VALUES ($1, $2, $3, $4, $5, $6, $7, true)`,
        [
          run.tenant,
          `otel:${traceId}:${spanId}:called`,
          run.runId,
          run.role,
          iteration,
          ts,
          called,
        ],
      );
    }
    const outcome = call.called !== null ? 1 : 0;
    const zeroCalls = call.called !== null && called.length === 0 ? 1 : 0;
    for (const [table, bucket] of [
      ["rollup_minute", minuteOf(callMs)],
      ["rollup_hour", hourOf(callMs)],
      ["rollup_day", dayOf(callMs)],
    ] as const) {
      const n = call.offered.length;
      await db.query(
        `INSERT INTO ${table} (tenant_id, role, mode, config_version, bucket, decisions,
           dropped_tokens, dropped_tokens_sq, offered_tools, offered_tools_sq, selected_tools,
           selected_tools_sq, reinstatements, empty_palette_warnings, stage_errors,
           decisions_reinstated, decisions_empty_palette, decisions_stage_error, outcomes,
           harmful_decisions, harmful_drops, zero_call_outcomes)
         VALUES ($1, $2, 'off', '', $3, 1, 0, 0, $4, $5, $4, $5, 0, 0, 0, 0, 0, 0, $6, 0, 0, $7)
         ON CONFLICT (tenant_id, role, mode, config_version, bucket) DO UPDATE SET
           decisions = ${table}.decisions + 1,
           offered_tools = ${table}.offered_tools + EXCLUDED.offered_tools,
           offered_tools_sq = ${table}.offered_tools_sq + EXCLUDED.offered_tools_sq,
           selected_tools = ${table}.selected_tools + EXCLUDED.selected_tools,
           selected_tools_sq = ${table}.selected_tools_sq + EXCLUDED.selected_tools_sq,
           outcomes = ${table}.outcomes + EXCLUDED.outcomes,
           zero_call_outcomes = ${table}.zero_call_outcomes + EXCLUDED.zero_call_outcomes`,
        [run.tenant, run.role, bucket, n, n * n, outcome, zeroCalls],
      );
    }
    const tools = new Set([...call.offered, ...called]);
    for (const tool of tools) {
      const offered = call.offered.includes(tool) ? 1 : 0;
      const wasCalled = called.includes(tool) ? 1 : 0;
      const unused = offered === 1 && call.called !== null && wasCalled === 0 ? 1 : 0;
      for (const [table, bucket] of [
        ["tool_rollup_hour", hourOf(callMs)],
        ["tool_rollup_day", dayOf(callMs)],
      ] as const) {
        await db.query(
          `INSERT INTO ${table} (tenant_id, role, mode, bucket, tool, offered, selected,
             dropped, called, harmful_drops, dropped_tokens, unused_offers)
           VALUES ($1, $2, 'off', $3, $4, $5, $5, 0, $6, 0, 0, $7)
           ON CONFLICT (tenant_id, role, mode, bucket, tool) DO UPDATE SET
             offered = ${table}.offered + EXCLUDED.offered,
             selected = ${table}.selected + EXCLUDED.selected,
             called = ${table}.called + EXCLUDED.called,
             unused_offers = ${table}.unused_offers + EXCLUDED.unused_offers`,
          [run.tenant, run.role, bucket, tool, offered, wasCalled, unused],
        );
      }
    }
  }
  const lastMs = startMs + (run.calls.length - 1) * 1_000;
  await db.query(
    `INSERT INTO runs (tenant_id, run_id, first_seen, last_seen, decisions, max_iteration, roles,
       modes, dropped_tokens, reinstatements, empty_palette_warnings, stage_errors, harmful_drops)
     VALUES ($1, $2, $3, $4, $5, $6, ARRAY[$7]::text[], ARRAY['off']::text[], 0, 0, 0, 0, 0)`,
    [
      run.tenant,
      run.runId,
      run.start,
      new Date(lastMs),
      run.calls.length,
      run.calls.length - 1,
      run.role,
    ],
  );
  for (const [tool, tokens] of Object.entries(run.sizes ?? {})) {
    await db.query(
      `INSERT INTO tool_sizes (tenant_id, tool, tokens, seen_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, tool) DO UPDATE SET tokens = EXCLUDED.tokens, seen_at = EXCLUDED.seen_at`,
      [run.tenant, tool, tokens, run.start],
    );
  }
  if (run.callsWithoutTools) {
    await db.query(
      `INSERT INTO otel_call_rollup_hour (tenant_id, role, bucket, calls_without_tools)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, role, bucket) DO UPDATE SET
         calls_without_tools = otel_call_rollup_hour.calls_without_tools + EXCLUDED.calls_without_tools`,
      [run.tenant, run.role, hourOf(startMs), run.callsWithoutTools],
    );
  }
  return traceId;
}
