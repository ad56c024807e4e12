/**
 * The checking thread: a worker thread of the server that opens and finishes the ingest
 * endpoints' jobs (check-jobs.ts: `/api/ingest` bodies parsed and their events checked, OTLP
 * exports decoded and their spans mapped), so that the server's main thread — which answers
 * every request, health check and database reply — spends none of its time on them.
 * `job-checker.ts` starts it and speaks to it in the messages below, one request at a time in
 * two steps: `open` answers the job's count of events (the request's tenant spends them
 * against its limits first), then `finish` answers the job's result, or `drop` forgets it.
 */
import { type Answer, answerRequests, failureText } from "@/lib/threads/server-thread";
import {
  type CheckJob,
  type JobKind,
  type JobResults,
  type OpenedJob,
  openJob,
} from "./check-jobs";
import { nextTurn } from "./cpu-slice";
import { RequestRejected } from "./request";

export type CheckRequest =
  | { op: "open"; id: number; job: CheckJob }
  | { op: "finish"; id: number; tenant: string }
  | { op: "drop"; id: number };

export type CheckReply =
  | { id: number; count: number }
  | { id: number; result: JobResults[JobKind] }
  | { id: number; rejected: { status: RequestRejected["status"]; message: string } }
  | { id: number; failed: string };

/** Opened jobs waiting for their `finish` or `drop`. */
const opened = new Map<number, OpenedJob<JobResults[JobKind]>>();

async function answer(request: CheckRequest): Promise<Answer<CheckReply>> {
  if (request.op === "drop") {
    opened.delete(request.id);
    return null;
  }
  if (request.op === "open") {
    const job = await openJob(request.job, nextTurn);
    opened.set(request.id, job);
    return { reply: { id: request.id, count: job.count } };
  }
  const job = opened.get(request.id);
  opened.delete(request.id);
  if (!job) return { reply: { id: request.id, failed: `No opened job ${request.id} to finish.` } };
  return { reply: { id: request.id, result: await job.finish(request.tenant, nextTurn) } };
}

function failure(id: number, error: unknown): CheckReply {
  if (error instanceof RequestRejected && (error.status === 400 || error.status === 413)) {
    return { id, rejected: { status: error.status, message: error.message } };
  }
  return { id, failed: failureText(error) };
}

answerRequests(answer, failure);
