/**
 * The CPU-bound work of the two ingest endpoints between a request's body and its store, as
 * jobs that the checking thread (check-thread.ts) and a request's own thread run alike. A job is
 * opened — parsed and counted; the request's tenant spends its events on the count — and then
 * finished for the tenant (events checked, spans mapped) or dropped.
 */
import { type OtlpEncoding, openTraceExport } from "@/lib/otlp/decode";
import { type MappedSpans, mapExport } from "@/lib/otlp/mapped-export";
import { type CheckedBatch, checkBatch, parseBatch } from "./batch-check";

export type CheckJob =
  /** A `/api/ingest` body: a `{batch: [...]}` envelope of events. */
  | { kind: "ingest"; body: Uint8Array }
  /** An OTLP/HTTP export body (`/api/otlp/v1/traces`). */
  | { kind: "otlp"; encoding: OtlpEncoding; body: Uint8Array };

export type JobKind = CheckJob["kind"];
export type JobOf<Kind extends JobKind> = Extract<CheckJob, { kind: Kind }>;

/** What finishing each kind of job answers. */
export interface JobResults {
  ingest: CheckedBatch;
  otlp: MappedSpans;
}

export interface OpenedJob<Result> {
  /** The job's events: a batch's events, an export's spans. */
  readonly count: number;
  /** Checks or maps the job for `tenant`, yielding `turn` between slices. */
  finish(tenant: string, turn: () => Promise<void>): Promise<Result>;
}

/**
 * Opens `job`, yielding `turn` between slices of a long parse. Throws `RequestRejected` (400 or
 * 413) for a body that is not what its endpoint takes.
 */
export async function openJob<Kind extends JobKind>(
  job: JobOf<Kind>,
  turn: () => Promise<void>,
): Promise<OpenedJob<JobResults[Kind]>> {
  const opened: OpenedJob<JobResults[JobKind]> = await openAny(job, turn);
  return opened as OpenedJob<JobResults[Kind]>;
}

async function openAny(
  job: CheckJob,
  turn: () => Promise<void>,
): Promise<OpenedJob<JobResults[JobKind]>> {
  if (job.kind === "ingest") {
    const batch = await parseBatch(job.body, turn);
    return { count: batch.length, finish: (tenant, next) => checkBatch(batch, tenant, next) };
  }
  const exported = openTraceExport(job.body, job.encoding);
  return { count: exported.spanCount, finish: (_, next) => mapExport(exported, next) };
}
