/**
 * How each table would be placed on a distributed PostgreSQL (Citus; docs/SCALE-OUT-tables.md).
 *
 * - **Distributed by `tenant_id`**: a tenant's own rows, read and written per tenant. Every
 *   primary key and unique index contains `tenant_id`, and a foreign key between two of them
 *   would name `tenant_id` on both sides, so each statement of one tenant routes to one shard.
 * - **Reference**: small tables, replicated to every node, that are read across tenants or
 *   have no tenant at all.
 *
 * `tests/integration/distributable-schema.test.ts` reads the live catalog and holds every table
 * of the database to this list.
 */
export const DISTRIBUTED_TABLES = [
  "decisions",
  "outcomes",
  "decision_outcomes",
  "event_ids",
  "runs",
  "rollup_minute",
  "rollup_hour",
  "rollup_day",
  "tool_rollup_hour",
  "tool_rollup_day",
  "otel_spans",
  "otel_call_rollup_hour",
  "tool_sizes",
  "palettes",
  "backtests",
  "routing_configs",
] as const;

/** Each reference table with the reason it is not distributed by tenant. */
export const REFERENCE_TABLES = {
  tenants: "the tenants themselves: one row each, joined by every tenant list",
  api_keys:
    "an ingest request is matched to its tenant by the key's hash, before the tenant is known",
  users: "people, who may belong to several tenants",
  sessions: "sign-in sessions of users, looked up by token",
  accounts: "users' passwords and single sign-on identities",
  verifications: "one-time sign-in links, setup tokens and single sign-on state",
  tenant_members: "a user's roles in all their tenants, read by user at every request",
  invitations: "one-time links that grant roles in several tenants",
  audit_log: "entries without a tenant (sign-ins, users) beside tenant ones, read across tenants",
  alert_rules: "a rule may watch every tenant (tenant_id NULL); few rows",
  alert_states: "one row per rule",
  alert_events: "a rule's transitions, at most one per rule and minute; few rows",
  alert_channels: "a rule's destinations",
  alert_deliveries: "the outbox of a rule's transitions, sent by jobs that read every tenant",
  alert_delivery_attempts: "tries of a delivery",
  tenant_ingest_limits:
    "a tenant's own ingest limits, joined to its API key (a reference table) at every ingest request; one row per tenant, written by admins",
  palette_prunes:
    "one row: how many times tool lists were deleted, read by every ingest transaction of every tenant, written by a prune",
} as const satisfies Record<string, string>;

export type DistributedTable = (typeof DISTRIBUTED_TABLES)[number];
export type ReferenceTable = keyof typeof REFERENCE_TABLES;
