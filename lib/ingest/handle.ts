/**
 * POST /api/ingest (SPEC §3): authenticate, read the envelope, validate each event on its
 * own, store the good ones, and answer 200 (all stored) or 207 with per-event results.
 */
import type { IngestSuccess } from "@/lib/schemas/ingest";
import { INGEST_CACHE_CONTROL, serveKeyedIngest } from "./admission";
import { refusedEvent } from "./events";
import { runJob } from "./job-checker";
import { ingestResponseBody } from "./report";
import { checkContentType } from "./request";
import { storeEvents } from "./store";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { "Cache-Control": INGEST_CACHE_CONTROL, ...headers } });

export function handleIngest(request: Request): Promise<Response> {
  return serveKeyedIngest(
    request,
    "ingest",
    ({ status, message, retryAfterSeconds }) =>
      json(
        status,
        { error: message },
        retryAfterSeconds === null ? {} : { "Retry-After": String(retryAfterSeconds) },
      ),
    async ({ tenant, readBody, acquireSlot, releaseSlot, spendEvents, yieldTurn }) => {
      checkContentType(request.headers.get("content-type"));
      const body = await readBody({ batchEnvelope: true });
      await acquireSlot();
      // Every event of the batch counts, refused ones too (checking them is the work the limit
      // shares out); over the limit, nothing of the batch is checked or stored.
      const { errors, accepted } = await runJob(
        { kind: "ingest", body },
        tenant,
        yieldTurn,
        spendEvents,
      );
      releaseSlot();
      const statuses = await storeEvents(
        tenant,
        accepted.map((a) => a.item),
      );
      const successes: IngestSuccess[] = [];
      accepted.forEach((a, i) => {
        const status = statuses[i] ?? "duplicate";
        if (typeof status === "object") errors.push(refusedEvent(a.index, a.item, status.refused));
        else successes.push({ id: a.item.row.event_id, status: status === "created" ? 201 : 200 });
      });
      errors.sort((a, b) => a.index - b.index);
      return json(errors.length === 0 ? 200 : 207, ingestResponseBody(successes, errors));
    },
  );
}
