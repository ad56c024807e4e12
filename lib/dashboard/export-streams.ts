/**
 * Where the streamed downloads (streamed-exports.ts) read their rows and write their CSV: in
 * the export thread (export-thread.ts), or, with `ROUTELENS_EXPORT_THREAD=false` or where that
 * thread cannot start, in the request's own thread.
 *
 * A 20,000-row run export costs the thread that writes it over a second of CPU and some
 * hundreds of megabytes of garbage (reading the rows, the CSV, collecting both); in the export
 * thread none of it stops the main thread, which answers health checks, pages and ingest
 * meanwhile (docs/RELIABILITY.md, "4. Unbounded run export").
 */
import { Worker } from "node:worker_threads";
import { env } from "@/lib/env";
import { ServerThread, THREAD_UNAVAILABLE } from "@/lib/threads/server-thread";
import type { OpenedCsv } from "./export-rows";
import type { ExportReply, ExportRequest, StreamedDownload } from "./export-thread";

/**
 * The export thread as the main thread sees it (a `ServerThread`). A download being written when
 * the thread stops fails (its body ends with an error); the next starts a new thread.
 */
export class ExportThread {
  private readonly thread: ServerThread<ExportRequest, ExportReply>;

  constructor(start: () => Worker) {
    this.thread = new ServerThread({
      name: "export thread",
      fallback: "writing downloads in the request thread",
      start,
    });
  }

  /**
   * Opens `download` in the thread: null when it names nothing (404). Where the thread is
   * unavailable, `inThread` opens it here instead.
   */
  async open(
    download: StreamedDownload,
    inThread: () => Promise<OpenedCsv | null>,
  ): Promise<OpenedCsv | null> {
    const worker = await this.thread.running();
    if (worker === THREAD_UNAVAILABLE) return inThread();
    const stream = this.thread.nextId();
    const opened = await this.thread.ask(worker, { op: "open", id: stream, stream, ...download });
    if (!("total" in opened)) throw this.thread.unexpected(opened);
    if (opened.total === null) return null;
    // For headers only, the thread has already let go of the download.
    const chunks = download.headersOnly ? noChunks() : this.chunks(worker, stream);
    return { total: opened.total, chunks };
  }

  /** The download's chunks, each asked for when the body wants it. */
  private async *chunks(worker: Worker, stream: number): AsyncGenerator<Uint8Array, void> {
    let finished = false;
    try {
      for (;;) {
        const reply = await this.thread.ask(worker, {
          op: "next",
          id: this.thread.nextId(),
          stream,
        });
        if ("done" in reply) {
          finished = true;
          return;
        }
        if (!("chunk" in reply)) throw this.thread.unexpected(reply);
        yield reply.chunk;
      }
    } finally {
      // Ended early (cancelled, stalled, failed): the thread lets go of the download's rows.
      if (!finished) this.thread.tell(worker, { op: "close", id: this.thread.nextId(), stream });
    }
  }
}

async function* noChunks(): AsyncGenerator<Uint8Array, void, undefined> {}

let exportThread: ExportThread | undefined;

/**
 * Opens a streamed download where this process writes them: in its export thread (started on
 * first use) unless `ROUTELENS_EXPORT_THREAD` is false, otherwise with `inThread`.
 */
export function openStreamedDownload(
  download: StreamedDownload,
  inThread: () => Promise<OpenedCsv | null>,
): Promise<OpenedCsv | null> {
  if (!env().ROUTELENS_EXPORT_THREAD) return inThread();
  exportThread ??= new ExportThread(
    () =>
      new Worker(new URL("./export-thread.ts", import.meta.url), {
        // Its own connections: one per download streaming at once, and as many again for
        // downloads cancelled while a query of theirs still runs.
        env: { ...process.env, DATABASE_POOL_MAX: String(2 * env().ROUTELENS_EXPORT_STREAMS) },
      }),
  );
  return exportThread.open(download, inThread);
}
