/**
 * A production server killed with SIGKILL in the middle of a stream of ingest requests: the
 * client sends every batch that got no answer again, to a restarted server, as the telemetry
 * client does. Afterwards every event is stored exactly once and every rollup equals the sums
 * of the raw rows — whatever the killed server had committed but not yet answered.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DECISIONS_WITH_OUTCOMES } from "@/lib/ingest/decision-outcomes";
import { createApiKey } from "@/lib/keys";
import type { TelemetryEvent } from "@/lib/schemas/events";
import { decisionEvent, outcomeFor } from "@/lib/telemetry/events";
import { type AppServer, startAppServer } from "@/scripts/lib/app-server";
import { postBatch } from "../support/http";
import { rollupDifferences } from "../support/rollup-sums";

const BATCHES = 160;
const EVENTS_PER_BATCH = 50;
const IN_FLIGHT = 6;
/** The server is killed once this many batches' decisions are stored. */
const KILL_AFTER = 50;

const databaseUrl = inject("databaseUrl");
const tenant = `crash-${Date.now()}`;
let db: pg.Client;
let key: string;
let app: AppServer | null = null;

beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  key = (await createApiKey(tenant)).key;
});

afterAll(async () => {
  await app?.stop();
  await db.end();
});

/** Decisions of 20 runs, each followed two batches later by its outcome (so joins cross the kill). */
function batches(): TelemetryEvent[][] {
  const now = Date.now();
  const decisions = Array.from({ length: (BATCHES * EVENTS_PER_BATCH) / 2 }, (_, i) =>
    decisionEvent({
      run_id: `crash-run-${i % 20}`,
      iteration: Math.floor(i / 20),
      offered: ["search_docs", "run_sql", "send_email"],
      selected: ["search_docs"],
      dropped_tokens: 10 + (i % 7),
      timestamp: new Date(now - 3_600_000 + i * 100).toISOString(),
    }),
  );
  const half = EVENTS_PER_BATCH / 2;
  return Array.from({ length: BATCHES }, (_, b) => [
    ...decisions.slice(b * half, (b + 1) * half),
    ...decisions
      .slice(Math.max(0, b - 2) * half, Math.max(0, b - 2) * half + (b >= 2 ? half : 0))
      .map((d) => outcomeFor(d, b % 3 === 0 ? ["run_sql"] : ["search_docs"])),
  ]);
}

describe("kill -9 in the middle of ingest", () => {
  it("every batch that got no answer, sent again to a restarted server: each event stored once, rollups exact", async () => {
    const all = batches();
    app = await startAppServer({ databaseUrl });
    const server = app;
    const unanswered: number[] = [];
    let killed = false;
    let next = 0;
    const worker = async () => {
      while (next < all.length) {
        const index = next++;
        let status: number;
        try {
          const response = await postBatch(server.baseUrl, key, all[index]);
          await response.arrayBuffer();
          status = response.status;
        } catch (error) {
          // A request to a killed server: no answer. It is sent again after the restart.
          if (!killed) throw error;
          unanswered.push(index);
          continue;
        }
        expect(status).toBe(200);
      }
    };
    // The kill comes the moment PostgreSQL shows a commit past KILL_AFTER batches' decisions:
    // most often before the server has answered that batch, so a batch stored but never
    // answered is sent again too.
    const killer = (async () => {
      const threshold = KILL_AFTER * (EVENTS_PER_BATCH / 2);
      while (!killed) {
        const { rows } = await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM decisions WHERE tenant_id = $1",
          [tenant],
        );
        if ((rows[0]?.n ?? 0) >= threshold) {
          killed = true;
          server.child.kill("SIGKILL");
        }
      }
    })();
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    await killer;
    expect(killed).toBe(true);
    // Requests were in flight when the server died, and the rest of the stream found it gone.
    expect(unanswered.length).toBeGreaterThan(IN_FLIGHT - 1);

    app = await startAppServer({ databaseUrl });
    for (const index of unanswered.sort((a, b) => a - b)) {
      const response = await postBatch(app.baseUrl, key, all[index]);
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body.successes).toHaveLength(all[index]?.length ?? 0);
    }

    const { rows } = await db.query<{ kind: string; n: number; distinct_ids: number }>(
      `SELECT 'decisions' AS kind, count(*)::int AS n, count(DISTINCT event_id)::int AS distinct_ids
         FROM decisions WHERE tenant_id = $1
       UNION ALL
       SELECT 'outcomes', count(*)::int, count(DISTINCT event_id)::int
         FROM outcomes WHERE tenant_id = $1`,
      [tenant],
    );
    const sent = all.flat();
    const decisionsSent = sent.filter((e) => e.type === "tool_routing_decision").length;
    const outcomesSent = sent.length - decisionsSent;
    expect(rows).toEqual([
      { kind: "decisions", n: decisionsSent, distinct_ids: decisionsSent },
      { kind: "outcomes", n: outcomesSent, distinct_ids: outcomesSent },
    ]);
    const joined = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${DECISIONS_WITH_OUTCOMES} d WHERE tenant_id = $1 AND has_outcome`,
      [tenant],
    );
    expect(joined.rows[0]?.n).toBe(outcomesSent);
    expect(await rollupDifferences(db, tenant)).toEqual([]);
  });
});
