/**
 * The backtest job's reader decides in SQL which stored traces the replay reads, and sends the
 * others as a short stand-in: for every form a stored trace can take, the replay reads the
 * same inputs from what the reader sends as from the stored trace itself.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  type RecordedDecision,
  readRecordedInputs,
  traceNeedsReading,
  UNREAD_TRACE,
} from "@/lib/backtest/replay";
import { readDecisions } from "@/lib/db/queries/backtest-job";
import { deleteTenantRows } from "../support/tenant-rows";

const TENANT = `bt-reader-${Date.now().toString(36)}`;
const DAY = 86_400_000;
const start = Math.floor(Date.now() / DAY) * DAY - 2 * DAY;
const window = { tenantId: TENANT, roles: [], from: new Date(start), to: new Date(start + DAY) };
const OFFERED = ["search_docs", "refund_order", "send_email"];
const client = new pg.Client({ connectionString: inject("databaseUrl") });

/** Stored traces, by what they hold: as ingest writes them, and as others may have. */
const TRACES: Record<string, string> = {
  "lazy routing selecting":
    '[{"stage":"lazy_routing","action":"select","kept":[0,2],"dropped":[1]},{"stage":"policy","action":"select","kept":[0,2]}]',
  "lazy routing abstaining":
    '[{"stage":"lazy_routing","action":"abstain","kept":[0,1,2],"detail":"no routing resolved"}]',
  "no lazy routing stage":
    '[{"stage":"role_palette","action":"select","kept":[0],"dropped":[1,2]}]',
  "an empty trace": "[]",
  "a degraded role palette":
    '[{"stage":"role_palette","action":"abstain","kept":[0,1,2],"degraded":true}]',
  "lazy routing with its fields in another order":
    '[{"action":"select","stage":"lazy_routing","kept":["refund_order"]}]',
  "lazy routing selecting, with spaces (a hand-written row)":
    '[{"stage": "lazy_routing", "action": "select", "kept": [1]}]',
  "names in full (an older row)":
    '[{"stage":"lazy_routing","action":"select","kept":["send_email"],"dropped":[],"added":[],"reinstated":[],"forced_choice":null,"detail":"","degraded":false}]',
  "not a list": '{"stage":"lazy_routing"}',
  "a JSON null": "null",
  "a text containing an apostrophe":
    '[{"stage":"policy","action":"select","kept":[0],"detail":"the user\'s policy"}]',
};

beforeAll(async () => {
  await client.connect();
  await client.query("INSERT INTO tenants (id) VALUES ($1)", [TENANT]);
  const entries = Object.values(TRACES);
  await client.query(
    `INSERT INTO decisions (tenant_id, event_id, run_id, role, mode, iteration, turn_hop_index,
                            ts, offered_count, selected_count, dropped_count, dropped_tokens,
                            reinstatements, empty_palette_warnings, stage_errors,
                            offered, selected, dropped, trace, warnings)
     SELECT $1, 'e-' || n, 'run-1', 'action', 'observe', n, 0, $2::timestamptz + n * interval '1 s',
            3, 3, 0, 0, 0, 0, 0, $3, $3, '{}', ($4::text[])[n]::json, '[]'
       FROM generate_series(1, $5::int) AS n`,
    [TENANT, new Date(start), OFFERED, entries, entries.length],
  );
});

afterAll(async () => {
  await deleteTenantRows(client, TENANT);
  await client.end();
});

describe("the backtest job's reader", () => {
  it("sends each trace the replay reads, and a stand-in that reads the same for the others", async () => {
    const read = await readDecisions(window, null, 100);
    const names = Object.keys(TRACES);
    expect(read).toHaveLength(names.length);
    const { rows } = await client.query<{ iteration: number; trace: string }>(
      "SELECT iteration, trace::text AS trace FROM decisions WHERE tenant_id = $1",
      [TENANT],
    );
    const stored = new Map(rows.map((row) => [row.iteration, row.trace]));

    const standIns: string[] = [];
    for (const decision of read) {
      const name = names[decision.iteration - 1];
      const text = stored.get(decision.iteration) as string;
      const asStored: RecordedDecision = { ...decision, trace: text };
      expect(readRecordedInputs(decision), name).toEqual(readRecordedInputs(asStored));
      const readsIt = !text.startsWith("[") || traceNeedsReading(text);
      if (readsIt) {
        expect(decision.trace, name).toBe(text);
      } else {
        expect(Object.values(UNREAD_TRACE), name).toContain(decision.trace);
        standIns.push(name as string);
      }
    }
    expect(standIns.sort()).toEqual(
      [
        "a text containing an apostrophe",
        "an empty trace",
        "lazy routing abstaining",
        "no lazy routing stage",
      ].sort(),
    );
  });
});
