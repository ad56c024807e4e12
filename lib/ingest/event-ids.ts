/**
 * `event_ids`: one row per stored decision or outcome, primary key (tenant_id, event_id). The
 * raw tables are partitioned by time, and a partitioned table's unique index must contain its
 * partition key, so this table is what keeps an event id stored once per tenant whatever its
 * timestamp. Every writer of `decisions` or `outcomes` adds the rows' keys here in the same
 * transaction. `/api/ingest` adds them with `ON CONFLICT DO NOTHING` and stores only the rows
 * whose keys it added (`addEventIds`, store-transaction.ts); OTLP ingest looks its ids up first
 * and adds the new ones with `insertEventIds`, where an id a concurrent transaction stored
 * first fails the insert with a unique violation, and the writer retries and then finds it.
 */
import type pg from "pg";
import { arrayLiteral } from "@/lib/db/sql-literal";
import { takeDecisionIdsSql } from "./decision-outcomes";

export interface EventKey {
  tenant_id: string;
  event_id: string;
  ts: string;
}

/**
 * Adds the events' keys and, in the same round trip, takes `decisionIds` ids from the decisions'
 * sequence for the decisions about to be written (lib/ingest/decision-outcomes.ts); answers
 * those ids, ascending.
 */
export async function insertEventIds(
  client: pg.PoolClient,
  events: readonly EventKey[],
  decisionIds = 0,
): Promise<string[]> {
  if (events.length === 0 && decisionIds === 0) return [];
  const { rows } = await client.query<{ id: string }>(
    `WITH added AS (INSERT INTO event_ids (tenant_id, event_id, ts)
                    SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[]))
     ${takeDecisionIdsSql(decisionIds)}`,
    [
      arrayLiteral(events.map((e) => e.tenant_id)),
      arrayLiteral(events.map((e) => e.event_id)),
      arrayLiteral(events.map((e) => e.ts)),
    ],
  );
  return rows.map(({ id }) => id);
}
