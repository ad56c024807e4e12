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
import { ServerThread, THREAD_UNAVAILABLE } from "@/lib/threads/server-thread";
import { type JobKind, type JobOf, type JobResults, openJob } from "./check-jobs";
import type { CheckReply, CheckRequest } from "./check-thread";
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

/**
 * The checking thread as the main thread sees it (a `ServerThread`): a request whose job is in
 * the thread when it stops fails (the endpoint answers it 500, nothing stored); where the
 * thread cannot start, the requests run their jobs in their own thread.
 */
export class CheckThread {
  private readonly thread: ServerThread<CheckRequest, CheckReply>;

  constructor(start: () => Worker) {
    this.thread = new ServerThread({
      name: "ingest checking thread",
      fallback: "checking in the request thread",
      start,
    });
  }

  readonly checker: JobChecker = async (job, tenant, turn) => {
    const worker = await this.thread.running();
    if (worker === THREAD_UNAVAILABLE) return checkInThread(job, tenant, turn);
    const id = this.thread.nextId();
    // The thread gets the body's bytes; a Buffer sharing its memory with others is copied first.
    const { body } = job;
    const own =
      body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : body.slice();
    const opened = await this.ask(worker, { op: "open", id, job: { ...job, body: own } }, [
      own.buffer as ArrayBuffer,
    ]);
    if (!("count" in opened)) throw this.thread.unexpected(opened);
    return {
      count: opened.count,
      finish: async () => {
        const reply = await this.ask(worker, { op: "finish", id, tenant });
        if (!("result" in reply)) throw this.thread.unexpected(reply);
        // The thread ran the job this request opened, whose kind is this request's.
        return reply.result as JobResults[(typeof job)["kind"]];
      },
      drop: () => this.thread.tell(worker, { op: "drop", id }),
    };
  };

  /** Asks the thread; a refusal of the body (400, 413) is thrown as such. */
  private async ask(
    worker: Worker,
    request: CheckRequest,
    transfer: ArrayBuffer[] = [],
  ): Promise<CheckReply> {
    const reply = await this.thread.ask(worker, request, transfer);
    if ("rejected" in reply)
      throw new RequestRejected(reply.rejected.status, reply.rejected.message);
    return reply;
  }
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
