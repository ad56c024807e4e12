/**
 * Reads of alert rules (SPEC §9): a rule's value over its window (the form's "now" and the
 * evaluator share `readWindowSums`), rules with their state, history and deliveries, the
 * firing rules and the transitions the overview marks on its charts.
 *
 * Every read takes the viewer's `TenantScope`: a rule over every tenant (tenant_id NULL) is
 * seen by admins only; other rules by the members of their tenant.
 */
import "server-only";
import {
  type MetricReading,
  type MetricWindow,
  type RollupSums,
  readMetric,
  SUM_COLUMNS,
  sumRows,
  windowEndingAt,
} from "@/lib/alerts/metrics";
import type { TenantScope } from "@/lib/auth/scope";
import { getPool, getPrisma } from "@/lib/db/client";
import type {
  AlertChannelKind,
  AlertComparison,
  AlertEventKind,
  AlertMetric,
  AlertMode,
  AlertStateName,
} from "@/lib/schemas/alerts";
import { SqlParams, whereClause } from "./sql";

/** What a rule's value depends on: where it looks and what it measures. */
export interface RuleTarget {
  /** null: every tenant of the scope. */
  tenant: string | null;
  role?: string | null | undefined;
  mode?: AlertMode | null | undefined;
  metric: AlertMetric;
  windowMinutes: number;
}

const HOUR_MS = 3_600_000;

/**
 * The rollup sums of a target over a window (no raw table is read). Whole hours inside the
 * window are read from `rollup_hour` and the minutes at either end from `rollup_minute`, so a
 * 24-hour window reads about 24 + 120 buckets per group instead of 1,440; both tables are
 * written by the same ingest transaction and pruned at the same horizon.
 */
export async function readWindowSums(
  target: RuleTarget,
  window: MetricWindow,
  scope: TenantScope,
): Promise<RollupSums> {
  const params = new SqlParams();
  const filters: string[] = [];
  if (!scope.all) filters.push(`tenant_id = ANY(${params.add(scope.tenants)}::text[])`);
  if (target.tenant !== null) filters.push(`tenant_id = ${params.add(target.tenant)}`);
  if (target.role) filters.push(`role = ${params.add(target.role)}`);
  if (target.mode) filters.push(`mode = ${params.add(target.mode)}`);
  const from = window.from.getTime();
  const to = window.to.getTime();
  const firstHour = Math.ceil(from / HOUR_MS) * HOUR_MS;
  const lastHour = Math.floor(to / HOUR_MS) * HOUR_MS;
  const ranges: { table: "rollup_minute" | "rollup_hour"; from: number; to: number }[] =
    lastHour - firstHour >= HOUR_MS
      ? ([
          { table: "rollup_minute", from, to: firstHour },
          { table: "rollup_hour", from: firstHour, to: lastHour },
          { table: "rollup_minute", from: lastHour, to },
        ].filter((range) => range.to > range.from) as typeof ranges)
      : [{ table: "rollup_minute", from, to }];
  const columns = Object.values(SUM_COLUMNS).join(", ");
  const parts = ranges.map((range) => {
    const conditions = [
      `bucket >= ${params.add(new Date(range.from))}`,
      `bucket < ${params.add(new Date(range.to))}`,
      ...filters,
    ];
    return `SELECT ${columns} FROM ${range.table} ${whereClause(conditions)}`;
  });
  const sums = Object.entries(SUM_COLUMNS)
    .map(([key, column]) => `COALESCE(sum(${column}), 0)::float8 AS "${key}"`)
    .join(", ");
  const { rows } = await getPool().query<RollupSums>(
    `SELECT ${sums} FROM (${parts.join(" UNION ALL ")}) AS buckets`,
    params.values,
  );
  return sumRows(rows);
}

/**
 * A rule's value now, over the `windowMinutes` minutes up to and including the current one:
 * what the form shows before the rule is saved ("now: 3.1 % over 312 decisions").
 */
export async function currentValue(
  rule: RuleTarget,
  scope: TenantScope,
  now: Date = new Date(),
): Promise<MetricReading & { window: MetricWindow }> {
  const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const window = windowEndingAt(minute, rule.windowMinutes);
  const sums = await readWindowSums(rule, window, scope);
  return { ...readMetric(rule.metric, sums), window };
}

/** `tenant_id` conditions of a scope for the alert tables (NULL rows: admins only). */
function ruleScope(scope: TenantScope) {
  return scope.all ? {} : { tenantId: { in: [...scope.tenants] } };
}

export interface AlertChannelSummary {
  id: string;
  kind: AlertChannelKind;
  url: string;
  /** A webhook's secret is shown once, at creation; lists show only that it has one. */
  hasSecret: boolean;
}

export interface AlertRuleSummary {
  id: string;
  tenant: string | null;
  name: string;
  role: string | null;
  mode: AlertMode | null;
  metric: AlertMetric;
  windowMinutes: number;
  comparison: AlertComparison;
  threshold: number;
  minSample: number;
  mutedUntil: Date | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  channels: AlertChannelSummary[];
  state: {
    state: AlertStateName;
    lastValue: number | null;
    lastSample: number | null;
    belowMinSample: boolean;
    since: Date;
    lastEvaluatedMinute: Date | null;
  } | null;
}

const RULE_SELECT = {
  id: true,
  tenantId: true,
  name: true,
  role: true,
  mode: true,
  metric: true,
  windowMinutes: true,
  comparison: true,
  threshold: true,
  minSample: true,
  mutedUntil: true,
  createdBy: true,
  createdAt: true,
  updatedAt: true,
  channels: {
    select: { id: true, kind: true, url: true, secret: true },
    orderBy: { createdAt: "asc" },
  },
  state: {
    select: {
      state: true,
      lastValue: true,
      lastSample: true,
      belowMinSample: true,
      since: true,
      lastEvaluatedMinute: true,
    },
  },
} as const;

type RuleRow = {
  id: string;
  tenantId: string | null;
  name: string;
  role: string | null;
  mode: string | null;
  metric: string;
  windowMinutes: number;
  comparison: string;
  threshold: number;
  minSample: number;
  mutedUntil: Date | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  channels: { id: string; kind: string; url: string; secret: string | null }[];
  state: {
    state: string;
    lastValue: number | null;
    lastSample: bigint | number | null;
    belowMinSample: boolean;
    since: Date;
    lastEvaluatedMinute: Date | null;
  } | null;
};

function toSummary(row: RuleRow): AlertRuleSummary {
  return {
    id: row.id,
    tenant: row.tenantId,
    name: row.name,
    role: row.role,
    mode: row.mode as AlertMode | null,
    metric: row.metric as AlertMetric,
    windowMinutes: row.windowMinutes,
    comparison: row.comparison as AlertComparison,
    threshold: row.threshold,
    minSample: row.minSample,
    mutedUntil: row.mutedUntil,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    channels: row.channels.map((channel) => ({
      id: channel.id,
      kind: channel.kind as AlertChannelKind,
      url: channel.url,
      hasSecret: channel.secret !== null,
    })),
    state: row.state && {
      state: row.state.state as AlertStateName,
      lastValue: row.state.lastValue,
      lastSample: row.state.lastSample === null ? null : Number(row.state.lastSample),
      belowMinSample: row.state.belowMinSample,
      since: row.state.since,
      lastEvaluatedMinute: row.state.lastEvaluatedMinute,
    },
  };
}

/** The rules the viewer reads (optionally of one tenant), with their channels and state. */
export async function listRules(
  scope: TenantScope,
  tenant?: string | undefined,
): Promise<AlertRuleSummary[]> {
  const rows = await getPrisma().alertRule.findMany({
    where: { AND: [ruleScope(scope), tenant ? { tenantId: tenant } : {}] },
    select: RULE_SELECT,
    orderBy: [{ tenantId: "asc" }, { name: "asc" }, { createdAt: "asc" }],
    take: 1000,
  });
  return rows.map(toSummary);
}

/** One rule, or null when it does not exist or lies outside the scope. */
export async function getRule(scope: TenantScope, id: string): Promise<AlertRuleSummary | null> {
  const row = await getPrisma().alertRule.findFirst({
    where: { AND: [{ id }, ruleScope(scope)] },
    select: RULE_SELECT,
  });
  return row ? toSummary(row) : null;
}

export interface AlertEventRow {
  id: number;
  ruleId: string;
  ruleName: string;
  tenant: string | null;
  kind: AlertEventKind;
  value: number | null;
  sample: number;
  threshold: number;
  minute: Date;
  at: Date;
  muted: boolean;
}

function toEventRow(row: {
  id: bigint | number;
  ruleId: string;
  tenantId: string | null;
  kind: string;
  value: number | null;
  sample: bigint | number;
  threshold: number;
  minute: Date;
  at: Date;
  muted: boolean;
  rule: { name: string };
}): AlertEventRow {
  return {
    id: Number(row.id),
    ruleId: row.ruleId,
    ruleName: row.rule.name,
    tenant: row.tenantId,
    kind: row.kind as AlertEventKind,
    value: row.value,
    sample: Number(row.sample),
    threshold: row.threshold,
    minute: row.minute,
    at: row.at,
    muted: row.muted,
  };
}

/** A rule's transitions, newest first. */
export async function ruleHistory(
  scope: TenantScope,
  ruleId: string,
  limit = 100,
): Promise<AlertEventRow[]> {
  const rows = await getPrisma().alertEvent.findMany({
    where: { AND: [{ ruleId }, ruleScope(scope)] },
    include: { rule: { select: { name: true } } },
    orderBy: { minute: "desc" },
    take: limit,
  });
  return rows.map(toEventRow);
}

/** Rules firing now (the overview's list), longest-firing first. */
export async function firingRules(
  scope: TenantScope,
  tenant?: string | undefined,
): Promise<AlertRuleSummary[]> {
  const rows = await getPrisma().alertRule.findMany({
    where: {
      AND: [
        ruleScope(scope),
        tenant ? { OR: [{ tenantId: tenant }, { tenantId: null }] } : {},
        { state: { is: { state: "firing" } } },
      ],
    },
    select: RULE_SELECT,
    orderBy: { state: { since: "asc" } },
    take: 200,
  });
  return rows.map(toSummary);
}

export interface AlertAttemptRow {
  attempt: number;
  at: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  nextAttemptAt: Date | null;
}

export interface AlertDeliveryRow {
  id: string;
  ruleId: string;
  channelId: string;
  channelKind: AlertChannelKind;
  channelUrl: string;
  eventId: number | null;
  kind: "firing" | "resolved" | "test";
  status: "pending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
  attemptLog: AlertAttemptRow[];
}

/** A rule's deliveries (newest first) with every attempt. */
export async function ruleDeliveries(
  scope: TenantScope,
  ruleId: string,
  limit = 100,
): Promise<AlertDeliveryRow[]> {
  const rows = await getPrisma().alertDelivery.findMany({
    where: { AND: [{ ruleId }, ruleScope(scope)] },
    include: {
      channel: { select: { kind: true, url: true } },
      attemptLog: { orderBy: { attempt: "asc" } },
    },
    orderBy: { createdAt: "desc" },
    take: limit,
  });
  return rows.map((row) => ({
    id: row.id,
    ruleId: row.ruleId,
    channelId: row.channelId,
    channelKind: row.channel.kind as AlertChannelKind,
    channelUrl: row.channel.url,
    eventId: row.eventId === null ? null : Number(row.eventId),
    kind: row.kind as AlertDeliveryRow["kind"],
    status: row.status as AlertDeliveryRow["status"],
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
    attemptLog: row.attemptLog.map((attempt) => ({
      attempt: attempt.attempt,
      at: attempt.at,
      statusCode: attempt.statusCode,
      latencyMs: attempt.latencyMs,
      error: attempt.error,
      nextAttemptAt: attempt.nextAttemptAt,
    })),
  }));
}
