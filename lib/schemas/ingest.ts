/**
 * The answers of `POST /api/ingest` (SPEC §3), one definition for the route that writes them
 * and the telemetry client that reads them.
 *
 * 200 / 207: `{successes, errors}` — one success per stored event; the first errors in full,
 * and when a batch has more errors than a response carries (`lib/ingest/report.ts`),
 * `elided_errors` summarises the rest: which events (by index) and how many per rule.
 * Every other status: `{error}`, a sentence saying what to fix.
 */
import { z } from "zod";

export const ingestSuccessSchema = z.object({
  id: z.string(),
  /** 201 when the event was stored now, 200 when its `event_id` was already stored. */
  status: z.number().int(),
});

export const ingestErrorSchema = z.object({
  /** The event's `event_id`, or null when it has none usable. */
  id: z.string().nullable(),
  /** The event's position in the batch. */
  index: z.number().int(),
  /** 400 (invalid), 403 (another tenant's event) or 422 (valid, but the database refused it). */
  status: z.number().int(),
  /** `batch[3].offered[0]: expected string, received number; …` */
  message: z.string(),
});

export const elidedRuleSchema = z.object({
  status: z.number().int(),
  /** The field with every index as `*`, e.g. `batch[*].offered[*]`; `(other)` for the rest. */
  path: z.string(),
  rule: z.string(),
  /** Elided events that broke this rule at this path. */
  events: z.number().int(),
});

export const elidedErrorsSchema = z.object({
  /** Rejected events not listed in `errors`. */
  count: z.number().int(),
  /** Their positions in the batch, ascending: every one of them was rejected, none stored. */
  indexes: z.array(z.number().int()),
  /** How many of them broke each rule, most frequent first (the first problems of each event). */
  by_rule: z.array(elidedRuleSchema),
});

export const ingestResponseSchema = z.object({
  successes: z.array(ingestSuccessSchema),
  errors: z.array(ingestErrorSchema),
  /** Present only when some rejected events are not listed in `errors`. */
  elided_errors: elidedErrorsSchema.optional(),
});

/** The body of every answer other than 200 and 207. */
export const ingestRefusalSchema = z.object({ error: z.string() });

export type IngestSuccess = z.infer<typeof ingestSuccessSchema>;
export type IngestError = z.infer<typeof ingestErrorSchema>;
export type ElidedErrors = z.infer<typeof elidedErrorsSchema>;
export type IngestResponseBody = z.infer<typeof ingestResponseSchema>;
export type IngestRefusal = z.infer<typeof ingestRefusalSchema>;
