/**
 * A worker thread of the server that answers the main thread's requests, matched by id: the
 * ingest checking thread (lib/ingest/job-checker.ts) and the export thread
 * (lib/dashboard/export-streams.ts) are each one. Both sides are here: `ServerThread` on the
 * main thread, `answerRequests` in the worker.
 *
 * A thread is started on first use, and again by the next request after it stops; requests
 * waiting on a thread that stops fail. A thread that stops before it has loaded its code is not
 * started again: `running()` answers `THREAD_UNAVAILABLE` from then on, the caller does the
 * work in its own thread, and the log says so once.
 */
import { parentPort, type Worker } from "node:worker_threads";

/** Every request and reply names the request it belongs to. */
export interface ThreadMessage {
  id: number;
}

/** A thread's first message: its code is loaded and it takes requests. */
export interface ThreadReady {
  ready: true;
}

/** What `running()` answers for a thread that stopped before it was ready. */
export const THREAD_UNAVAILABLE = Symbol("thread unavailable");

export interface ServerThreadOptions {
  /** How the log names it, e.g. "ingest checking thread". */
  name: string;
  /** What the caller does instead when it cannot start, e.g. "checking in the request thread". */
  fallback: string;
  /**
   * Starts the worker, written `new Worker(new URL("./….ts", import.meta.url))` with the options,
   * if any, as an object literal: only that form makes `next build` compile the thread's file.
   * Given its options as a conditional expression, the build copied the `.ts` file as it was,
   * Node refused to run it ("Unknown file extension .ts"), and the caller did every job in its
   * own thread (logged once; tests/integration/check-thread.test.ts fails on such a build).
   */
  start: () => Worker;
}

interface Waiting<Reply> {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

export class ServerThread<Request extends ThreadMessage, Reply extends ThreadMessage> {
  private worker: Worker | null = null;
  /** Resolves once the running thread has loaded its code, or to THREAD_UNAVAILABLE. */
  private ready: Promise<Worker | typeof THREAD_UNAVAILABLE> | null = null;
  private lastId = 0;
  private readonly waiting = new Map<number, Waiting<Reply>>();

  constructor(private readonly options: ServerThreadOptions) {}

  /** A request id not in use. */
  nextId(): number {
    this.lastId += 1;
    return this.lastId;
  }

  /** The running thread (started now if none is), or THREAD_UNAVAILABLE. */
  running(): Promise<Worker | typeof THREAD_UNAVAILABLE> {
    if (this.ready) return this.ready;
    const { name, fallback } = this.options;
    const ready = new Promise<Worker | typeof THREAD_UNAVAILABLE>((resolve) => {
      let worker: Worker;
      try {
        worker = this.options.start();
      } catch (error) {
        console.error(`The ${name} could not start; ${fallback}.`, error);
        resolve(THREAD_UNAVAILABLE);
        return;
      }
      let started = false;
      worker.unref();
      worker.on("message", (reply: Reply | ThreadReady) => {
        if ("ready" in reply) {
          started = true;
          this.worker = worker;
          resolve(worker);
          return;
        }
        const waiting = this.waiting.get(reply.id);
        if (!waiting) return;
        this.waiting.delete(reply.id);
        waiting.resolve(reply);
      });
      worker.on("error", (error) => {
        console.error(`The ${name} failed`, error);
      });
      worker.on("exit", (code) => {
        if (!started) {
          console.error(`The ${name} exited with code ${code} before it started; ${fallback}.`);
          resolve(THREAD_UNAVAILABLE);
          return;
        }
        if (this.worker === worker) {
          this.worker = null;
          this.ready = null;
        }
        const stopped = new Error(`The ${name} stopped (exit code ${code}).`);
        for (const waiting of this.waiting.values()) waiting.reject(stopped);
        this.waiting.clear();
      });
    });
    this.ready = ready;
    return ready;
  }

  /** Sends `request` to `worker` and answers its reply; fails if the thread stops first. */
  ask(worker: Worker, request: Request, transfer: ArrayBuffer[] = []): Promise<Reply> {
    return new Promise((resolve, reject) => {
      if (this.worker !== worker) {
        reject(new Error(`The ${this.options.name} stopped before this request was answered.`));
        return;
      }
      this.waiting.set(request.id, { resolve, reject });
      worker.postMessage(request, transfer);
    });
  }

  /** The error for a reply that is not the one asked for: a failure in the thread, or another. */
  unexpected(reply: Reply): Error {
    const { name } = this.options;
    return new Error(
      "failed" in reply
        ? `The ${name} failed: ${String(reply.failed)}`
        : `Unexpected reply from the ${name}.`,
    );
  }

  /** Sends `request` to `worker` without waiting for a reply (it sends none). */
  tell(worker: Worker, request: Request): void {
    if (this.worker === worker) worker.postMessage(request);
  }
}

/** What a thread's `answer` gives back: nothing, or a reply and the buffers it hands over. */
export type Answer<Reply> = null | { reply: Reply; transfer?: ArrayBuffer[] };

/**
 * In the worker: answers each request from the main thread with `answer` (an error becomes
 * `failure`'s reply), then says it is ready.
 */
export function answerRequests<Request extends ThreadMessage, Reply extends ThreadMessage>(
  answer: (request: Request) => Promise<Answer<Reply>>,
  failure: (id: number, error: unknown) => Reply,
): void {
  const port = parentPort;
  if (!port) return;
  port.on("message", (request: Request) => {
    answer(request).then(
      (answered) => answered && port.postMessage(answered.reply, answered.transfer ?? []),
      (error: unknown) => port.postMessage(failure(request.id, error)),
    );
  });
  port.postMessage({ ready: true } satisfies ThreadReady);
}

/** An error as the main thread reads it in a failed reply. */
export function failureText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
