import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ALL_TENANTS } from "@/lib/auth/scope";
import type { OpenedCsv } from "./export-rows";
import { ExportThread } from "./export-streams";
import type { StreamedDownload } from "./export-thread";

/**
 * A stand-in for the export thread that speaks its protocol (export-thread.ts) over a download
 * of `chunks` lines; the real thread needs a database and is tested over HTTP
 * (tests/integration/export-thread.test.ts). It posts every request it gets back as `seen`.
 */
function standIn(chunks: string[]): Worker {
  return new Worker(
    `const { parentPort } = require("node:worker_threads");
     const chunks = ${JSON.stringify(chunks)};
     const read = new Map();
     parentPort.on("message", (request) => {
       parentPort.postMessage({ id: -1, seen: request.op });
       if (request.op === "open") {
         read.set(request.stream, 0);
         parentPort.postMessage({ id: request.id, total: chunks.length });
       } else if (request.op === "next") {
         const at = read.get(request.stream);
         read.set(request.stream, at + 1);
         parentPort.postMessage(
           at < chunks.length
             ? { id: request.id, chunk: new TextEncoder().encode(chunks[at]) }
             : { id: request.id, done: true },
         );
       }
     });
     parentPort.postMessage({ ready: true });`,
    { eval: true },
  );
}

const download: StreamedDownload = {
  name: "run",
  search: { tenant: "acme", runId: "r1" },
  now: new Date(),
  scope: ALL_TENANTS,
  limit: 10,
  headersOnly: false,
};

const notHere = async (): Promise<OpenedCsv | null> => {
  throw new Error("opened in the request thread");
};

async function text(opened: OpenedCsv | null): Promise<string> {
  let out = "";
  for await (const chunk of opened?.chunks ?? []) out += new TextDecoder().decode(chunk);
  return out;
}

const workers: Worker[] = [];
function started(worker: Worker): Worker {
  workers.push(worker);
  return worker;
}
/** A started stand-in and the requests it has been sent, in order. */
function watched(worker: Worker): { worker: Worker; seen: string[] } {
  const seen: string[] = [];
  worker.on("message", (message: { seen?: string }) => {
    if (message.seen) seen.push(message.seen);
  });
  return { worker: started(worker), seen };
}

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.terminate()));
  vi.restoreAllMocks();
});

describe("ExportThread", () => {
  it("reads a download's chunks from the thread, in order, until it is done", async () => {
    const thread = new ExportThread(() => started(standIn(["h\r\n", "1\r\n", "2\r\n"])));
    const opened = await thread.open(download, notHere);
    expect(opened?.total).toBe(3);
    expect(await text(opened)).toBe("h\r\n1\r\n2\r\n");
  });

  it("tells the thread to let go of a download ended early", async () => {
    const { worker, seen } = watched(standIn(["h\r\n", "1\r\n"]));
    const thread = new ExportThread(() => worker);
    const opened = await thread.open(download, notHere);
    await opened?.chunks.next();
    await opened?.chunks.return();
    await vi.waitFor(() => expect(seen).toEqual(["open", "next", "close"]));
  });

  it("asks only for the count of a download for its headers, which the thread does not keep", async () => {
    const { worker, seen } = watched(standIn(["h\r\n", "1\r\n"]));
    const thread = new ExportThread(() => worker);
    const opened = await thread.open({ ...download, headersOnly: true }, notHere);
    expect(opened?.total).toBe(2);
    expect(await text(opened)).toBe("");
    expect(seen).toEqual(["open"]);
  });

  it("opens downloads in the request's thread when the thread cannot start", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const thread = new ExportThread(() => started(new Worker("process.exit(3)", { eval: true })));
    const here = { total: 0, chunks: (async function* () {})() };
    expect(await thread.open(download, async () => here)).toBe(here);
    expect(error).toHaveBeenCalledWith(expect.stringContaining("before it started"));
  });

  it("fails a download whose thread stops, and starts a new thread for the next", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const thread = new ExportThread(() => started(standIn(["h\r\n", "1\r\n"])));
    const first = await thread.open(download, notHere);
    expect((await first?.chunks.next())?.done).toBe(false);
    await workers[0]?.terminate();
    await expect(first?.chunks.next()).rejects.toThrow(/export thread stopped/);
    expect(await text(await thread.open(download, notHere))).toBe("h\r\n1\r\n");
    expect(workers).toHaveLength(2);
  });
});
