/**
 * The export thread: a worker thread of the server that reads the streamed downloads' rows
 * (streamed-exports.ts: a run's iterations, the runs list) with database connections of its
 * own and writes their CSV, so that the server's main thread — which answers every request,
 * health check and ingest batch — only hands the bytes on. Its garbage is collected in its own
 * heap, without stopping the main thread. `export-streams.ts` starts it and speaks to it:
 * `open` loads a download and answers how many rows match, or that there is no such thing (for
 * a `HEAD` request that is all); then each `next` answers the next chunk of CSV, the header
 * line first, each read one ahead of its `next` and handed over without a copy, until `done`;
 * `close` ends a download early (the client went away).
 */

import type { TenantScope } from "@/lib/auth/scope";
import { type Answer, answerRequests, failureText } from "@/lib/threads/server-thread";
import { STREAMED_EXPORTS, type StreamedExportName } from "./streamed-exports";

/** What a download asks the export thread for. */
export interface StreamedDownload {
  name: StreamedExportName;
  /** The query as its route read it. */
  search: unknown;
  now: Date;
  scope: TenantScope;
  limit: number;
  /** A `HEAD` request: only the count of rows is wanted, no CSV. */
  headersOnly: boolean;
}

export type ExportRequest =
  | ({ op: "open"; id: number; stream: number } & StreamedDownload)
  | { op: "next"; id: number; stream: number }
  | { op: "close"; id: number; stream: number };

export type ExportReply =
  | { id: number; total: number | null }
  | { id: number; chunk: Uint8Array }
  | { id: number; done: true }
  | { id: number; failed: string };

type Chunks = AsyncGenerator<Uint8Array, void, undefined>;

/**
 * An open download: its CSV chunks, and the next one already being read, so that the thread
 * reads and writes a batch while the main thread sends the one before.
 */
interface OpenDownload {
  chunks: Chunks;
  ahead: Promise<IteratorResult<Uint8Array, void>>;
}

/** Open downloads by stream id. */
const streams = new Map<number, OpenDownload>();

/** Starts reading the next chunk; a failure is answered to the `next` that asks for it. */
function readAhead(chunks: Chunks): Promise<IteratorResult<Uint8Array, void>> {
  const ahead = chunks.next();
  ahead.catch(() => {});
  return ahead;
}

async function answer(request: ExportRequest): Promise<Answer<ExportReply>> {
  const { id, stream } = request;
  if (request.op === "open") {
    const { name, search, now, scope, limit, headersOnly } = request;
    const opened = await STREAMED_EXPORTS[name](search, now, scope, limit);
    // A download for its headers only is answered its count and not kept.
    if (opened && !headersOnly) {
      streams.set(stream, { chunks: opened.chunks, ahead: readAhead(opened.chunks) });
    }
    return { reply: { id, total: opened ? opened.total : null } };
  }
  const download = streams.get(stream);
  if (request.op === "close") {
    streams.delete(stream);
    await download?.chunks.return();
    return null;
  }
  if (!download) return { reply: { id, failed: `No open download ${stream}.` } };
  const next = await download.ahead;
  if (next.done) {
    streams.delete(stream);
    return { reply: { id, done: true } };
  }
  download.ahead = readAhead(download.chunks);
  // The encoder's chunks own their memory; any other is copied so that it can be handed over.
  const chunk =
    next.value.byteOffset === 0 && next.value.byteLength === next.value.buffer.byteLength
      ? next.value
      : next.value.slice();
  return { reply: { id, chunk }, transfer: [chunk.buffer as ArrayBuffer] };
}

answerRequests(answer, (id, error): ExportReply => ({ id, failed: failureText(error) }));
