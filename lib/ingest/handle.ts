/**
 * POST /api/ingest (SPEC §3): authenticate, read the envelope, validate each event on its
 * own, store the good ones, and answer 200 (all stored) or 207 with per-event results.
 */
import type { IngestSuccess } from "@/lib/schemas/ingest";
import { CPU_SLICE_MS, serveKeyedIngest } from "./admission";
import { checkEvent, type EventError, refusedEvent, toDecisionRow, toOutcomeRow } from "./events";
import { ingestResponseBody } from "./report";
import { checkContentType, parseEnvelope, SLICED_PARSE_ABOVE_CHARS, utf8Text } from "./request";
import { type StoreInput, storeEvents } from "./store";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });

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
      const text = utf8Text(await readBody({ batchEnvelope: true }));
      await acquireSlot();
      const batch = await parseEnvelope(text, SLICED_PARSE_ABOVE_CHARS, yieldTurn);
      // Every event of the batch counts, refused ones too (checking them is the work the limit
      // shares out); over the limit, nothing of the batch is checked or stored.
      spendEvents(batch.length);

      const errors: EventError[] = [];
      const accepted: { index: number; item: StoreInput }[] = [];
      let sliceStart = performance.now();
      for (let index = 0; index < batch.length; index++) {
        // Between slices of a large batch, let the event loop serve other requests (their
        // database replies, health checks), so none waits behind this whole batch; a long
        // batch lets short requests finish first (`ShortFirst`).
        if (performance.now() - sliceStart >= CPU_SLICE_MS) {
          await yieldTurn();
          sliceStart = performance.now();
        }
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
