/**
 * POST /api/ingest (SPEC §3): authenticate, read the envelope, validate each event on its
 * own, store the good ones, and answer 200 (all stored) or 207 with per-event results.
 */
import { DatabaseUnavailable, isUnavailable } from "@/lib/db/unavailable";
import { env } from "@/lib/env";
import { authenticateApiKey, hashApiKey } from "@/lib/keys";
import type { IngestSuccess } from "@/lib/schemas/ingest";
import { AuthThrottle, clientAddress } from "./auth-throttle";
import { BusyHolds } from "./busy-holds";
import { checkEvent, type EventError, refusedEvent, toDecisionRow, toOutcomeRow } from "./events";
import { ingestResponseBody } from "./report";
import {
  bearerToken,
  bearerTokenOf,
  checkContentType,
  PARSE_BUSY_RETRY_SECONDS,
  ParseBudget,
  type ParseLease,
  parseEnvelope,
  RequestRejected,
  readBody,
} from "./request";
import { type StoreInput, storeEvents } from "./store";
import { TenantSlots } from "./tenant-slots";

export const RETRY_AFTER_SECONDS = 5;
/**
 * Longest synchronous slice of checking one batch's events, in ms. A refused event with
 * 1,000-item lists costs far more than a valid one, so slices are timed rather than counted.
 */
const SLICE_MS = 5;

const authThrottle = new AuthThrottle();
const busyHolds = new BusyHolds();
let parseBudget: ParseBudget | undefined;
let tenantSlots: TenantSlots | undefined;

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
  const address = clientAddress(request.headers, env().ROUTELENS_TRUST_PROXY);
  parseBudget ??= new ParseBudget(env().ROUTELENS_INGEST_PARSE_MIB * 1024 * 1024);
  tenantSlots ??= new TenantSlots(env().ROUTELENS_INGEST_TENANT_SLOTS);
  let lease: ParseLease | null = null;
  let releaseSlot: (() => void) | null = null;
  let tenant: string | null = null;
  try {
    const authorization = request.headers.get("authorization");
    if (authThrottle.retryAfterSeconds(address) > 0) {
      const key = bearerTokenOf(authorization);
      if (!key || !authThrottle.isKnown(hashApiKey(key))) {
        await authThrottle.holdRefusal(address, request.signal);
        const wait = Math.max(1, authThrottle.retryAfterSeconds(address));
        return json(
          429,
          {
            error: `Too many requests with a missing or wrong API key from this address; retry after ${wait} s.`,
          },
          { "Retry-After": String(wait) },
        );
      }
    }
    let key: string;
    try {
      key = bearerToken(authorization);
    } catch (error) {
      authThrottle.failed(address);
      throw error;
    }
    tenant = await authenticateApiKey(key);
    if (!tenant) {
      authThrottle.failed(address);
      authThrottle.forget(hashApiKey(key));
      return json(401, { error: "Unknown or revoked API key." });
    }
    authThrottle.succeeded(hashApiKey(key));
    checkContentType(request.headers.get("content-type"));
    // The key is known before the body is read, so its bytes count against its tenant's share.
    lease = parseBudget.lease(tenant);
    const text = await readBody(request, lease);
    releaseSlot = await tenantSlots.acquire(tenant);
    const batch = await parseEnvelope(text);

    const errors: EventError[] = [];
    const accepted: { index: number; item: StoreInput }[] = [];
    let sliceStart = performance.now();
    for (let index = 0; index < batch.length; index++) {
      // Between slices of a large batch, let the event loop serve other requests (their
      // database replies, health checks), so none waits behind this whole batch.
      if (performance.now() - sliceStart >= SLICE_MS) {
        await new Promise(setImmediate);
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
    releaseSlot = null;
    const statuses = await storeEvents(accepted.map((a) => a.item));
    const successes: IngestSuccess[] = [];
    accepted.forEach((a, i) => {
      const status = statuses[i] ?? "duplicate";
      if (typeof status === "object") errors.push(refusedEvent(a.index, a.item, status.refused));
      else successes.push({ id: a.item.row.event_id, status: status === "created" ? 201 : 200 });
    });
    errors.sort((a, b) => a.index - b.index);
    return json(errors.length === 0 ? 200 : 207, ingestResponseBody(successes, errors));
  } catch (error) {
    if (error instanceof RequestRejected) {
      const retryAfter = error.retryAfterSeconds;
      if (tenant && error.status === 503 && retryAfter === PARSE_BUSY_RETRY_SECONDS) {
        // Past the parse budget: give its bytes back first, then pace the answer.
        releaseSlot?.();
        releaseSlot = null;
        lease?.release();
        await busyHolds.hold(tenant, request.signal);
      }
      return json(
        error.status,
        { error: error.message },
        retryAfter === null ? {} : { "Retry-After": String(retryAfter) },
      );
    }
    if (error instanceof DatabaseUnavailable || isUnavailable(error)) return unavailable();
    console.error("ingest failed", error);
    return json(500, { error: "Internal error; nothing was reported as stored. Retry the batch." });
  } finally {
    releaseSlot?.();
    lease?.release();
  }
}
