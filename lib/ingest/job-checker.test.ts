import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openTraceExport } from "@/lib/otlp/decode";
import { mapExport } from "@/lib/otlp/mapped-export";
import { decisionEvent, outcomeEvent } from "@/lib/telemetry/events";
import { checkBatch, parseBatch } from "./batch-check";
import { CheckThread, checkInThread, type JobChecker } from "./job-checker";
import { RequestRejected } from "./request";

const noWait = async () => {};
const body = (batch: unknown[]) => Buffer.from(JSON.stringify({ batch }));

/** The real checking thread's code, loaded through tsx as the build would bundle it. */
function startCheckThread(): Worker {
  const entry = new URL("./check-thread.ts", import.meta.url).href;
  return new Worker(
    `import("tsx/esm/api").then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`,
    { eval: true },
  );
}

const LISTS = [
  ["search_docs", "send_email", "read_file"],
  ["search_docs", "read_file"],
];

function mixedBatch(): unknown[] {
  return [
    decisionEvent({ event_id: "d-0", offered: LISTS[0], selected: ["read_file"], trace: [] }),
    { ...decisionEvent({ event_id: "d-bad" }), iteration: -1 },
    decisionEvent({ event_id: "d-1", offered: LISTS[1], selected: [], trace: [] }),
    outcomeEvent({ event_id: "o-0", called: ["read_file"] }),
    decisionEvent({ event_id: "d-2", offered: [...(LISTS[0] ?? [])], selected: [], trace: [] }),
    decisionEvent({ event_id: "d-other", tenant_id: "globex" }),
  ];
}

describe("checkBatch", () => {
  it("answers the good events' rows and the others' errors, each with its place in the batch", async () => {
    const checked = await checkBatch(mixedBatch(), "acme", noWait);
    expect(checked.accepted.map((a) => [a.index, a.item.kind, a.item.row.event_id])).toEqual([
      [0, "decision", "d-0"],
      [2, "decision", "d-1"],
      [3, "outcome", "o-0"],
      [4, "decision", "d-2"],
    ]);
    expect(checked.errors.map((e) => [e.index, e.status])).toEqual([
      [1, 400],
      [5, 403],
    ]);
  });

  it("gives decisions offering the same list one array of its names", async () => {
    const { accepted } = await checkBatch(mixedBatch(), "acme", noWait);
    const offered = (id: string) =>
      accepted.find((a) => a.item.row.event_id === id)?.item.row as { offered: string[] };
    expect(offered("d-2").offered).toBe(offered("d-0").offered);
    expect(offered("d-1").offered).not.toBe(offered("d-0").offered);
    expect(offered("d-2").offered).toEqual(LISTS[0]);
  });

  it("yields between slices of a long batch", async () => {
    const turn = vi.fn(noWait);
    // Refused events with 1,000-item lists take far longer than a slice to explain.
    const slow = Array.from({ length: 40 }, (_, i) => ({
      ...decisionEvent({ event_id: `slow-${i}` }),
      offered: Array.from({ length: 1_000 }, (_, n) => n),
    }));
    const { errors } = await checkBatch(slow, "acme", turn);
    expect(errors).toHaveLength(40);
    expect(turn).toHaveBeenCalled();
  });
});

describe("parseBatch", () => {
  it("refuses a body that is not a batch envelope", async () => {
    await expect(parseBatch(Buffer.from("[1, 2]"), noWait)).rejects.toMatchObject({
      status: 400,
    });
  });
});

describe.each<[string, () => { checker: JobChecker; stop: () => Promise<void> }]>([
  ["in the request's thread", () => ({ checker: checkInThread, stop: async () => {} })],
  [
    "in the checking thread",
    () => {
      let worker: Worker | undefined;
      const thread = new CheckThread(() => {
        worker = startCheckThread();
        return worker;
      });
      return { checker: thread.checker, stop: async () => void (await worker?.terminate()) };
    },
  ],
])("checking %s", (_, make) => {
  let stop = async () => {};
  afterEach(() => stop());

  it("counts a batch, then answers what checkBatch answers", async () => {
    const made = make();
    stop = made.stop;
    const batch = mixedBatch();
    const parsed = await made.checker({ kind: "ingest", body: body(batch) }, "acme", noWait);
    expect(parsed.count).toBe(6);
    const checked = await parsed.finish();
    expect(checked).toEqual(await checkBatch(batch, "acme", noWait));
    // Decisions offering one list still share its array once checked, in either thread.
    const offered = checked.accepted.flatMap((a) =>
      a.item.kind === "decision" ? [a.item.row.offered] : [],
    );
    expect(offered[2]).toEqual(LISTS[0]);
    expect(offered[2]).toBe(offered[0]);
  });

  it("refuses a malformed body and a batch over the limit with their statuses", async () => {
    const made = make();
    stop = made.stop;
    const malformed = made.checker(
      { kind: "ingest", body: Buffer.from('{"batch": [}') },
      "acme",
      noWait,
    );
    await expect(malformed).rejects.toBeInstanceOf(RequestRejected);
    await expect(malformed).rejects.toMatchObject({ status: 400 });
    const long = made.checker(
      { kind: "ingest", body: body(Array.from({ length: 1_001 }, () => ({}))) },
      "acme",
      noWait,
    );
    await expect(long).rejects.toMatchObject({ status: 413 });
  });

  it("checks a batch it was given after one it dropped", async () => {
    const made = make();
    stop = made.stop;
    const dropped = await made.checker(
      { kind: "ingest", body: body(mixedBatch()) },
      "acme",
      noWait,
    );
    dropped.drop();
    const parsed = await made.checker(
      { kind: "ingest", body: body([decisionEvent({ event_id: "after" })]) },
      "acme",
      noWait,
    );
    const { accepted } = await parsed.finish();
    expect(accepted.map((a) => a.item.row.event_id)).toEqual(["after"]);
  });

  it("opens an OTLP export, counts its spans, then answers its spans mapped", async () => {
    const made = make();
    stop = made.stop;
    const fixture = new URL("../../tests/fixtures/otlp/ai-sdk-genai.json", import.meta.url);
    const export_ = () => new Uint8Array(readFileSync(fixture));
    const opened = await made.checker(
      { kind: "otlp", encoding: "json", body: export_() },
      "acme",
      noWait,
    );
    const exported = openTraceExport(export_(), "json");
    expect(opened.count).toBe(exported.spanCount);
    const mapped = await opened.finish();
    expect(mapped).toEqual(await mapExport(exported, noWait));
    expect(mapped.spans.filter((s) => s.kind === "llm_call")).toHaveLength(3);
    const refused = made.checker(
      { kind: "otlp", encoding: "protobuf", body: new Uint8Array([0x0a, 0xff]) },
      "acme",
      noWait,
    );
    await expect(refused).rejects.toMatchObject({ status: 400 });
  });

  it("reads a body that shares its memory with other bytes", async () => {
    const made = make();
    stop = made.stop;
    const text = JSON.stringify({ batch: [decisionEvent({ event_id: "inside" })] });
    const pool = Buffer.from(`xxxx${text}yyyy`);
    const inner = pool.subarray(4, 4 + text.length);
    const { accepted } = await (
      await made.checker({ kind: "ingest", body: inner }, "acme", noWait)
    ).finish();
    expect(accepted.map((a) => a.item.row.event_id)).toEqual(["inside"]);
    // The caller's bytes are left as they were.
    expect(pool.toString()).toBe(`xxxx${text}yyyy`);
  });
});

describe("CheckThread", () => {
  it("checks in the request's thread when the thread cannot start", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const thread = new CheckThread(() => new Worker("process.exit(3)", { eval: true }));
    const parsed = await thread.checker(
      { kind: "ingest", body: body([decisionEvent({ event_id: "here" })]) },
      "acme",
      noWait,
    );
    const { accepted } = await parsed.finish();
    expect(accepted.map((a) => a.item.row.event_id)).toEqual(["here"]);
    expect(error).toHaveBeenCalledWith(expect.stringContaining("before it started"));
    error.mockRestore();
  });

  it("forgets a dropped job: the thread holds nothing for it", async () => {
    const worker = startCheckThread();
    const thread = new CheckThread(() => worker);
    const dropped = await thread.checker(
      { kind: "ingest", body: body(mixedBatch()) },
      "acme",
      noWait,
    );
    dropped.drop();
    await expect(dropped.finish()).rejects.toThrow(/No opened job/);
    await worker.terminate();
  });

  it("fails the requests in a thread that stops, and starts a new one for the next", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const workers: Worker[] = [];
    const thread = new CheckThread(() => {
      const worker = startCheckThread();
      workers.push(worker);
      return worker;
    });
    const parsed = await thread.checker(
      { kind: "ingest", body: body(mixedBatch()) },
      "acme",
      noWait,
    );
    await workers[0]?.terminate();
    await expect(parsed.finish()).rejects.toThrow(/checking thread stopped/);
    const again = await thread.checker(
      { kind: "ingest", body: body(mixedBatch()) },
      "acme",
      noWait,
    );
    expect((await again.finish()).accepted).toHaveLength(4);
    expect(workers).toHaveLength(2);
    await workers[1]?.terminate();
    error.mockRestore();
  });
});
