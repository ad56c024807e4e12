/**
 * `GET /api/health` proves that PostgreSQL answers, not that the shared pool has a free
 * connection: with the pool's only connection held by an ingest request that waits on a lock,
 * health still answers 200 at once on its own connection. (The 503 when PostgreSQL is gone is
 * in outage.test.ts.) Uses its own server with a pool of one connection, on the run's database.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/keys";
import { decisionEvent } from "@/lib/telemetry/events";
import { type AppServer, startAppServer } from "@/scripts/lib/app-server";
import { postBatch } from "../support/http";

let app: AppServer;
let db: pg.Client;
/** A second connection: inside `db`'s transaction, pg_stat_activity would stay a snapshot. */
let watcher: pg.Client;
let key: string;

beforeAll(async () => {
  app = await startAppServer({
    databaseUrl: process.env.DATABASE_URL ?? "",
    env: { DATABASE_POOL_MAX: "1" },
  });
  db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  watcher = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await watcher.connect();
  key = (await createApiKey(`health-${Date.now()}`)).key;
});

afterAll(async () => {
  await db?.end();
  await watcher?.end();
  await app?.stop();
});

/** Waits until some other connection waits on a lock (the server's ingest transaction). */
async function untilAnotherWaitsOnALock(): Promise<boolean> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { rows } = await watcher.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
    );
    if ((rows[0]?.n ?? 0) > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe("GET /api/health with the shared pool fully taken", () => {
  it("answers 200 on its own connection while an ingest request holds the pool's only one", async () => {
    const event = decisionEvent();
    await db.query("BEGIN");
    let ingest: ReturnType<typeof postBatch> | null = null;
    try {
      await db.query("LOCK TABLE decisions IN ACCESS EXCLUSIVE MODE");
      ingest = postBatch(app.baseUrl, key, [event]);
      expect(await untilAnotherWaitsOnALock()).toBe(true);

      const health = await fetch(`${app.baseUrl}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: "ok", database: "ok" });
    } finally {
      await db.query("ROLLBACK");
    }
    // The lock gone, the waiting batch is stored.
    expect((await ingest)?.status).toBe(200);
    const { rows } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM decisions WHERE event_id = $1",
      [event.event_id],
    );
    expect(rows[0]?.n).toBe(1);
  });
});
