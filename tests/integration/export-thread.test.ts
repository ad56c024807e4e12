/**
 * Where the streamed downloads are written does not change them: a server with its export
 * thread (the default) and one writing downloads in the request's thread
 * (`ROUTELENS_EXPORT_THREAD=false`) answer a run's iterations and the runs list with the same
 * headers and the same bytes, answer 404 alike, and a download cancelled after its first chunk
 * leaves the thread serving the next.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { EXPORT_HEADERS } from "@/lib/dashboard/export-route";
import { createApiKey } from "@/lib/keys";
import { decisionEvent } from "@/lib/telemetry/events";
import { type AppServer, startAppServer } from "@/scripts/lib/app-server";
import { createTestUser, type SignedIn, signedInAs } from "../support/accounts";
import { postBatch } from "../support/http";
import { deleteTenantRows } from "../support/tenant-rows";
import { threadsOf } from "../support/threads";

const databaseUrl = inject("databaseUrl");
const tenant = `export-thread-${Date.now().toString(36)}`;
const run = "run-streamed";
/** More than one batch of the run query (100 rows), the last one partial. */
const DECISIONS = 1_234;
const MODES = {
  thread: {},
  inline: { ROUTELENS_EXPORT_THREAD: "false" },
} as const;
type Mode = keyof typeof MODES;

let db: pg.Client;
const servers = new Map<Mode, { server: AppServer; viewer: SignedIn }>();

beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  // Stored through the shared test server, so neither server below has started any thread.
  const { key } = await createApiKey(tenant);
  const base = Date.now() - 3_600_000;
  for (let start = 0; start < DECISIONS; start += 500) {
    const events = [];
    for (let iteration = start; iteration < Math.min(start + 500, DECISIONS); iteration++) {
      events.push(
        decisionEvent({
          run_id: run,
          iteration,
          timestamp: new Date(base + iteration).toISOString(),
          // Cells a spreadsheet would evaluate, and ones that need quoting.
          role: iteration % 7 === 0 ? " =cmd" : "support, tier 1",
        }),
      );
    }
    const response = await postBatch(inject("baseUrl"), key, events, { gzip: true });
    expect(response.status).toBe(200);
  }
  await postBatch(inject("baseUrl"), key, [decisionEvent({ run_id: "run-other" })]);
  const user = await createTestUser(databaseUrl, { roles: { [tenant]: "viewer" } });
  for (const [mode, env] of Object.entries(MODES) as [Mode, (typeof MODES)[Mode]][]) {
    const server = await startAppServer({ databaseUrl, env });
    servers.set(mode, { server, viewer: await signedInAs(server.baseUrl, user) });
  }
}, 180_000);

afterAll(async () => {
  await Promise.all([...servers.values()].map(({ server }) => server.stop()));
  await deleteTenantRows(db, tenant);
  await db.end();
});

async function download(mode: Mode, path: string) {
  const { viewer } = servers.get(mode) ?? expect.unreachable();
  const response = await viewer.fetch(path);
  return {
    status: response.status,
    headers: Object.fromEntries(
      Object.values(EXPORT_HEADERS).map((name) => [name, response.headers.get(name)]),
    ),
    text: await response.text(),
  };
}

const RUN_PATH = `/api/export/run?tenant=${tenant}&runId=${run}`;
const RUNS_PATH = `/api/export/runs?tenant=${tenant}&range=24h&sort=decisions&dir=desc`;

describe("downloads written in the export thread or in the request's thread", () => {
  it("answer a run's iterations and the runs list with the same headers and bytes", async () => {
    for (const path of [RUN_PATH, RUNS_PATH]) {
      const [thread, inline] = [await download("thread", path), await download("inline", path)];
      expect(thread.status, path).toBe(200);
      expect(thread, path).toEqual(inline);
    }
    const iterations = await download("thread", RUN_PATH);
    const lines = iterations.text.split("\r\n").slice(1, -1);
    expect(lines).toHaveLength(DECISIONS);
    expect(lines.map((line) => Number(line.split(",")[0]))).toEqual(
      Array.from({ length: DECISIONS }, (_, i) => i),
    );
    expect(iterations.headers[EXPORT_HEADERS.rowCount]).toBe(String(DECISIONS));
    expect(iterations.text).toContain(",' =cmd,");
    expect(iterations.text).toContain(',"support, tier 1",');
    const runs = (await download("thread", RUNS_PATH)).text.split("\r\n").slice(1, -1);
    expect(runs.map((line) => line.split(",")[1])).toEqual([run, "run-other"]);
  });

  it("answer 404 alike for a run that does not exist", async () => {
    const path = `/api/export/run?tenant=${tenant}&runId=no-such-run`;
    const [thread, inline] = [await download("thread", path), await download("inline", path)];
    expect(thread.status).toBe(404);
    expect(thread).toEqual(inline);
  });

  it("serve the next download after one cancelled after its first chunk", async () => {
    const { viewer, server } = servers.get("thread") ?? expect.unreachable();
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await viewer.fetch(RUN_PATH);
      const reader = response.body?.getReader() ?? expect.unreachable();
      expect((await reader.read()).done).toBe(false);
      await reader.cancel();
    }
    const next = await download("thread", RUN_PATH);
    expect(next.status).toBe(200);
    expect(next.text.split("\r\n").slice(1, -1)).toHaveLength(DECISIONS);
    // The thread that wrote them runs only where it is on.
    const inline = servers.get("inline") ?? expect.unreachable();
    expect(await threadsOf(server)).toBeGreaterThan(await threadsOf(inline.server));
  });
});
