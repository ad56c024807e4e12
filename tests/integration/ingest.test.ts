import { gzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { compactTrace, expandTrace } from "@/lib/db/stored-trace";
import { DECISIONS_WITH_OUTCOMES } from "@/lib/ingest/decision-outcomes";
import { encodePaletteIdentity } from "@/lib/ingest/events";
import { offeredOf } from "@/lib/ingest/palettes";
import { createApiKey, revokeApiKey } from "@/lib/keys";
import { decisionEvent, outcomeEvent, stageRecord } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";

const baseUrl = inject("baseUrl");
let db: pg.Client;
let keyA: string;
let keyB: string;
const tenantA = `ingest-a-${Date.now()}`;
const tenantB = `ingest-b-${Date.now()}`;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
  keyA = (await createApiKey(tenantA)).key;
  keyB = (await createApiKey(tenantB)).key;
});

afterAll(async () => {
  await db.end();
});

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await db.query<{ n: string }>(sql, params);
  return Number(rows[0]?.n ?? 0);
}

async function rollupSums(tenant: string, table = "rollup_minute") {
  const { rows } = await db.query(
    `SELECT COALESCE(sum(decisions),0)::int AS decisions, COALESCE(sum(dropped_tokens),0)::int AS dropped_tokens,
            COALESCE(sum(reinstatements),0)::int AS reinstatements, COALESCE(sum(outcomes),0)::int AS outcomes,
            COALESCE(sum(harmful_drops),0)::int AS harmful_drops
       FROM ${table} WHERE tenant_id = $1`,
    [tenant],
  );
  return rows[0];
}

describe("POST /api/ingest: statuses (SPEC §3)", () => {
  it("answers 200 with one success per event when every event is stored", async () => {
    const events = [decisionEvent({ dropped_tokens: 7 }), outcomeEvent()];
    const response = await postBatch(baseUrl, keyA, events);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.errors).toEqual([]);
    expect(body.successes).toEqual(events.map((e) => ({ id: e.event_id, status: 201 })));
  });

  it("answers 401 without a key and with an unknown key", async () => {
    const none = await postBatch(baseUrl, null, [decisionEvent()]);
    expect(none.status).toBe(401);
    expect((await none.json()).error).toMatch(/Authorization: Bearer/);
    const unknown = await postBatch(baseUrl, "rl_not-a-real-key", [decisionEvent()]);
    expect(unknown.status).toBe(401);
  });

  it("refuses a revoked key at once", async () => {
    const created = await createApiKey(tenantA);
    expect((await postBatch(baseUrl, created.key, [decisionEvent()])).status).toBe(200);
    await revokeApiKey(created.prefix);
    const response = await postBatch(baseUrl, created.key, [decisionEvent()]);
    expect(response.status).toBe(401);
    expect((await response.json()).error).toMatch(/revoked/);
  });

  it("answers 415 for a body that is not JSON by content type", async () => {
    const response = await postBatch(baseUrl, keyA, [decisionEvent()], {
      contentType: "text/plain",
    });
    expect(response.status).toBe(415);
    expect((await response.json()).error).toMatch(/application\/json/);
  });

  it("answers 400 for a body that is not JSON or not an envelope", async () => {
    const broken = await postBatch(baseUrl, keyA, '{"batch": [');
    expect(broken.status).toBe(400);
    expect((await broken.json()).error).toMatch(/not valid JSON/);
    const wrongShape = await postBatch(baseUrl, keyA, JSON.stringify([decisionEvent()]));
    expect(wrongShape.status).toBe(400);
    expect((await wrongShape.json()).error).toMatch(/\{"batch"/);
  });

  it("answers 413 past 1,000 events or 5 MiB, stored nothing", async () => {
    const runId = `run-too-many-${Date.now()}`;
    const many = Array.from({ length: 1001 }, (_, i) =>
      decisionEvent({ run_id: runId, iteration: i }),
    );
    const response = await postBatch(baseUrl, keyA, many);
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatch(/at most 1000/);
    const huge = JSON.stringify({
      batch: [decisionEvent({ run_id: runId })],
      pad: "x".repeat(5 * 1024 * 1024),
    });
    expect((await postBatch(baseUrl, keyA, huge)).status).toBe(413);
    expect(await count("SELECT count(*) AS n FROM decisions WHERE run_id = $1", [runId])).toBe(0);
  });

  it("answers 413 for a gzip body that inflates past 5 MiB", async () => {
    const bomb = gzipSync(JSON.stringify({ batch: [], pad: "y".repeat(6 * 1024 * 1024) }));
    const response = await fetch(`${baseUrl}/api/ingest`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${keyA}`,
        "Content-Type": "application/json",
        "Content-Encoding": "gzip",
      },
      body: bomb,
    });
    expect(response.status).toBe(413);
  });

  it("accepts gzip bodies", async () => {
    const event = decisionEvent();
    const response = await postBatch(baseUrl, keyA, [event], { gzip: true });
    expect(response.status).toBe(200);
    expect(
      await count("SELECT count(*) AS n FROM decisions WHERE event_id = $1", [event.event_id]),
    ).toBe(1);
  });
});

describe("POST /api/ingest: per-event validation", () => {
  it("stores the good events of a mixed batch and names index, path and rule for the bad", async () => {
    const good1 = decisionEvent();
    const bad = decisionEvent();
    const badTrace = {
      ...bad,
      trace: [stageRecord({ stage: "intent" }), { ...stageRecord({ stage: "role" }), kept: "all" }],
    };
    const good2 = outcomeEvent();
    const unknownField = { ...decisionEvent(), surprise: true };
    const response = await postBatch(baseUrl, keyA, [good1, badTrace, good2, unknownField]);
    expect(response.status).toBe(207);
    const body = await response.json();
    expect(body.successes.map((s: { id: string }) => s.id)).toEqual([
      good1.event_id,
      good2.event_id,
    ]);
    expect(body.errors).toEqual([
      {
        id: bad.event_id,
        index: 1,
        status: 400,
        message: "batch[1].trace[1].kept: expected array of strings",
      },
      {
        id: unknownField.event_id,
        index: 3,
        status: 400,
        message: "batch[3].surprise: unknown field (not in wire format v1)",
      },
    ]);
    expect(
      await count("SELECT count(*) AS n FROM decisions WHERE event_id = ANY($1)", [
        [good1.event_id, bad.event_id, unknownField.event_id],
      ]),
    ).toBe(1);
    expect(
      await count("SELECT count(*) AS n FROM outcomes WHERE event_id = $1", [good2.event_id]),
    ).toBe(1);
  });

  it("names missing fields, bad enums and bad timestamps", async () => {
    const { mode: _mode, ...noMode } = decisionEvent();
    const response = await postBatch(baseUrl, keyA, [
      noMode,
      decisionEvent({ timestamp: "yesterday" }),
      { type: "tool_choice", event_id: "x" },
      decisionEvent({ offered: ["a".repeat(201)], selected: [], trace: [] }),
    ]);
    expect(response.status).toBe(207);
    const messages = (await response.json()).errors.map((e: { message: string }) => e.message);
    expect(messages[0]).toBe("batch[0].mode: required");
    expect(messages[1]).toMatch(/^batch\[1\]\.timestamp: expected ISO-8601 timestamp with offset/);
    expect(messages[2]).toBe(
      'batch[2].type: expected "tool_routing_decision" or "tool_call_outcome"',
    );
    expect(messages[3]).toBe("batch[3].offered[0]: at most 200 characters");
  });

  it("rejects an event for another tenant with 403 and keeps its neighbours", async () => {
    const mine = decisionEvent({ tenant_id: tenantA });
    const theirs = decisionEvent({ tenant_id: tenantB });
    const response = await postBatch(baseUrl, keyA, [mine, theirs]);
    expect(response.status).toBe(207);
    const body = await response.json();
    expect(body.successes).toEqual([{ id: mine.event_id, status: 201 }]);
    expect(body.errors).toEqual([
      {
        id: theirs.event_id,
        index: 1,
        status: 403,
        message: `batch[1].tenant_id: "${tenantB}" is not this key's tenant ("${tenantA}")`,
      },
    ]);
    expect(
      await count("SELECT count(*) AS n FROM decisions WHERE event_id = $1", [theirs.event_id]),
    ).toBe(0);
    expect(await count("SELECT count(*) AS n FROM decisions WHERE tenant_id = $1", [tenantB])).toBe(
      0,
    );

    const intoA = decisionEvent({ tenant_id: tenantA });
    const fromB = await postBatch(baseUrl, keyB, [intoA]);
    expect(fromB.status).toBe(207);
    expect((await fromB.json()).errors[0]).toMatchObject({ index: 0, status: 403 });
    expect(
      await count("SELECT count(*) AS n FROM decisions WHERE event_id = $1", [intoA.event_id]),
    ).toBe(0);
  });
});

describe("POST /api/ingest: idempotency and rollups", () => {
  it("stores a duplicate once, within a batch, across retries and across 20 concurrent requests", async () => {
    const tenant = `dup-${Date.now()}`;
    const key = (await createApiKey(tenant)).key;
    const runId = `run-dup-${Date.now()}`;
    const events = Array.from({ length: 30 }, (_, i) =>
      decisionEvent({
        run_id: runId,
        iteration: i,
        dropped_tokens: 10 + i,
        offered: ["a", "b", "c"],
        selected: ["a"],
        mode: i % 2 ? "enforce" : "observe",
      }),
    );
    const outcomes = events
      .slice(0, 10)
      .map((e) => outcomeEvent({ run_id: runId, iteration: e.iteration, called: ["b"] }));
    const everything = [...events, ...outcomes];
    // Same batch twice over, then 20 concurrent copies, then a retry.
    const first = await postBatch(baseUrl, key, [...everything, ...everything.slice(0, 5)]);
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    expect(firstBody.successes.filter((s: { status: number }) => s.status === 201)).toHaveLength(
      everything.length,
    );
    expect(
      firstBody.successes
        .slice(everything.length)
        .every((s: { status: number }) => s.status === 200),
    ).toBe(true);
    const concurrent = await Promise.all(
      Array.from({ length: 20 }, () => postBatch(baseUrl, key, everything)),
    );
    for (const response of concurrent) expect(response.status).toBe(200);
    expect((await postBatch(baseUrl, key, everything)).status).toBe(200);

    expect(await count("SELECT count(*) AS n FROM decisions WHERE tenant_id = $1", [tenant])).toBe(
      30,
    );
    expect(await count("SELECT count(*) AS n FROM outcomes WHERE tenant_id = $1", [tenant])).toBe(
      10,
    );
    const expectedTokens = events.reduce((sum, e) => sum + e.dropped_tokens, 0);
    for (const table of ["rollup_minute", "rollup_hour"]) {
      expect(await rollupSums(tenant, table)).toEqual({
        decisions: 30,
        dropped_tokens: expectedTokens,
        reinstatements: 0,
        outcomes: 10,
        harmful_drops: 10,
      });
    }
    const run = await db.query(
      "SELECT decisions, dropped_tokens::int, harmful_drops, max_iteration, modes FROM runs WHERE tenant_id = $1",
      [tenant],
    );
    expect(run.rows).toEqual([
      {
        decisions: 30,
        dropped_tokens: expectedTokens,
        harmful_drops: 10,
        max_iteration: 29,
        modes: ["enforce", "observe"],
      },
    ]);
    const tools = await db.query(
      "SELECT tool, sum(offered)::int AS offered, sum(dropped)::int AS dropped, sum(called)::int AS called, sum(harmful_drops)::int AS harmful FROM tool_rollup_hour WHERE tenant_id = $1 GROUP BY tool ORDER BY tool",
      [tenant],
    );
    expect(tools.rows).toEqual([
      { tool: "a", offered: 30, dropped: 0, called: 0, harmful: 0 },
      { tool: "b", offered: 30, dropped: 30, called: 10, harmful: 10 },
      { tool: "c", offered: 30, dropped: 30, called: 0, harmful: 0 },
    ]);
  });

  it("stores an event id reused by other runs in concurrent requests once", async () => {
    const tenant = `race-${Date.now()}`;
    const key = (await createApiKey(tenant)).key;
    const eventId = `shared-${Date.now()}`;
    // Different runs take different advisory locks, so these transactions really overlap;
    // the unique index settles the race and the losers are retried and see the winner.
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        postBatch(baseUrl, key, [
          decisionEvent({ event_id: eventId, run_id: `run-race-${i}`, dropped_tokens: 5 }),
          decisionEvent({ run_id: `run-race-${i}` }),
        ]),
      ),
    );
    const bodies = await Promise.all(responses.map((r) => r.json()));
    for (const response of responses) expect(response.status).toBe(200);
    const created = bodies.filter((b) => b.successes[0].status === 201);
    expect(created).toHaveLength(1);
    expect(bodies.every((b) => b.successes[1].status === 201)).toBe(true);
    expect(
      await count("SELECT count(*) AS n FROM decisions WHERE tenant_id = $1 AND event_id = $2", [
        tenant,
        eventId,
      ]),
    ).toBe(1);
    expect(await rollupSums(tenant)).toMatchObject({ decisions: 13, dropped_tokens: 5 });
  });

  it("waits for an event id another transaction is adding while holding no lock of its own", async () => {
    // A client retrying a request still in flight sends the same batch twice at once. Had the
    // second transaction taken join-key locks before waiting at an id the first one is adding,
    // the first could wait for those locks in turn: a deadlock, a second lost to PostgreSQL's
    // deadlock_timeout. A transaction holding the id stands in for the first request here.
    const tenant = `id-wait-${Date.now()}`;
    const key = (await createApiKey(tenant)).key;
    const event = decisionEvent({ run_id: "run-id-wait", iteration: 0, dropped_tokens: 7 });
    const blocker = new pg.Client({ connectionString: inject("databaseUrl") });
    await blocker.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query(
        "INSERT INTO event_ids (tenant_id, event_id, ts) VALUES ($1, $2, now())",
        [tenant, event.event_id],
      );
      const blockerPid = (await blocker.query<{ pid: number }>("SELECT pg_backend_pid() AS pid"))
        .rows[0]?.pid as number;
      const response = postBatch(baseUrl, key, [
        event,
        outcomeEvent({ run_id: "run-id-wait", iteration: 0 }),
      ]);
      // Whatever statement it waits in, it must hold no advisory lock while it waits.
      await waitForBackend({ by: blockerPid, query: "" });
      const { rows } = await db.query<{ locktype: string; mode: string }>(
        `SELECT l.locktype, l.mode FROM pg_locks l
          WHERE l.granted AND l.locktype = 'advisory'
            AND l.pid IN (SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid)))`,
        [blockerPid],
      );
      expect(rows).toEqual([]);
      await blocker.query("ROLLBACK");
      const answered = await response;
      expect(answered.status).toBe(200);
      const body = (await answered.json()) as { successes: { status: number }[] };
      expect(body.successes.map((s) => s.status)).toEqual([201, 201]);
    } finally {
      await blocker.query("ROLLBACK").catch(() => {});
      await blocker.end();
    }
    expect(await rollupSums(tenant)).toMatchObject({
      decisions: 1,
      dropped_tokens: 7,
      outcomes: 1,
    });
  });

  it("stores names and text exactly as sent, whatever characters they hold", async () => {
    const tenant = `chars-${Date.now()}`;
    const key = (await createApiKey(tenant)).key;
    const names = [
      "tab\tname",
      "new\nline",
      "cr\rname",
      "back\\slash",
      'quo"te',
      "a,b",
      "{brace}",
      " padded ",
      "NULL",
      "null",
      "emoji 😀",
      "ünïcödé",
    ];
    const decision = decisionEvent({
      role: 'role "quoted" \\ back',
      offered: names,
      selected: names.slice(0, 4),
      trace: [
        stageRecord({
          stage: "policy\tstage",
          action: "select",
          kept: names.slice(0, 4),
          dropped: names.slice(4),
          added: ["not offered\t\\ {x}"],
          detail: 'C:\\tools\\"x"\n\ttab',
        }),
      ],
      warnings: [{ code: "stage_error", stage: "policy", detail: "line1\nline2\\" }],
      intent: { label: "refund\tlabel", matched_tool_keywords: ["NULL", "back\\slash"] },
      model: "model\\with\tescapes",
      agent: 'agent "quoted"',
      config_version: "cfg\n2",
      palette_identity: "a\u0000b\u0001!c\\d",
    });
    const outcome = outcomeEvent({
      role: decision.role,
      run_id: decision.run_id,
      iteration: decision.iteration,
      called: ['quo"te', "NULL"],
      error: "failed:\n\tstack\\trace",
    });
    const response = await postBatch(baseUrl, key, [decision, outcome]);
    expect(response.status).toBe(200);
    const { rows } = await db.query(
      `SELECT ${offeredOf("decisions")} AS offered, selected, trace, warnings, intent, intent_label, model, agent,
              config_version, palette_identity, called, harmful_tools
         FROM ${DECISIONS_WITH_OUTCOMES} AS decisions WHERE tenant_id = $1`,
      [tenant],
    );
    expect(rows).toEqual([
      {
        offered: names,
        selected: names.slice(0, 4),
        trace: compactTrace(decision.trace, names),
        warnings: decision.warnings,
        intent: decision.intent,
        intent_label: "refund\tlabel",
        model: decision.model,
        agent: decision.agent,
        config_version: decision.config_version,
        palette_identity: encodePaletteIdentity(decision.palette_identity as string),
        called: outcome.called,
        harmful_tools: ["NULL", 'quo"te'],
      },
    ]);
    // Stored with names as positions in `offered`; read back as the records that were sent.
    expect(rows[0].trace[0].kept).toEqual([0, 1, 2, 3]);
    expect(rows[0].trace[0].added).toEqual(["not offered\t\\ {x}"]);
    expect(expandTrace(rows[0].trace, rows[0].offered)).toEqual(decision.trace);
    // Rollup keys carry the same names (the rollups travel to PostgreSQL as escaped literals).
    const tools = await db.query<{ tool: string }>(
      "SELECT tool FROM tool_rollup_hour WHERE tenant_id = $1",
      [tenant],
    );
    expect(tools.rows.map((r) => r.tool).sort()).toEqual([...names].sort());
    const run = await db.query("SELECT roles, modes FROM runs WHERE tenant_id = $1", [tenant]);
    expect(run.rows).toEqual([{ roles: [decision.role], modes: [decision.mode] }]);
    const stored = await db.query("SELECT called, error FROM outcomes WHERE tenant_id = $1", [
      tenant,
    ]);
    expect(stored.rows).toEqual([{ called: outcome.called, error: outcome.error }]);
  });

  it("joins every decision to its outcome when the two arrive in concurrent requests", async () => {
    const tenant = `join-race-${Date.now()}`;
    const key = (await createApiKey(tenant)).key;
    // Per round two requests at once, each with the decisions of half the iterations and the
    // outcomes of the other half: they are stored by two overlapping transactions, and every
    // decision meets its outcome only across them.
    for (let round = 0; round < 5; round++) {
      const runId = `run-join-race-${Date.now()}-${round}`;
      const decisions = Array.from({ length: 200 }, (_, i) =>
        decisionEvent({ run_id: runId, iteration: i, offered: ["a", "b"], selected: ["a"] }),
      );
      const outcomes = decisions.map((d) =>
        outcomeEvent({ run_id: runId, iteration: d.iteration, called: ["b"] }),
      );
      const half = (events: typeof decisions | typeof outcomes, odd: boolean) =>
        events.filter((_, i) => i % 2 === (odd ? 1 : 0));
      const responses = await Promise.all([
        postBatch(baseUrl, key, [...half(decisions, false), ...half(outcomes, true)]),
        postBatch(baseUrl, key, [...half(decisions, true), ...half(outcomes, false)]),
      ]);
      for (const response of responses) expect(response.status).toBe(200);
    }
    expect(
      await count(
        `SELECT count(*) AS n FROM ${DECISIONS_WITH_OUTCOMES} d
          WHERE tenant_id = $1 AND has_outcome AND harmful_tools = '{b}'`,
        [tenant],
      ),
    ).toBe(1000);
    expect(
      await count("SELECT count(*) AS n FROM outcomes WHERE tenant_id = $1 AND joined", [tenant]),
    ).toBe(1000);
    expect(await rollupSums(tenant)).toMatchObject({
      decisions: 1000,
      outcomes: 1000,
      harmful_drops: 1000,
    });
  });

  it("joins an outcome that arrives before its decision", async () => {
    const tenant = `join-${Date.now()}`;
    const key = (await createApiKey(tenant)).key;
    const runId = `run-join-${Date.now()}`;
    expect(
      (
        await postBatch(baseUrl, key, [
          outcomeEvent({ run_id: runId, iteration: 2, called: ["refund_order", "lookup"] }),
        ])
      ).status,
    ).toBe(200);
    expect(await rollupSums(tenant)).toMatchObject({ decisions: 0, outcomes: 0 });
    const decision = decisionEvent({
      run_id: runId,
      iteration: 2,
      offered: ["lookup", "refund_order", "hydrate_context"],
      selected: ["lookup", "hydrate_context"],
      forced_choice: "lookup",
      trace: [
        stageRecord({
          stage: "role_palette",
          action: "select",
          kept: ["lookup", "hydrate_context"],
          dropped: ["refund_order"],
          reinstated: ["lookup"],
        }),
      ],
      warnings: [
        { code: "forced_reinstated", stage: "role_palette" },
        { code: "empty_palette", stage: "role_palette" },
      ],
    });
    expect((await postBatch(baseUrl, key, [decision])).status).toBe(200);
    const { rows } = await db.query(
      `SELECT has_outcome, called, harmful_tools, dropped_count, reinstatements, empty_palette_warnings
         FROM ${DECISIONS_WITH_OUTCOMES} d WHERE event_id = $1`,
      [decision.event_id],
    );
    expect(rows[0]).toEqual({
      has_outcome: true,
      called: ["refund_order", "lookup"],
      harmful_tools: ["refund_order"],
      dropped_count: 1,
      reinstatements: 1,
      empty_palette_warnings: 1,
    });
    expect(await rollupSums(tenant)).toEqual({
      decisions: 1,
      dropped_tokens: 0,
      reinstatements: 1,
      outcomes: 1,
      harmful_drops: 1,
    });
  });
});

/**
 * Waits until a backend of the test database waits for a lock that the backend `by` holds,
 * in a statement whose text starts with `query` (PostgreSQL keeps its first 1,024 bytes).
 */
async function waitForBackend(wait: { by: number; query: string }): Promise<void> {
  const deadline = Date.now() + 15_000;
  let waiting: string[] = [];
  while (Date.now() < deadline) {
    const { rows } = await db.query<{ query: string }>(
      `SELECT query FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'
          AND $1 = ANY(pg_blocking_pids(pid))`,
      [wait.by],
    );
    waiting = rows.map((row) => row.query.slice(0, 60));
    if (rows.some((row) => row.query.startsWith(wait.query))) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`nothing waited for ${wait.by} in "${wait.query}…" (waiting: ${waiting})`);
}

describe("POST /api/ingest: decisions and outcomes sent together", () => {
  /** A tenant of its own per test, so its rollups hold that test's events only. */
  async function tenantWithKey(name: string) {
    const tenant = `${name}-${Date.now()}`;
    const key = (await createApiKey(tenant)).key;
    const post = async (events: unknown[]) => {
      const response = await postBatch(baseUrl, key, events);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { successes: { status: number }[] };
      expect(body.successes.map((r) => r.status)).toEqual(events.map(() => 201));
    };
    const decisions = async () =>
      (
        await db.query(
          `SELECT iteration, turn_hop_index AS hop, has_outcome, called, harmful_tools
             FROM ${DECISIONS_WITH_OUTCOMES} d WHERE tenant_id = $1 ORDER BY iteration, turn_hop_index`,
          [tenant],
        )
      ).rows;
    const outcomes = async () =>
      (
        await db.query(
          "SELECT iteration, called, joined FROM outcomes WHERE tenant_id = $1 ORDER BY id",
          [tenant],
        )
      ).rows;
    return { tenant, post, decisions, outcomes };
  }
  const decision = (runId: string, iteration: number, turn_hop_index = 0) =>
    decisionEvent({
      run_id: runId,
      iteration,
      turn_hop_index,
      offered: ["a", "b", "c"],
      selected: ["a"],
    });
  const outcome = (runId: string, iteration: number, called: string[]) =>
    outcomeEvent({ run_id: runId, iteration, called });

  it("joins every hop of an iteration to the iteration's first outcome in the batch", async () => {
    const t = await tenantWithKey("join-hops");
    const run = "run-hops";
    await t.post([
      decision(run, 0, 0),
      outcome(run, 0, ["c", "b", "c"]),
      decision(run, 0, 1),
      outcome(run, 0, ["a"]),
      decision(run, 1),
      outcome(run, 2, ["a"]),
    ]);
    expect(await t.decisions()).toEqual([
      {
        iteration: 0,
        hop: 0,
        has_outcome: true,
        called: ["c", "b", "c"],
        harmful_tools: ["b", "c"],
      },
      {
        iteration: 0,
        hop: 1,
        has_outcome: true,
        called: ["c", "b", "c"],
        harmful_tools: ["b", "c"],
      },
      { iteration: 1, hop: 0, has_outcome: false, called: [], harmful_tools: [] },
    ]);
    // The second outcome of iteration 0 and the one of iteration 2 wait, as the SQL join leaves them.
    expect(await t.outcomes()).toEqual([
      { iteration: 0, called: ["c", "b", "c"], joined: true },
      { iteration: 0, called: ["a"], joined: false },
      { iteration: 2, called: ["a"], joined: false },
    ]);
    expect(await rollupSums(t.tenant)).toMatchObject({
      decisions: 3,
      outcomes: 2,
      harmful_drops: 4,
    });
    // The waiting outcome of iteration 2 is joined when its decision comes.
    await t.post([decision(run, 2)]);
    expect((await t.decisions())[3]).toMatchObject({
      iteration: 2,
      has_outcome: true,
      called: ["a"],
    });
    expect(await rollupSums(t.tenant)).toMatchObject({
      decisions: 4,
      outcomes: 3,
      harmful_drops: 4,
    });
  });

  it("joins a stored decision still waiting, and an outcome already waiting, as before", async () => {
    const t = await tenantWithKey("join-stored");
    const run = "run-stored";
    // Iteration 0: hop 0 is stored first; hop 1 comes with the outcome, which joins both.
    // Iteration 1: an outcome waits; a decision and a second outcome come together, and the
    // decision takes the waiting outcome, the first of the iteration. Iteration 2: the decision
    // is stored first, its outcome comes alone in a batch with the others.
    await t.post([decision(run, 0, 0), outcome(run, 1, ["b"]), decision(run, 2)]);
    await t.post([
      decision(run, 0, 1),
      outcome(run, 0, ["c"]),
      decision(run, 1),
      outcome(run, 1, ["a"]),
      outcome(run, 2, ["b", "a"]),
    ]);
    expect(await t.decisions()).toEqual([
      { iteration: 0, hop: 0, has_outcome: true, called: ["c"], harmful_tools: ["c"] },
      { iteration: 0, hop: 1, has_outcome: true, called: ["c"], harmful_tools: ["c"] },
      { iteration: 1, hop: 0, has_outcome: true, called: ["b"], harmful_tools: ["b"] },
      { iteration: 2, hop: 0, has_outcome: true, called: ["b", "a"], harmful_tools: ["b"] },
    ]);
    expect(await t.outcomes()).toEqual([
      { iteration: 1, called: ["b"], joined: true },
      { iteration: 0, called: ["c"], joined: true },
      { iteration: 1, called: ["a"], joined: false },
      { iteration: 2, called: ["b", "a"], joined: true },
    ]);
    expect(await rollupSums(t.tenant)).toMatchObject({
      decisions: 4,
      outcomes: 4,
      harmful_drops: 4,
    });
  });

  it("stores an outcome beside the unfinished transaction of its decision, then joins it once that one commits", async () => {
    const t = await tenantWithKey("join-contended");
    const run = "run-contended";
    await t.post([decision(run, 0), outcome(run, 0, ["a"])]);
    // Hold the run's row, so the transaction storing the decision of iteration 1 stops at its
    // last round trip (the runs upsert) while it holds the iteration's join lock.
    const blocker = new pg.Client({ connectionString: inject("databaseUrl") });
    await blocker.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query("SELECT 1 FROM runs WHERE tenant_id = $1 FOR UPDATE", [t.tenant]);
      const blockerPid = (await blocker.query<{ pid: number }>("SELECT pg_backend_pid() AS pid"))
        .rows[0]?.pid as number;
      const first = t.post([decision(run, 1)]);
      // The last round trip: the rollups, the runs upsert and COMMIT.
      await waitForBackend({ by: blockerPid, query: "INSERT INTO rollup_minute" });
      const firstPid = (
        await db.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))",
          [blockerPid],
        )
      ).rows[0]?.pid as number;
      // The outcome's transaction finds the key held: it adds its event id and only then waits
      // for the lock (a statement of its own), instead of waiting at BEGIN; it joins and writes
      // its outcome once it holds the lock.
      const second = t.post([outcome(run, 1, ["b"])]);
      await waitForBackend({ by: firstPid, query: "SELECT pg_advisory_xact_lock(k)" });
      await blocker.query("COMMIT");
      await Promise.all([first, second]);
    } finally {
      await blocker.query("ROLLBACK").catch(() => {});
      await blocker.end();
    }
    expect(await t.decisions()).toEqual([
      { iteration: 0, hop: 0, has_outcome: true, called: ["a"], harmful_tools: [] },
      { iteration: 1, hop: 0, has_outcome: true, called: ["b"], harmful_tools: ["b"] },
    ]);
    expect(await t.outcomes()).toEqual([
      { iteration: 0, called: ["a"], joined: true },
      { iteration: 1, called: ["b"], joined: true },
    ]);
    expect(await rollupSums(t.tenant)).toMatchObject({
      decisions: 2,
      outcomes: 2,
      harmful_drops: 1,
    });
  });

  it("orders harmful tools by code point whichever side of the join stores them", async () => {
    // U+E000 and U+FFFD sort before 😀 (U+1F600) by code point; by UTF-16 code unit after.
    const names = ["😀", "\uFFFD", "b", "\uE000", "A"];
    const byCodePoint = ["A", "b", "\uE000", "\uFFFD", "😀"];
    const event = (runId: string) =>
      decisionEvent({
        run_id: runId,
        iteration: 0,
        offered: ["keep", ...names],
        selected: ["keep"],
      });
    const t = await tenantWithKey("join-order");
    await t.post([event("together"), outcome("together", 0, names)]);
    await t.post([outcome("apart", 0, names)]);
    await t.post([event("apart")]);
    const { rows } = await db.query(
      `SELECT run_id, harmful_tools FROM ${DECISIONS_WITH_OUTCOMES} d WHERE tenant_id = $1 ORDER BY run_id`,
      [t.tenant],
    );
    expect(rows).toEqual([
      { run_id: "apart", harmful_tools: byCodePoint },
      { run_id: "together", harmful_tools: byCodePoint },
    ]);
  });
});

describe("GET /api/ingest/schema", () => {
  it("serves the JSON Schema of the wire format", async () => {
    const response = await fetch(`${baseUrl}/api/ingest/schema`);
    expect(response.status).toBe(200);
    const schema = await response.json();
    expect(JSON.stringify(schema)).toContain("tool_routing_decision");
    expect(JSON.stringify(schema)).toContain("turn_hop_index");
    expect(schema.properties.batch.maxItems).toBe(1000);
  });

  it("documents the timestamp window and the dropped_tokens bound", async () => {
    const schema = await (await fetch(`${baseUrl}/api/ingest/schema`)).json();
    const [decision, outcome] = schema.properties.batch.items.oneOf;
    for (const event of [decision, outcome]) {
      expect(event.properties.timestamp.description).toMatch(
        /Not before 2000-01-01T00:00:00Z and not more than 24 hours ahead of the server clock/,
      );
    }
    expect(decision.properties.dropped_tokens.maximum).toBe(1_000_000_000);
    expect(decision.properties.dropped_tokens.description).toMatch(/at most 1000000000/);
  });
});
