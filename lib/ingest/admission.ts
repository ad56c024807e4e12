/**
 * What every key-authenticated ingest endpoint (`POST /api/ingest`, `POST /api/otlp/v1/traces`)
 * does around its own parsing: the address's throttle of wrong keys, the API key's tenant,
 * the body read against the process's parse budget, the tenant's checking slots, and the
 * tenant's and the key's ingest limits (`IngestLimiter`: events per second and requests in
 * progress), and the mapping of every refusal — bad key (401), throttled or over a limit (429),
 * over the parse budget (503, paced), database unavailable (503) — to one `Refusal` the endpoint
 * words in its own encoding. One throttle, budget, limiter and set of slots serve both
 * endpoints, so sending to both earns no extra share. A request with a short body (`SHORT_BODY_BYTES`) is served ahead of
 * bulk work (`ShortFirst`) from its key lookup until it is answered.
 */
import { DatabaseUnavailable, isUnavailable } from "@/lib/db/unavailable";
import { env } from "@/lib/env";
import { authenticateApiKey, hashApiKey, type IngestKey } from "@/lib/keys";
import { resolveIngestLimits } from "@/lib/schemas/ingest-limits";
import { AuthThrottle, clientAddress } from "./auth-throttle";
import { BusyHolds } from "./busy-holds";
import { nextTurn } from "./cpu-slice";
import { defaultIngestLimits, type IngestCaller, IngestLimiter, type LimitRefusal } from "./limits";
import {
  type BodyOptions,
  bearerToken,
  bearerTokenOf,
  ParseBudget,
  ParseBusy,
  type ParseLease,
  RequestRejected,
  readBodyBytes,
} from "./request";
import { SHORT_BODY_BYTES, shortFirst } from "./short-first";
import { TenantSlots } from "./tenant-slots";

/** Retry-After of a 503 sent because the database is unavailable. */
export const RETRY_AFTER_SECONDS = 5;

const authThrottle = new AuthThrottle();
const busyHolds = new BusyHolds();
const limiter = new IngestLimiter();
/**
 * Pacing of the 429s of a tenant over its limits, like the parse budget's 503s: the first at
 * once, further ones within a second held for a second (a timer), so a client that resends at
 * once without waiting for Retry-After gets about one answer a second per connection instead
 * of taking the server's one thread from every other tenant with refusals.
 */
const limitHolds = new BusyHolds();
/**
 * Pacing of the 413s of a tenant's too-large batches, the same way: refused while inflating
 * (`EARLY_COUNT_BYTES`), such a body costs little, so a client resending it at once got its
 * answers as fast as it could ask, and its requests alone took the server's thread from the
 * others. A client that splits its batches after the first 413 never waits.
 */
const oversizeHolds = new BusyHolds();

/** A request refused by its tenant's or key's limits (`IngestLimiter`). */
class LimitRejected extends RequestRejected {
  constructor(readonly refusal: LimitRefusal) {
    super(429, refusal.message, refusal.retryAfterSeconds);
  }
}
let parseBudget: ParseBudget | undefined;
let tenantSlots: TenantSlots | undefined;

/**
 * The holds that pace `error`'s answer and the tenant whose refusals they count, or null for an
 * answer sent at once: over a limit, past the parse budget, or too large. `leavesLimits`: the
 * request leaves its tenant's and key's requests in progress before its answer is held (over
 * a limit, it is not one of them).
 */
function pacingOf(
  error: RequestRejected,
  tenant: string | null,
): { holds: BusyHolds; tenant: string; leavesLimits: boolean } | null {
  if (error instanceof LimitRejected) {
    return { holds: limitHolds, tenant: error.refusal.tenant, leavesLimits: true };
  }
  if (tenant === null) return null;
  if (error instanceof ParseBusy) return { holds: busyHolds, tenant, leavesLimits: false };
  if (error.status === 413) return { holds: oversizeHolds, tenant, leavesLimits: false };
  return null;
}

/** A request refused before or while it was handled, for the endpoint to answer in its encoding. */
export interface Refusal {
  status: number;
  message: string;
  /** Seconds for the Retry-After header, or null for none. */
  retryAfterSeconds: number | null;
}

/** A request whose API key is known: its tenant, and the shared resources it may use. */
export interface AdmittedRequest {
  readonly tenant: string;
  /**
   * The body (gunzipped when Content-Encoding says gzip), at most 5 MiB, every byte taken
   * from the parse budget as it arrives and given back when the request is answered.
   */
  readBody(options?: BodyOptions): Promise<Buffer>;
  /** Waits for one of the tenant's checking slots (CPU-bound parsing and checking). */
  acquireSlot(): Promise<void>;
  /** Gives the slot back before the request waits on the database. */
  releaseSlot(): void;
  /**
   * Counts the request's `events` against its tenant's and key's events per second, before
   * anything is stored; throws `RequestRejected` (429 + Retry-After) when over either.
   */
  spendEvents(events: number): void;
  /**
   * A turn of the event loop between slices of CPU work (`CPU_SLICE_MS`): the next one for a
   * short request, and for a long one a turn that waits while short requests are served
   * (`ShortFirst.turn`).
   */
  yieldTurn(): Promise<void>;
}

/** True when the headers promise a short body: no compression and a short Content-Length. */
function declaredShort(headers: Headers): boolean {
  const encoding = headers.get("content-encoding")?.trim().toLowerCase();
  if (encoding && encoding !== "identity") return false;
  const length = headers.get("content-length");
  return length !== null && Number(length) <= SHORT_BODY_BYTES;
}

/**
 * Checks the address's throttle and the Bearer key; answers the key's tenant. `lookingUp` runs
 * once the address has passed its throttle, just before the key is looked up.
 */
async function authenticate(
  request: Request,
  address: string,
  lookingUp: () => void,
): Promise<IngestKey & { keyHash: string }> {
  const authorization = request.headers.get("authorization");
  if (authThrottle.retryAfterSeconds(address) > 0) {
    const key = bearerTokenOf(authorization);
    if (!key || !authThrottle.isKnown(hashApiKey(key))) {
      await authThrottle.holdRefusal(address, request.signal);
      const wait = Math.max(1, authThrottle.retryAfterSeconds(address));
      throw new RequestRejected(
        429,
        `Too many requests with a missing or wrong API key from this address; retry after ${wait} s.`,
        wait,
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
  // A key seen before that is over its limits is refused without looking it up again.
  const overLimit = limiter.refusalBeforeLookup(hashApiKey(key));
  if (overLimit) throw new LimitRejected(overLimit);
  lookingUp();
  const found = await authenticateApiKey(key);
  if (!found) {
    authThrottle.failed(address);
    authThrottle.forget(hashApiKey(key));
    limiter.forget(hashApiKey(key));
    throw new RequestRejected(401, "Unknown or revoked API key.");
  }
  authThrottle.succeeded(hashApiKey(key));
  return { ...found, keyHash: hashApiKey(key) };
}

/**
 * `Cache-Control` of every answer of the ingest endpoints. `no-transform` also keeps the server
 * from compressing them (Next.js's compression skips such answers): they are small (an error
 * report is at most 64 kB), and gzip ran on the main thread for every one of them — 585 ms of
 * its 12.4 s of work under the poison load (docs/RELIABILITY.md, "6 December 2026, later").
 */
export const INGEST_CACHE_CONTROL = "no-store, no-transform";

/**
 * Admits `request` (throttle, key) and runs `handle` with its tenant; every refusal on the
 * way, thrown as `RequestRejected` or met as an unavailable database, is answered by
 * `refuse`. `label` names the endpoint in the log of an unexpected failure.
 */
export async function serveKeyedIngest(
  request: Request,
  label: string,
  refuse: (refusal: Refusal) => Response,
  handle: (admitted: AdmittedRequest) => Promise<Response>,
): Promise<Response> {
  const address = clientAddress(request.headers, env().ROUTELENS_TRUST_PROXY);
  parseBudget ??= new ParseBudget(env().ROUTELENS_INGEST_PARSE_MIB * 1024 * 1024);
  tenantSlots ??= new TenantSlots(env().ROUTELENS_INGEST_TENANT_SLOTS);
  const budget = parseBudget;
  const slots = tenantSlots;
  const gate = shortFirst();
  // Set by the handler's calls below; given back however the request ends.
  const held: {
    lease: ParseLease | null;
    releaseSlot: (() => void) | null;
    /** Ends the request's count against its tenant's and key's requests in progress. */
    leaveLimits: (() => void) | null;
    /** Set while the request is served as a short one. */
    endShort: (() => void) | null;
  } = { lease: null, releaseSlot: null, leaveLimits: null, endShort: null };
  const endShort = () => {
    held.endShort?.();
    held.endShort = null;
  };
  const releaseSlot = () => {
    held.releaseSlot?.();
    held.releaseSlot = null;
  };
  let tenant: string | null = null;
  try {
    // A short request is served ahead of bulk work from its key lookup on (a throttled
    // address's held refusals are not served at all); a wrong key ends it below.
    const found = await authenticate(request, address, () => {
      if (declaredShort(request.headers)) held.endShort = gate.enter();
    });
    const admitted = found.tenantId;
    tenant = admitted;
    const caller: IngestCaller = {
      tenant: admitted,
      keyId: found.keyId,
      keyPrefix: found.prefix,
      limits: resolveIngestLimits(defaultIngestLimits(), found.limits),
    };
    limiter.remember(found.keyHash, caller);
    // Over a limit already (too many in progress, or a bucket empty or in debt): refused
    // before its body is read, so a flooding client costs no parsing.
    const entered = limiter.enter(caller);
    if ("refused" in entered) {
      throw new LimitRejected(entered.refused);
    }
    held.leaveLimits = entered.release;
    const entry = entered;
    return await handle({
      tenant: admitted,
      readBody: async (options) => {
        // The key is known before the body is read, so its bytes count against its tenant's share.
        held.lease ??= budget.lease(admitted);
        const body = await readBodyBytes(request, held.lease, options);
        if (body.length > SHORT_BODY_BYTES) endShort();
        else held.endShort ??= gate.enter();
        return body;
      },
      acquireSlot: async () => {
        // Waiting in the tenant's line is waiting for the tenant's own batch ahead, which would
        // be waiting for this request if it still counted as short.
        const waits = held.endShort !== null && slots.activeFor(admitted) >= slots.perTenant;
        if (waits) endShort();
        held.releaseSlot = await slots.acquire(admitted);
        if (waits) held.endShort = gate.enter();
      },
      releaseSlot,
      spendEvents: (events) => {
        const refused = entry.spend(events);
        if (refused) throw new LimitRejected(refused);
      },
      yieldTurn: () => (held.endShort ? nextTurn() : gate.turn()),
    });
  } catch (error) {
    endShort();
    if (error instanceof RequestRejected) {
      const retryAfterSeconds = error.retryAfterSeconds;
      const paced = pacingOf(error, tenant);
      if (paced) {
        // Its slot and bytes given back (over a limit, its place among the requests in
        // progress too) before the answer is held.
        releaseSlot();
        if (paced.leavesLimits) held.leaveLimits?.();
        held.lease?.release();
        await paced.holds.hold(paced.tenant, request.signal);
      }
      return refuse({ status: error.status, message: error.message, retryAfterSeconds });
    }
    if (error instanceof DatabaseUnavailable || isUnavailable(error)) {
      return refuse({
        status: 503,
        message: `The database is unavailable; nothing was stored. Retry after ${RETRY_AFTER_SECONDS} s.`,
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      });
    }
    console.error(`${label} failed`, error);
    return refuse({
      status: 500,
      message: "Internal error; nothing was reported as stored. Retry the request.",
      retryAfterSeconds: null,
    });
  } finally {
    endShort();
    releaseSlot();
    held.leaveLimits?.();
    held.lease?.release();
  }
}
