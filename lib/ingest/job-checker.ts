/**
 * Where the ingest endpoints' CPU-bound work runs (check-jobs.ts: `/api/ingest` bodies parsed
 * and their events checked, OTLP exports decoded and their spans mapped): in the checking
 * thread (check-thread.ts), or, with `ROUTELENS_INGEST_CHECK_THREAD=false` or where that thread
 * cannot start, in the request's own thread.
 *
 * The checking thread takes that CPU — about half of what the server spends on a batch of
 * decisions — off the main thread, which then answers health checks, other tenants' requests
 * and database replies meanwhile, and stores some batches while the next are checked
 * (docs/PERFORMANCE.md, "2026-12-06: the checking thread"). A job reaches it one step at a
 * time: opened (parsed and counted), the tenant spends its events, and only then finished; a
 * job over its tenant's limits is dropped unfinished.
 */
import { Worker } from "node:worker_threads";
import { env } from "@/lib/env";
import { type JobKind, type JobOf, type JobResults, openJob } from "./check-jobs";
import type { CheckReply, CheckRequest, ThreadReady } from "./check-thread";
import { RequestRejected } from "./request";

/** An opened job (a parsed batch, a decoded export), waiting to be finished or dropped. */
export interface OpenJob<Result> {
  /** The job's events: a batch's events, an export's spans. */
  readonly count: number;
  /** Checks the batch's events or maps the export's spans. */
  finish(): Promise<Result>;
  /** Forgets the job unfinished (its request was refused). */
  drop(): void;
}

/**
 * Opens `job` for `tenant`'s request, throwing `RequestRejected` for a body its endpoint does
 * not take. `turn` yields between slices of work done in the request's thread.
 */
export type JobChecker = <Kind extends JobKind>(
  job: JobOf<Kind>,
  tenant: string,
  turn: () => Promise<void>,
) => Promise<OpenJob<JobResults[Kind]>>;

/** Opens and finishes jobs in the calling thread, yielding `turn` between slices. */
export const checkInThread: JobChecker = async (job, tenant, turn) => {
  const opened = await openJob(job, turn);
  return { count: opened.count, finish: () => opened.finish(tenant, turn), drop: () => {} };
};

interface Waiting {
  resolve: (reply: CheckReply) => void;
  reject: (error: Error) => void;
}

/** A thread that stopped before it was ready: jobs run in the requests' threads from then on. */
const UNAVAILABLE = Symbol("check thread unavailable");

/**
 * The checking thread as the main thread sees it: started on first use, and again by the next
 * request after it stops. A request whose job is in the thread when it stops fails (the
 * endpoint answers it 500, nothing stored). A thread that stops before it has loaded its code
 * is not started again: the requests run their jobs in their own thread, and the log says so.
 */
export class CheckThread {
  private worker: Worker | null = null;
  /** Resolves once the running thread has loaded its code, or to UNAVAILABLE. */
  private ready: Promise<Worker | typeof UNAVAILABLE> | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  constructor(private readonly start: () => Worker) {}

  readonly checker: JobChecker = async (job, tenant, turn) => {
    const worker = await this.running();
    if (worker === UNAVAILABLE) return checkInThread(job, tenant, turn);
    const id = this.nextId++;
    // The thread gets the body's bytes; a Buffer sharing its memory with others is copied first.
    const { body } = job;
    const own =
      body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : body.slice();
    const opened = await this.ask(worker, { op: "open", id, job: { ...job, body: own } }, [
      own.buffer as ArrayBuffer,
    ]);
    if (!("count" in opened)) throw unexpected(opened);
    return {
      count: opened.count,
      finish: async () => {
        const reply = await this.ask(worker, { op: "finish", id, tenant });
        if (!("result" in reply)) throw unexpected(reply);
        // The thread ran the job this request opened, whose kind is this request's.
        return reply.result as JobResults[(typeof job)["kind"]];
      },
      drop: () => worker.postMessage({ op: "drop", id } satisfies CheckRequest),
    };
  };

  private running(): Promise<Worker | typeof UNAVAILABLE> {
    if (this.ready) return this.ready;
    const ready = new Promise<Worker | typeof UNAVAILABLE>((resolve) => {
      let worker: Worker;
      try {
        worker = this.start();
      } catch (error) {
        console.error(
          "The ingest checking thread could not start; checking in the request thread.",
          error,
        );
        resolve(UNAVAILABLE);
        return;
      }
      let started = false;
      worker.unref();
      worker.on("message", (reply: CheckReply | ThreadReady) => {
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
        console.error("The ingest checking thread failed", error);
      });
      worker.on("exit", (code) => {
        if (!started) {
          console.error(
            `The ingest checking thread exited with code ${code} before it started; checking in the request thread.`,
          );
          resolve(UNAVAILABLE);
          return;
        }
        if (this.worker === worker) {
          this.worker = null;
          this.ready = null;
        }
        const stopped = new Error(`The ingest checking thread stopped (exit code ${code}).`);
        for (const waiting of this.waiting.values()) waiting.reject(stopped);
        this.waiting.clear();
      });
    });
    this.ready = ready;
    return ready;
  }

  private ask(
    worker: Worker,
    request: CheckRequest,
    transfer: ArrayBuffer[] = [],
  ): Promise<CheckReply> {
    return new Promise((resolve, reject) => {
      if (this.worker !== worker) {
        reject(new Error("The ingest checking thread stopped before this request was checked."));
        return;
      }
      this.waiting.set(request.id, {
        resolve: (reply) => {
          if ("rejected" in reply) {
            reject(new RequestRejected(reply.rejected.status, reply.rejected.message));
          } else {
            resolve(reply);
          }
        },
        reject,
      });
      worker.postMessage(request, transfer);
    });
  }
}

function unexpected(reply: CheckReply): Error {
  return new Error(
    "failed" in reply
      ? `The checking thread failed: ${reply.failed}`
      : "Unexpected reply from the checking thread.",
  );
}

let checkThread: CheckThread | undefined;

/**
 * Runs `job` for `tenant`'s request where this process runs jobs (`jobChecker`): opens it,
 * hands its count of events to `spend` — which throws when the tenant is over a limit, and the
 * job is then dropped unfinished — and finishes it.
 */
export async function runJob<Kind extends JobKind>(
  job: JobOf<Kind>,
  tenant: string,
  turn: () => Promise<void>,
  spend: (events: number) => void,
): Promise<JobResults[Kind]> {
  const opened = await jobChecker()(job, tenant, turn);
  try {
    spend(opened.count);
  } catch (error) {
    opened.drop();
    throw error;
  }
  return opened.finish();
}

/**
 * Where this process runs the ingest endpoints' jobs: its checking thread (started on first
 * use) unless `ROUTELENS_INGEST_CHECK_THREAD` is false.
 */
export function jobChecker(): JobChecker {
  if (!env().ROUTELENS_INGEST_CHECK_THREAD) return checkInThread;
  checkThread ??= new CheckThread(() => new Worker(new URL("./check-thread.ts", import.meta.url)));
  return checkThread.checker;
}
