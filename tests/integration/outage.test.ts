/**
 * PostgreSQL goes away under a running server: health and ingest (its own and OTLP) answer
 * 503 quickly (with Retry-After), nothing is reported stored, and once PostgreSQL is back a
 * retried batch is stored exactly once. Uses its own PostgreSQL and server so stopping them harms no other test.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { TENANT_TABLE_NAMES } from "@/lib/db/tenant-tables";
import { StatusSchema } from "@/lib/otlp/gen/google/rpc/status_pb";
import { ExportTraceServiceRequestSchema } from "@/lib/otlp/gen/opentelemetry/proto/collector/trace/v1/trace_service_pb";
import { decisionEvent, outcomeEvent } from "@/lib/telemetry/events";
import { type AppServer, startAppServer } from "@/scripts/lib/app-server";
import { ensureDatabase } from "@/scripts/lib/local-postgres";
import { seedApiKey } from "@/scripts/lib/seed-key";
import { postBatch } from "../support/http";
import { type OwnPostgres, startOwnPostgres } from "../support/own-postgres";

const DATA_DIR = ".data/test-pg-outage";
let database: OwnPostgres;
let app: AppServer;
let url: string;
let key: string;

beforeAll(async () => {
  database = await startOwnPostgres(DATA_DIR);
  await ensureDatabase(database.current().adminUrl, "routelens_test_outage");
  url = database.current().urlFor("routelens_test_outage");
  await migrate(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`TRUNCATE tenants, ${TENANT_TABLE_NAMES.join(", ")} CASCADE`);
  await client.end();
  key = await seedApiKey(url, "outage");
  app = await startAppServer({ databaseUrl: url, env: { DATABASE_CONNECT_TIMEOUT_MS: "1000" } });
});

afterAll(async () => {
  await app?.stop();
  await database?.current().stop();
});

describe("when PostgreSQL is down", () => {
  const batch = [
    decisionEvent({ run_id: "run-outage", iteration: 0, dropped_tokens: 40 }),
    outcomeEvent({ run_id: "run-outage", iteration: 0, called: ["search_docs"] }),
  ];

  it("health is ok while the database is up", async () => {
    const response = await fetch(`${app.baseUrl}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  });

  it("health answers 503 unreachable and ingest 503 with Retry-After, without hanging", async () => {
    await database.current().stop();

    const started = Date.now();
    const health = await fetch(`${app.baseUrl}/api/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ database: "unreachable" });

    const ingest = await postBatch(app.baseUrl, key, batch);
    expect(ingest.status).toBe(503);
    expect(ingest.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await ingest.json()).error).toMatch(/nothing was stored/);

    // OTLP exporters retry a 503 after Retry-After; the status comes in the request's encoding.
    const otlp = await fetch(`${app.baseUrl}/api/otlp/v1/traces`, {
      method: "POST",
      headers: { "Content-Type": "application/x-protobuf", Authorization: `Bearer ${key}` },
      body: toBinary(
        ExportTraceServiceRequestSchema,
        create(ExportTraceServiceRequestSchema, { resourceSpans: [] }),
      ) as Uint8Array<ArrayBuffer>,
    });
    expect(otlp.status).toBe(503);
    expect(otlp.headers.get("retry-after")).toMatch(/^\d+$/);
    const status = fromBinary(StatusSchema, new Uint8Array(await otlp.arrayBuffer()));
    expect(status).toMatchObject({
      code: 14,
      message: expect.stringMatching(/nothing was stored/),
    });
    expect(Date.now() - started).toBeLessThan(10_000);

    await database.restart();
  });

  it("after PostgreSQL is back, a retried batch is stored exactly once", async () => {
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
      status = (await postBatch(app.baseUrl, key, batch)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(status).toBe(200);
    const again = await postBatch(app.baseUrl, key, batch);
    expect((await again.json()).successes.map((s: { status: number }) => s.status)).toEqual([
      200, 200,
    ]);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const decisions = await client.query(
      "SELECT count(*)::int AS n FROM decisions WHERE tenant_id = 'outage'",
    );
    const rollup = await client.query(
      "SELECT sum(decisions)::int AS d, sum(dropped_tokens)::int AS t, sum(outcomes)::int AS o FROM rollup_hour WHERE tenant_id = 'outage'",
    );
    await client.end();
    expect(decisions.rows[0].n).toBe(1);
    expect(rollup.rows[0]).toEqual({ d: 1, t: 40, o: 1 });
  });
});
