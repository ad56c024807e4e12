/**
 * POST /api/ingest (SPEC §3): authenticate, read the envelope, validate each event on its
 * own, store the good ones, and answer 200 (all stored) or 207 with per-event results.
 */

import { DatabaseUnavailable, isUnavailable } from "@/lib/db/unavailable";
import { authenticateApiKey } from "@/lib/keys";
import { checkEvent, type EventError, refusedEvent, toDecisionRow, toOutcomeRow } from "./events";
import { bearerToken, checkContentType, parseEnvelope, RequestRejected, readBody } from "./request";
import { type StoreInput, storeEvents } from "./store";

export const RETRY_AFTER_SECONDS = 5;
const YIELD_EVERY = 100;

export interface IngestResponseBody {
  successes: { id: string; status: number }[];
  errors: { id: string | null; index: number; status: number; message: string }[];
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });

const unavailable = () =>
  json(
    503,
    {
      error: `The database is unavailable; nothing was stored. Retry after ${RETRY_AFTER_SECONDS} s.`,
    },
    { "Retry-After": String(RETRY_AFTER_SECONDS) },
  );

export async function handleIngest(request: Request): Promise<Response> {
  try {
    const key = bearerToken(request.headers.get("authorization"));
    const tenant = await authenticateApiKey(key);
    if (!tenant) {
      return json(401, { error: "Unknown or revoked API key." });
    }
    checkContentType(request.headers.get("content-type"));
    const batch = parseEnvelope(await readBody(request));

    const errors: EventError[] = [];
    const accepted: { index: number; item: StoreInput }[] = [];
    for (let index = 0; index < batch.length; index++) {
      // Between slices of a large batch, let the event loop serve other requests' database
      // replies, so their transactions are not held open while this batch is checked.
      if (index > 0 && index % YIELD_EVERY === 0) await new Promise(setImmediate);
      const checked = checkEvent(batch[index], index, tenant);
      if (!checked.ok) {
        errors.push(checked.error);
        continue;
      }
      const { event } = checked;
      accepted.push({
        index,
        item:
          event.type === "tool_routing_decision"
            ? { kind: "decision", row: toDecisionRow(tenant, event) }
            : { kind: "outcome", row: toOutcomeRow(tenant, event) },
      });
    }

    const statuses = await storeEvents(accepted.map((a) => a.item));
    const successes: IngestResponseBody["successes"] = [];
    accepted.forEach((a, i) => {
      const status = statuses[i] ?? "duplicate";
      if (typeof status === "object") errors.push(refusedEvent(a.index, a.item, status.refused));
      else successes.push({ id: a.item.row.event_id, status: status === "created" ? 201 : 200 });
    });
    errors.sort((a, b) => a.index - b.index);
    const body: IngestResponseBody = {
      successes,
      errors: errors.map((e) => ({
        id: e.id,
        index: e.index,
        status: e.status,
        message: e.message,
      })),
    };
    return json(errors.length === 0 ? 200 : 207, body);
  } catch (error) {
    if (error instanceof RequestRejected) return json(error.status, { error: error.message });
    if (error instanceof DatabaseUnavailable || isUnavailable(error)) return unavailable();
    console.error("ingest failed", error);
    return json(500, { error: "Internal error; nothing was reported as stored. Retry the batch." });
  }
}
