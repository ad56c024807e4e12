/**
 * The alert evaluator (SPEC §9): for every rule, every minute that has ended since the rule was
 * last evaluated, from `rollup_minute` (no raw scans), with the state kept in PostgreSQL.
 *
 * Exactly once per (rule, minute), whatever runs it: each rule is evaluated in a transaction
 * that locks its `alert_states` row and advances `last_evaluated_minute`, so a second
 * evaluator (another server process, or a job run again after a crash) finds the minute done
 * and does nothing; transitions are unique per (rule, minute) and deliveries per (transition,
 * channel) besides. Minutes missed while no server ran are caught up, the most recent
 * `maxCatchUp` of them. A transition and its deliveries (the outbox) are written in the same
 * transaction; sending them is the delivery jobs' work, so evaluation never waits for a
 * receiver.
 */
import "server-only";
import type pg from "pg";
import { readMetric, windowEndingAt } from "@/lib/alerts/metrics";
import { isMuted } from "@/lib/alerts/mute-presets";
import { type AlertPayload, buildPayload } from "@/lib/alerts/payload";
import { evaluateRule, slotsToEvaluate } from "@/lib/alerts/transitions";
import { ALL_TENANTS } from "@/lib/auth/scope";
import { getPool } from "@/lib/db/client";
import { readWindowSums } from "@/lib/db/queries/alerts";
import type { AlertComparison, AlertMetric, AlertMode, AlertStateName } from "@/lib/schemas/alerts";
import { inTransaction } from "./transaction";

export interface EvaluatorOptions {
  now: Date;
  /** Length of an evaluated slot: a minute, except in tests (ROUTELENS_ALERTS_SLOT_MS). */
  slotMs: number;
  /** Most slots caught up per rule after a pause. */
  maxCatchUp: number;
  /** Where links in messages point (ROUTELENS_URL). */
  baseUrl: string;
}

export interface EvaluationSummary {
  rulesEvaluated: number;
  slotsEvaluated: number;
  transitions: number;
  /** Deliveries written to the outbox, for the delivery jobs. */
  deliveryIds: string[];
}

interface RuleRow {
  id: string;
  tenant_id: string | null;
  name: string;
  role: string | null;
  mode: string | null;
  metric: string;
  window_minutes: number;
  comparison: string;
  threshold: number;
  min_sample: number;
  muted_until: Date | null;
  state: AlertStateName;
  notified_state: AlertStateName;
  last_evaluated_minute: Date | null;
}

/** Evaluates every rule that has a slot due at `options.now`. */
export async function evaluateRules(options: EvaluatorOptions): Promise<EvaluationSummary> {
  const pool = getPool();
  const lastEnded = new Date(
    Math.floor(options.now.getTime() / options.slotMs) * options.slotMs - options.slotMs,
  );
  const { rows: due } = await pool.query<{ id: string }>(
    `SELECT r.id FROM alert_rules r LEFT JOIN alert_states s ON s.rule_id = r.id
      WHERE s.last_evaluated_minute IS NULL OR s.last_evaluated_minute < $1
      ORDER BY r.id`,
    [lastEnded],
  );
  const summary: EvaluationSummary = {
    rulesEvaluated: 0,
    slotsEvaluated: 0,
    transitions: 0,
    deliveryIds: [],
  };
  for (const { id } of due) {
    try {
      await inTransaction((client) => evaluateOne(client, id, options, summary));
    } catch (error) {
      console.error(
        `[routelens] alert rule ${id} could not be evaluated:`,
        error instanceof Error ? error.message : error,
      );
    }
  }
  return summary;
}

async function evaluateOne(
  client: pg.PoolClient,
  ruleId: string,
  options: EvaluatorOptions,
  summary: EvaluationSummary,
): Promise<void> {
  await client.query(
    `INSERT INTO alert_states (rule_id, tenant_id, since)
     SELECT id, tenant_id, $2 FROM alert_rules WHERE id = $1
     ON CONFLICT (rule_id) DO NOTHING`,
    [ruleId, options.now],
  );
  const { rows } = await client.query<RuleRow>(
    `SELECT r.id, r.tenant_id, r.name, r.role, r.mode, r.metric, r.window_minutes, r.comparison,
            r.threshold, r.min_sample, r.muted_until,
            s.state, s.notified_state, s.last_evaluated_minute
       FROM alert_states s JOIN alert_rules r ON r.id = s.rule_id
      WHERE s.rule_id = $1
        FOR UPDATE OF s`,
    [ruleId],
  );
  const rule = rows[0];
  const slots = rule
    ? slotsToEvaluate(rule.last_evaluated_minute, options.now, options.slotMs, options.maxCatchUp)
    : [];
  if (!rule || slots.length === 0) return;
  let before = { state: rule.state, notifiedState: rule.notified_state };
  let last: { value: number | null; sample: number; belowMinSample: boolean } | null = null;
  let since: Date | null = null;
  const target = {
    tenant: rule.tenant_id,
    role: rule.role,
    mode: rule.mode as AlertMode | null,
    metric: rule.metric as AlertMetric,
    windowMinutes: rule.window_minutes,
  };
  const payloadRule = {
    id: rule.id,
    name: rule.name,
    tenantId: rule.tenant_id,
    role: rule.role,
    mode: rule.mode,
    metric: target.metric,
    comparison: rule.comparison as AlertComparison,
    threshold: rule.threshold,
    windowMinutes: rule.window_minutes,
  };
  for (const slot of slots) {
    const slotEnd = new Date(slot.getTime() + options.slotMs);
    const payloadOf = (
      kind: AlertPayload["state"],
      reading: { value: number | null; sample: number },
    ) => buildPayload(payloadRule, kind, reading, slot, options.slotMs, options.baseUrl);
    const sums = await readWindowSums(
      target,
      windowEndingAt(slot, target.windowMinutes, options.slotMs),
      ALL_TENANTS,
    );
    const reading = readMetric(target.metric, sums);
    const muted = isMuted(rule.muted_until, slotEnd);
    const result = evaluateRule(
      { comparison: payloadRule.comparison, threshold: rule.threshold, minSample: rule.min_sample },
      before,
      reading,
      muted,
    );
    summary.slotsEvaluated += 1;
    if (result.transition) {
      summary.transitions += 1;
      since = slotEnd;
      await client.query(
        `INSERT INTO alert_events (rule_id, tenant_id, kind, value, sample, threshold, minute, at, muted)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (rule_id, minute) DO NOTHING`,
        [
          rule.id,
          rule.tenant_id,
          result.transition,
          reading.value,
          reading.sample,
          rule.threshold,
          slot,
          slotEnd,
          muted,
        ],
      );
    }
    if (result.notify) {
      // The transition announced: this slot's, or (a mute just ended) the latest of its kind.
      const { rows: events } = await client.query<{ id: string }>(
        `SELECT id FROM alert_events WHERE rule_id = $1 AND kind = $2 ORDER BY minute DESC LIMIT 1`,
        [rule.id, result.notify],
      );
      const eventId = events[0]?.id;
      if (eventId !== undefined) {
        const payload = payloadOf(result.notify, reading);
        const { rows: inserted } = await client.query<{ id: string }>(
          `INSERT INTO alert_deliveries (id, rule_id, tenant_id, channel_id, event_id, kind, payload, next_attempt_at, created_at)
           SELECT gen_random_uuid(), $1, $2, c.id, $3, $4, $5, $6, $6
             FROM alert_channels c WHERE c.rule_id = $1
           ON CONFLICT (event_id, channel_id) DO NOTHING
           RETURNING id`,
          [rule.id, rule.tenant_id, eventId, result.notify, JSON.stringify(payload), options.now],
        );
        summary.deliveryIds.push(...inserted.map((row) => row.id));
      }
    }
    before = { state: result.state, notifiedState: result.notifiedState };
    last = { value: reading.value, sample: reading.sample, belowMinSample: result.belowMinSample };
  }
  const lastSlot = slots[slots.length - 1] as Date;
  await client.query(
    `UPDATE alert_states
        SET state = $2, notified_state = $3, last_value = $4, last_sample = $5,
            below_min_sample = $6, since = COALESCE($7, since), last_evaluated_minute = $8,
            updated_at = $9
      WHERE rule_id = $1`,
    [
      rule.id,
      before.state,
      before.notifiedState,
      last?.value ?? null,
      last?.sample ?? null,
      last?.belowMinSample ?? false,
      since,
      lastSlot,
      options.now,
    ],
  );
  summary.rulesEvaluated += 1;
}
