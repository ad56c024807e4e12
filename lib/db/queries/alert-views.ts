/**
 * The overview's alert markers (SPEC §9): transitions of the rules whose data overlaps the
 * charts' filters (tenant, role and mode), plus each such rule's last transition before the
 * window, so a rule already firing when the window opens is drawn from the window's start.
 * Takes the viewer's `TenantScope`: a rule over every tenant (`tenant_id` NULL) is read by
 * admins only, since its value counts every tenant's decisions.
 */
import "server-only";
import type { TenantScope } from "@/lib/auth/scope";
import type { Period } from "@/lib/dashboard/time-range";
import { getPool } from "@/lib/db/client";
import { SqlParams, scopeConditions, whereClause } from "./sql";

/** The tenant, role and mode a chart is narrowed to (absent: all of the scope's). */
export interface AlertChartFilter {
  scope: TenantScope;
  tenant?: string | undefined;
  role?: string | undefined;
  mode?: string | undefined;
}

/**
 * Rules whose data overlaps a view's filters: each of the rule's own narrowing fields (tenant,
 * role, mode) is unset (all) or equal to the filter's when the filter sets it.
 */
function matchingRuleConditions(params: SqlParams, filter: AlertChartFilter): string[] {
  const conditions = scopeConditions(params, filter.scope, "r.");
  if (filter.tenant)
    conditions.push(`(r.tenant_id IS NULL OR r.tenant_id = ${params.add(filter.tenant)})`);
  if (filter.role) conditions.push(`(r.role IS NULL OR r.role = ${params.add(filter.role)})`);
  if (filter.mode) conditions.push(`(r.mode IS NULL OR r.mode = ${params.add(filter.mode)})`);
  return conditions;
}

/** A transition drawn on a chart, with its rule's name. */
export interface AlertMarkerEventRow {
  ruleId: string;
  ruleName: string;
  /** firing or resolved. */
  kind: string;
  /** The evaluated minute of the transition. */
  minute: Date;
}

/**
 * Transitions of the rules matching `filter` inside `period`, plus each such rule's last
 * transition before it (so a rule already firing when the window opens is drawn from its start).
 */
export async function listAlertMarkerEvents(
  filter: AlertChartFilter,
  period: Period,
): Promise<AlertMarkerEventRow[]> {
  const params = new SqlParams();
  const rules = matchingRuleConditions(params, filter);
  const from = params.add(period.from);
  const to = params.add(period.to);
  const { rows } = await getPool().query<AlertMarkerEventRow>(
    `WITH rules AS (
       SELECT r.id, r.name FROM alert_rules r ${whereClause(rules)} LIMIT 200
     )
     SELECT e.rule_id AS "ruleId", rules.name AS "ruleName", e.kind, e.minute
       FROM rules JOIN alert_events e ON e.rule_id = rules.id
      WHERE e.minute >= ${from} AND e.minute < ${to}
     UNION ALL
     SELECT rules.id, rules.name, last.kind, last.minute
       FROM rules CROSS JOIN LATERAL (
              SELECT kind, minute FROM alert_events
               WHERE rule_id = rules.id AND minute < ${from}
               ORDER BY minute DESC LIMIT 1) last
     ORDER BY 4, 1
     LIMIT 2000`,
    params.values,
  );
  return rows;
}
