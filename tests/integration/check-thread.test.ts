/**
 * Where bodies are parsed and checked does not change what is answered or stored: a server with
 * its checking thread (the default) and one checking in each request's thread
 * (`ROUTELENS_INGEST_CHECK_THREAD=false`) get the same ingest batch and the same OTLP export,
 * each for a tenant of its own, and answer and store the same.
 */
import { readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createApiKey } from "@/lib/keys";
import { decisionEvent, outcomeFor } from "@/lib/telemetry/events";
import { type AppServer, startAppServer } from "@/scripts/lib/app-server";
import { postBatch } from "../support/http";
import { deleteTenantRows } from "../support/tenant-rows";
import { threadsOf } from "../support/threads";

const databaseUrl = inject("databaseUrl");
const SUFFIX = Date.now().toString(36);
const MODES = {
  thread: { tenant: `check-thread-${SUFFIX}`, env: {} },
  inline: { tenant: `check-inline-${SUFFIX}`, env: { ROUTELENS_INGEST_CHECK_THREAD: "false" } },
} as const;
type Mode = keyof typeof MODES;

const EXPORT = readFileSync(new URL("../fixtures/otlp/ai-sdk-genai.json", import.meta.url));

let db: pg.Client;
const servers = new Map<Mode, { server: AppServer; key: string }>();

beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  for (const [mode, { tenant, env }] of Object.entries(MODES) as [Mode, (typeof MODES)[Mode]][]) {
    const { key } = await createApiKey(tenant);
    servers.set(mode, { server: await startAppServer({ databaseUrl, env }), key });
  }
}, 120_000);

afterAll(async () => {
  await Promise.all([...servers.values()].map(({ server }) => server.stop()));
  for (const { tenant } of Object.values(MODES)) await deleteTenantRows(db, tenant);
  await db.end();
});

/** The batch each server gets: two decisions, an outcome, a refused event and a foreign one. */
function batchFor(mode: Mode): unknown[] {
  const run = `run-${mode}`;
  const first = decisionEvent({
    event_id: `${mode}-d0`,
    run_id: run,
    iteration: 0,
    offered: ["search_docs", "send_email", "read_file"],
    selected: ["read_file"],
    dropped_tokens: 80,
  });
  const second = decisionEvent({
    event_id: `${mode}-d1`,
    run_id: run,
    iteration: 1,
    offered: ["search_docs", "send_email", "read_file"],
    selected: ["search_docs"],
    dropped_tokens: 60,
  });
  return [
    first,
    { ...second, iteration: -1 },
    second,
    outcomeFor(first, ["read_file", "send_email"], { event_id: `${mode}-o0` }),
    decisionEvent({ event_id: `${mode}-foreign`, tenant_id: "someone-else" }),
  ];
}

/** An answer with the mode's name taken out of its ids, so both modes' answers compare. */
const neutral = (mode: Mode, body: unknown) =>
  JSON.parse(JSON.stringify(body).replaceAll(mode, "MODE"));

async function stored(tenant: string) {
  const { rows } = await db.query(
    `SELECT (SELECT count(*)::int FROM decisions WHERE tenant_id = $1) AS decisions,
            (SELECT count(*)::int FROM outcomes WHERE tenant_id = $1) AS outcomes,
            (SELECT count(*)::int FROM decision_outcomes WHERE tenant_id = $1) AS joined,
            (SELECT coalesce(sum(dropped_tokens), 0)::int FROM rollup_day WHERE tenant_id = $1)
              AS rolled_up_tokens,
            (SELECT count(*)::int FROM otel_spans WHERE tenant_id = $1) AS spans`,
    [tenant],
  );
  return rows[0];
}

describe("checking in the checking thread or in the request's thread", () => {
  it("answers an ingest batch and an OTLP export alike, and stores the same", async () => {
    const answers = new Map<Mode, unknown[]>();
    for (const mode of Object.keys(MODES) as Mode[]) {
      const { server, key } = servers.get(mode) ?? expect.unreachable();
      const ingest = await postBatch(server.baseUrl, key, batchFor(mode), { gzip: true });
      expect(ingest.status).toBe(207);
      const malformed = await postBatch(server.baseUrl, key, '{"batch": [');
      const otlp = await fetch(`${server.baseUrl}/api/otlp/v1/traces`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
        body: EXPORT,
      });
      expect(otlp.status).toBe(200);
      answers.set(mode, [
        neutral(mode, await ingest.json()),
        malformed.status,
        await malformed.json(),
        await otlp.json(),
      ]);
    }
    expect(answers.get("inline")).toEqual(answers.get("thread"));
    const [ingest, malformedStatus] = answers.get("thread") ?? [];
    expect(ingest).toMatchObject({
      successes: [
        { id: "MODE-d0", status: 201 },
        { id: "MODE-d1", status: 201 },
        { id: "MODE-o0", status: 201 },
      ],
      errors: [
        { index: 1, status: 400 },
        { index: 4, status: 403 },
      ],
    });
    expect(malformedStatus).toBe(400);

    const thread = await stored(MODES.thread.tenant);
    expect(thread).toEqual(await stored(MODES.inline.tenant));
    // Two decisions and the export's three LLM calls; the batch's outcome and the export's.
    expect(thread).toMatchObject({ decisions: 5, joined: 4, rolled_up_tokens: 140 });
  });

  it("runs a checking thread only where it is on", async () => {
    const threaded = servers.get("thread") ?? expect.unreachable();
    const inline = servers.get("inline") ?? expect.unreachable();
    // Both have served the same requests above; the one with a checking thread has started it.
    expect(await threadsOf(threaded.server)).toBeGreaterThan(await threadsOf(inline.server));
  });
});
