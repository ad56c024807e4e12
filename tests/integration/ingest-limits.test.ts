/**
 * The ingest route's bounds against hostile and broken requests, over real HTTP on a real
 * PostgreSQL: the size of an error report, the batch limit counted before parsing, the bytes
 * parsed at once, encodings, and the throttling of wrong API keys per client address.
 *
 * Uses its own server (on the run's database) so that it can lower the parse budget, trust
 * one proxy hop (X-Forwarded-For names the client, so tests can speak from several addresses)
 * and throttle addresses without touching the shared server other tests use.
 */
import http from "node:http";
import { gzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFUSAL_HOLD_MS, REFUSALS_SENT_AT_ONCE } from "@/lib/ingest/auth-throttle";
import { BUSY_HOLD_MS } from "@/lib/ingest/busy-holds";
import { createApiKey } from "@/lib/keys";
import { ingestRefusalSchema, ingestResponseSchema } from "@/lib/schemas/ingest";
import { decisionEvent } from "@/lib/telemetry/events";
import { type AppServer, startAppServer } from "@/scripts/lib/app-server";
import { amplificationBatch, emptyObjectsBody } from "@/scripts/lib/hostile-ingest-bodies";

// A tenant may hold half of it: 6 MiB, room for the 5 MiB bodies the other tests send.
const PARSE_MIB = 12;
const MiB = 1024 * 1024;
let app: AppServer;
let db: pg.Client;
let key: string;
const tenant = `limits-${Date.now()}`;

beforeAll(async () => {
  app = await startAppServer({
    databaseUrl: process.env.DATABASE_URL ?? "",
    env: { ROUTELENS_TRUST_PROXY: "1", ROUTELENS_INGEST_PARSE_MIB: String(PARSE_MIB) },
  });
  db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  key = (await createApiKey(tenant)).key;
});

afterAll(async () => {
  await db?.end();
  await app?.stop();
});

let nextAddress = 1;
/** A client address of its own for each test, so throttling in one cannot touch another. */
const freshAddress = () => `198.51.100.${nextAddress++}`;

async function post(
  body: string | Uint8Array<ArrayBuffer>,
  {
    apiKey = key as string | null,
    from = "192.0.2.1",
    headers = {} as Record<string, string>,
  } = {},
): Promise<Response> {
  return fetch(`${app.baseUrl}/api/ingest`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Forwarded-For": from,
      ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}),
      ...headers,
    },
    body,
  });
}

const gzip = (text: string) => new Uint8Array(gzipSync(text));
const batchJson = (events: unknown[]) => JSON.stringify({ batch: events });

async function storedDecisions(runId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM decisions WHERE tenant_id = $1 AND run_id = $2",
    [tenant, runId],
  );
  return rows[0]?.n ?? 0;
}

describe("POST /api/ingest: bounded error report", () => {
  it("answers a batch of 1,000 events with 1,000 wrong items each in at most 64 kB", async () => {
    const response = await post(gzip(amplificationBatch()), {
      headers: { "Content-Encoding": "gzip", "Accept-Encoding": "gzip" },
    });
    expect(response.status).toBe(207);
    // Sent as it is, though the client takes gzip: the server does not spend its main thread
    // compressing ingest answers (lib/ingest/admission.ts, INGEST_CACHE_CONTROL).
    expect(response.headers.get("Content-Encoding")).toBeNull();
    expect(response.headers.get("Cache-Control")).toBe("no-store, no-transform");
    const text = await response.text();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(64 * 1024);
    const body = ingestResponseSchema.parse(JSON.parse(text));
    expect(body.successes).toEqual([]);
    expect(body.errors).toHaveLength(30);
    expect(body.errors[0]).toEqual({
      id: "amplify-0",
      index: 0,
      status: 400,
      message: `${["offered[0]", "offered[1]", "offered[2]", "offered[3]", "selected[0]"].map((path) => `batch[0].${path}: expected string, received number`).join("; ")}; and more (first 5 shown)`,
    });
    expect(body.errors.map((e) => e.index)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(body.elided_errors).toEqual({
      count: 970,
      indexes: Array.from({ length: 970 }, (_, i) => i + 30),
      by_rule: [
        {
          status: 400,
          path: "batch[*].offered[*]",
          rule: "expected string, received number",
          events: 970,
        },
        {
          status: 400,
          path: "batch[*].selected[*]",
          rule: "expected string, received number",
          events: 970,
        },
      ],
    });
    expect(await storedDecisions("amplify")).toBe(0);
  });

  it("stores the valid events of a batch whose errors are elided and names the rest", async () => {
    const runId = `run-mixed-${Date.now()}`;
    const events = Array.from({ length: 100 }, (_, i) =>
      i % 2 === 0
        ? decisionEvent({ run_id: runId, iteration: i })
        : { ...decisionEvent({ run_id: runId, iteration: i }), mode: "shadow" },
    );
    const response = await post(batchJson(events));
    expect(response.status).toBe(207);
    const body = ingestResponseSchema.parse(await response.json());
    expect(body.successes).toHaveLength(50);
    expect(body.errors).toHaveLength(30);
    expect(body.elided_errors?.count).toBe(20);
    const rejected = [...body.errors.map((e) => e.index), ...(body.elided_errors?.indexes ?? [])];
    expect(rejected).toEqual(Array.from({ length: 50 }, (_, i) => 2 * i + 1));
    expect(body.elided_errors?.by_rule).toEqual([
      expect.objectContaining({ status: 400, path: "batch[*].mode", events: 20 }),
    ]);
    expect(await storedDecisions(runId)).toBe(50);
  });
});

describe("POST /api/ingest: batch and body limits", () => {
  it("accepts exactly 1,000 events and refuses 1,001 with 413, storing none of them", async () => {
    const runId = `run-thousand-${Date.now()}`;
    const thousand = Array.from({ length: 1000 }, (_, i) =>
      decisionEvent({ run_id: runId, iteration: i }),
    );
    const accepted = await post(gzip(batchJson(thousand)), {
      headers: { "Content-Encoding": "gzip" },
    });
    expect(accepted.status).toBe(200);
    expect(ingestResponseSchema.parse(await accepted.json()).successes).toHaveLength(1000);
    expect(await storedDecisions(runId)).toBe(1000);

    const overRun = `run-thousand-one-${Date.now()}`;
    const tooMany = Array.from({ length: 1001 }, (_, i) =>
      decisionEvent({ run_id: overRun, iteration: i }),
    );
    const refused = await post(batchJson(tooMany));
    expect(refused.status).toBe(413);
    expect(ingestRefusalSchema.parse(await refused.json()).error).toBe(
      "batch has more than 1000 events; at most 1000 per request.",
    );
    expect(await storedDecisions(overRun)).toBe(0);
  });

  it("refuses a 5 MiB body of {} items (5 kB gzipped) with 413", async () => {
    const body = gzip(emptyObjectsBody());
    expect(body.byteLength).toBeLessThan(10_000);
    const response = await post(body, { headers: { "Content-Encoding": "gzip" } });
    expect(response.status).toBe(413);
    expect((await response.json()).error).toBe(
      "batch has more than 1000 events; at most 1000 per request.",
    );
  });

  it("paces a tenant's further 413s: the next one within a second is held for about a second", async () => {
    // A tenant of its own: no earlier refusal of another test paces its first one.
    const { key: apiKey } = await createApiKey(`paced-${Date.now()}`);
    const body = gzip(emptyObjectsBody());
    const first = await post(body, { apiKey, headers: { "Content-Encoding": "gzip" } });
    expect(first.status).toBe(413);
    await first.arrayBuffer();
    const started = performance.now();
    const again = await post(body, { apiKey, headers: { "Content-Encoding": "gzip" } });
    expect(again.status).toBe(413);
    await again.arrayBuffer();
    // Held half to one and a half times BUSY_HOLD_MS, at random (lib/ingest/busy-holds.ts).
    expect(performance.now() - started).toBeGreaterThanOrEqual(BUSY_HOLD_MS / 2 - 10);
  });

  it("answers 415 for an unsupported Content-Encoding and 400 for corrupt gzip", async () => {
    const event = decisionEvent();
    const brotli = await post(batchJson([event]), { headers: { "Content-Encoding": "br" } });
    expect(brotli.status).toBe(415);
    expect((await brotli.json()).error).toBe(
      'Content-Encoding must be gzip or identity (got "br").',
    );
    const valid = gzip(batchJson([event]));
    const corrupt = new Uint8Array(valid);
    corrupt.fill(0x41, 10, valid.byteLength - 8);
    const broken = await post(corrupt, { headers: { "Content-Encoding": "gzip" } });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error).toBe("Body is marked gzip but is not valid gzip data.");
    const truncated = await post(valid.slice(0, valid.byteLength - 12), {
      headers: { "Content-Encoding": "gzip" },
    });
    expect(truncated.status).toBe(400);
    expect(await storedDecisions(event.run_id)).toBe(0);
  });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A POST on a connection of its own, whose body is sent in two parts: `first` now, the rest
 * on `finish`.
 */
function openPost(
  first: string,
  apiKey: string = key,
): {
  finish(rest?: string): void;
  /**
   * The answer, once it has been read whole and the request has been written whole: a broken
   * pipe or a reset while the sender is still writing rejects it, even after an early answer.
   */
  answer: Promise<Answer>;
  /** Settles once `first` has been handed to the connection. */
  written: Promise<void>;
} {
  // A connection of its own, kept alive as real clients keep theirs: a server answering a
  // request that asked to close the connection closes it once the answer is sent, read or not.
  const agent = new http.Agent({ keepAlive: true });
  const request = http.request(`${app.baseUrl}/api/ingest`, {
    method: "POST",
    agent,
    headers: {
      "Content-Type": "application/json",
      Authorization: `Bearer ${apiKey}`,
      "X-Forwarded-For": "192.0.2.50",
    },
  });
  const failed = new Promise<never>((_, reject) => request.on("error", reject));
  const read = new Promise<Answer>((resolve) => {
    request.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
  });
  const sent = new Promise<void>((resolve) => request.on("finish", resolve));
  const answer = Promise.race([
    failed,
    Promise.all([read, sent]).then(([answered]) => answered),
  ]).finally(() => agent.destroy());
  // A test that fails before awaiting the answer must not leave a rejection nobody handles.
  answer.catch(() => {});
  const written = new Promise<void>((resolve) => request.write(first, () => resolve()));
  return { finish: (rest = "") => request.end(rest), answer, written };
}

/**
 * A whole POST on a connection of its own, its second half sent a fifth of a second after the
 * first: a refusal that comes while the first half is read is answered while the sender still
 * has bytes to write, and the server must read them rather than close the connection under it.
 */
async function postAlone(body: string, apiKey: string = key) {
  const half = Math.floor(body.length / 2);
  const post = openPost(body.slice(0, half), apiKey);
  await post.written;
  await new Promise((resolve) => setTimeout(resolve, 200));
  post.finish(body.slice(half));
  return post.answer;
}

describe("POST /api/ingest: bytes parsed at once", () => {
  /** A body of about `mib` MiB that stores nothing; `open` leaves out its last two characters. */
  const padded = (mib: number, fill: string) =>
    JSON.stringify({ batch: [], pad: fill.repeat(Math.round(mib * MiB)) });
  const open = (text: string) => text.slice(0, -2);

  /** Sends `body` until it is refused with 503 (the held requests' bytes have arrived). */
  async function untilBusy(body: string, apiKey: string) {
    for (let attempt = 0; attempt < 100; attempt++) {
      const answer = await postAlone(body, apiKey);
      if (answer.status === 503) return answer;
      expect(answer.status, answer.body).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return null;
  }

  it("answers 503 with Retry-After while other tenants' requests hold the parse budget, then recovers", async () => {
    // Two tenants each hold 4.5 MiB of a body open (each within its share, half of 12 MiB); a
    // third tenant's 3.5 MiB would take the process past its 12 MiB budget.
    const [keyB, keyC] = await Promise.all([
      createApiKey(`${tenant}-b`).then((k) => k.key),
      createApiKey(`${tenant}-c`).then((k) => k.key),
    ]);
    const heldA = openPost(open(padded(4.5, "a")));
    const heldB = openPost(open(padded(4.5, "b")), keyB);
    // The third request must not arrive while the held bodies are still arriving: whichever
    // bytes come last past the budget are the ones refused, and they could be a held body's.
    await Promise.all([heldA.written, heldB.written]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const third = padded(3.5, "c");
    const busy = await untilBusy(third, keyC);
    expect(busy?.status).toBe(503);
    expect(busy?.headers["retry-after"]).toBe("1");
    expect(JSON.parse(busy?.body ?? "{}").error).toBe(
      `The server is busy reading other ingest requests (more than ${PARSE_MIB} MiB at once); nothing was stored. Retry after 1 s.`,
    );
    heldA.finish('"}');
    heldB.finish('"}');
    expect((await heldA.answer).status).toBe(200);
    expect((await heldB.answer).status).toBe(200);
    expect((await postAlone(third, keyC)).status).toBe(200);
  });

  it("refuses a tenant past its half of the budget with 503, and another tenant's request is not refused", async () => {
    const keyB = (await createApiKey(`${tenant}-fair`)).key;
    // Tenant A holds 4.5 MiB open; a second 4.5 MiB body of A's would fit in the process's 12 MiB
    // but not in A's 6 MiB share.
    const held = openPost(open(padded(4.5, "a")));
    // A's probe must not arrive while the held body is still arriving: both count against A's
    // share, and the held body's last bytes would then be the ones refused.
    await held.written;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const busy = await untilBusy(padded(4.5, "x"), key);
    expect(busy?.status).toBe(503);
    expect(busy?.headers["retry-after"]).toBe("1");
    expect(JSON.parse(busy?.body ?? "{}").error).toMatch(
      new RegExp(
        `^This API key's tenant already has \\d+(\\.\\d)? MiB of ingest bodies being read; a tenant may hold at most 6 MiB at once \\(half of the server's ${PARSE_MIB} MiB\\); nothing was stored\\. Retry after 1 s\\.$`,
      ),
    );
    // While A holds its share, tenant B's 4.5 MiB body is read and answered.
    expect((await postAlone(padded(4.5, "b"), keyB)).status).toBe(200);
    expect((await postAlone(JSON.stringify({ batch: [decisionEvent()] }), keyB)).status).toBe(200);
    held.finish('"}');
    expect((await held.answer).status).toBe(200);
  });
});

describe("POST /api/ingest: wrong API keys throttled per client address", () => {
  it("answers 429 with Retry-After after a burst of 401s, while valid keys keep working", async () => {
    const attacker = freshAddress();
    const neighbour = freshAddress();
    // The valid key has worked from this address before the burst.
    expect((await post(batchJson([decisionEvent()]), { from: attacker })).status).toBe(200);

    const statuses: number[] = [];
    let throttled: Response | null = null;
    for (let i = 0; i < 30; i++) {
      const response = await post('{"batch":[]}', { apiKey: `rl_wrong-${i}`, from: attacker });
      statuses.push(response.status);
      if (response.status === 429) throttled ??= response;
      else await response.arrayBuffer();
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual(Array(10).fill(429));
    const retryAfter = Number(throttled?.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect((await throttled?.json())?.error).toBe(
      `Too many requests with a missing or wrong API key from this address; retry after ${retryAfter} s.`,
    );

    // A key that works from the throttled address and from any other address.
    const mine = decisionEvent();
    expect((await post(batchJson([mine]), { from: attacker })).status).toBe(200);
    expect((await post(batchJson([decisionEvent()]), { from: neighbour })).status).toBe(200);
    // Another address is not throttled: its wrong key still gets 401.
    expect((await post('{"batch":[]}', { apiKey: "rl_wrong", from: neighbour })).status).toBe(401);
    // A missing key, and an entry the client prepended to X-Forwarded-For, do not get past it.
    expect((await post('{"batch":[]}', { apiKey: null, from: attacker })).status).toBe(429);
    expect(
      (await post('{"batch":[]}', { apiKey: "rl_wrong", from: `10.9.9.9, ${attacker}` })).status,
    ).toBe(429);
    const { rows } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM decisions WHERE event_id = $1",
      [mine.event_id],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it("holds each further 429 of an address that keeps sending, while a valid key from it is answered", async () => {
    const attacker = freshAddress();
    const mine = decisionEvent();
    expect((await post(batchJson([decisionEvent()]), { from: attacker })).status).toBe(200);
    for (let i = 0; i < 20; i++) {
      const response = await post('{"batch":[]}', { apiKey: `rl_hold-${i}`, from: attacker });
      expect(response.status).toBe(401);
      await response.arrayBuffer();
    }
    // The first 429s tell the address to wait; they are sent at once.
    for (let i = 0; i < REFUSALS_SENT_AT_ONCE; i++) {
      const told = await post('{"batch":[]}', { apiKey: `rl_hold-told-${i}`, from: attacker });
      expect(told.status).toBe(429);
      await told.arrayBuffer();
    }

    // Three more, sent without waiting: each is held before it is answered. Meanwhile a valid
    // key from the same address is answered and stored.
    const order: string[] = [];
    const sentAt = performance.now();
    const held = Array.from({ length: 3 }, (_, i) =>
      post('{"batch":[]}', { apiKey: `rl_hold-again-${i}`, from: attacker }).then(
        async (response) => {
          order.push("held");
          const waited = performance.now() - sentAt;
          return { response, body: await response.json(), waited };
        },
      ),
    );
    const valid = await post(batchJson([mine]), { from: attacker });
    order.push("valid");
    expect(valid.status).toBe(200);
    for (const { response, body, waited } of await Promise.all(held)) {
      expect(response.status).toBe(429);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(body.error).toMatch(/^Too many requests with a missing or wrong API key/);
      // A lower bound only: the server held the answer for at least this long.
      expect(waited).toBeGreaterThanOrEqual(REFUSAL_HOLD_MS - 5);
    }
    expect(order).toEqual(["valid", "held", "held", "held"]);
    const { rows } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM decisions WHERE event_id = $1",
      [mine.event_id],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it("makes a valid key that never worked from a throttled address wait too", async () => {
    const attacker = freshAddress();
    for (let i = 0; i < 20; i++) {
      const response = await post('{"batch":[]}', { apiKey: `rl_guess-${i}`, from: attacker });
      expect(response.status).toBe(401);
      await response.arrayBuffer();
    }
    const fresh = (await createApiKey(tenant)).key;
    const response = await post(batchJson([decisionEvent()]), { apiKey: fresh, from: attacker });
    expect(response.status).toBe(429);
    expect(
      (await post(batchJson([decisionEvent()]), { apiKey: fresh, from: freshAddress() })).status,
    ).toBe(200);
  });
});

describe("POST /api/ingest: one tenant's batches checked one at a time", () => {
  it("lets a tenant's concurrent batches wait their turn: every one answered 200 and stored once", async () => {
    const runId = `line-${Date.now()}`;
    const batches = Array.from({ length: 8 }, () =>
      Array.from({ length: 50 }, () => decisionEvent({ run_id: runId })),
    );
    const answers = await Promise.all(
      batches.map((events) => post(batchJson(events), { from: freshAddress() })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(await storedDecisions(runId)).toBe(400);
  });
});
