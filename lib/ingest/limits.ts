/**
 * Fair sharing of ingest between tenants and keys (docs/LIMITS.md), per server process: events
 * per second with a burst (a `TokenBucket` per tenant and per API key) and requests in progress
 * at once (per tenant and per key). Both endpoints (`/api/ingest`, `/api/otlp/v1/traces`) go
 * through one `IngestLimiter` (`lib/ingest/admission.ts`), so sending to both earns no extra
 * share.
 *
 * A request is checked against the buckets when its key is known, before its body is read
 * (refused at once unless both buckets hold as many tokens as the key's last batch had events,
 * at most the burst, so a flooding client costs no parsing), and
 * once its events are counted, before anything is stored (refused unless both buckets admit the
 * whole batch). A refused request stores nothing. The limits of each request are those its key
 * lookup read from the database, so an admin's change applies to the next request looked up.
 * A key looked up less than a second ago that is over a limit is refused before its lookup,
 * from the limits that lookup read (`refusalBeforeLookup`): a client flooding with a valid key
 * then costs at most one database round trip a second, instead of one a request taking the
 * pool from other tenants, and an admin's raised limit applies within that second.
 */
import { env } from "@/lib/env";
import type { IngestLimitSet, IngestLimits } from "@/lib/schemas/ingest-limits";
import { retryAfterSeconds, TokenBucket } from "./token-bucket";

/** Retry-After of a request refused for too many requests in progress. */
export const CONCURRENCY_RETRY_SECONDS = 1;

/** The defaults of every tenant and key, from the environment. */
export function defaultIngestLimits(): IngestLimits {
  const e = env();
  return {
    tenant: {
      eventsPerSecond: e.ROUTELENS_INGEST_TENANT_EVENTS_PER_SECOND,
      burst: e.ROUTELENS_INGEST_TENANT_BURST,
      concurrentRequests: e.ROUTELENS_INGEST_TENANT_CONCURRENT_REQUESTS,
    },
    key: {
      eventsPerSecond: e.ROUTELENS_INGEST_KEY_EVENTS_PER_SECOND,
      burst: e.ROUTELENS_INGEST_KEY_BURST,
      concurrentRequests: e.ROUTELENS_INGEST_KEY_CONCURRENT_REQUESTS,
    },
  };
}

/** Who a request is counted against. */
export interface IngestCaller {
  tenant: string;
  /** The API key's id (its bucket) and prefix (how the refusal names it). */
  keyId: string;
  keyPrefix: string;
  limits: IngestLimits;
}

/** A refusal by a limit: the sentence for the client and its Retry-After. */
export interface LimitRefusal {
  /** The tenant of the refused request (its refusals are paced per tenant). */
  tenant: string;
  message: string;
  retryAfterSeconds: number;
}

/** A request counted as in progress by `enter`. */
export interface AdmittedIngest {
  /**
   * Takes the request's `events` tokens from the tenant's and the key's buckets (its
   * reservation given back first), or from neither and answers the refusal naming the limit
   * that waits longest. A batch is admitted when each bucket holds min(events, burst) tokens; a
   * batch above the burst leaves the bucket in debt.
   */
  spend(events: number): LimitRefusal | null;
  /** Ends the request (once): out of progress, its reservation given back if not spent. */
  release(): void;
}

interface Holder {
  bucket: TokenBucket;
  inProgress: number;
  /** Events of the last batch counted against it (1 before any). */
  lastBatch: number;
}

const whole = (n: number) => n.toLocaleString("en");

/** "Tenant acme" or "API key rl_abc… of tenant acme". */
function whoOf(caller: IngestCaller, scope: "tenant" | "key"): string {
  return scope === "tenant"
    ? `Tenant "${caller.tenant}"`
    : `API key ${caller.keyPrefix}… of tenant "${caller.tenant}"`;
}

const ASK_ADMIN =
  "An admin can change the tenant's limits (Settings → Ingest keys → Ingest limits; docs/LIMITS.md).";

/** Forget idle, full holders once there are more than this many of a kind. */
const SWEEP_ABOVE = 1_000;

/** Keys remembered for `refusalBeforeLookup` (least recently used dropped first). */
const REMEMBERED_KEYS = 10_000;

/**
 * How long a key's looked-up limits are used to refuse it without a lookup: a flooding key
 * costs at most one lookup a second, and an admin's raised limit applies within a second.
 */
export const REMEMBERED_LOOKUP_MS = 1_000;

export class IngestLimiter {
  private readonly tenants = new Map<string, Holder>();
  private readonly keys = new Map<string, Holder>();
  private sweptAt = Number.NEGATIVE_INFINITY;
  /** The caller each key hash was last looked up as. */
  private readonly callers = new Map<string, { caller: IngestCaller; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Counts a request as in progress for its tenant and key, or refuses it when either already
   * has its limit in progress, or when a bucket does not hold as many tokens as the key's last
   * batch had events (at most the burst). An admitted request reserves that many tokens until
   * its events are counted (`spend`), so no more requests are read and parsed at once than the
   * buckets can pay for. `release` ends it (once) and gives back a reservation not spent.
   */
  enter(caller: IngestCaller): AdmittedIngest | { refused: LimitRefusal } {
    const now = this.now();
    const tenant = this.holder(this.tenants, caller.tenant, caller.limits.tenant, now);
    const key = this.holder(this.keys, caller.keyId, caller.limits.key, now);
    const refused = this.entryRefusal(caller, tenant, key, now);
    if (refused) return { refused };
    tenant.inProgress++;
    key.inProgress++;
    let reserved = key.lastBatch;
    tenant.bucket.take(reserved, now);
    key.bucket.take(reserved, now);
    const giveBack = () => {
      if (reserved === 0) return;
      const at = this.now();
      tenant.bucket.give(reserved, at);
      key.bucket.give(reserved, at);
      reserved = 0;
    };
    let released = false;
    return {
      spend: (events) => {
        giveBack();
        if (events <= 0) return null;
        const at = this.now();
        key.lastBatch = events;
        const over = this.rateRefusal(caller, tenant, key, events, at, false);
        if (over) return over;
        tenant.bucket.take(events, at);
        key.bucket.take(events, at);
        return null;
      },
      release: () => {
        if (released) return;
        released = true;
        giveBack();
        tenant.inProgress--;
        key.inProgress--;
        this.sweep();
      },
    };
  }

  /** Remembers what the key with this hash was looked up as, for `refusalBeforeLookup`. */
  remember(keyHash: string, caller: IngestCaller): void {
    this.callers.delete(keyHash);
    this.callers.set(keyHash, { caller, at: this.now() });
    if (this.callers.size > REMEMBERED_KEYS) {
      const oldest = this.callers.keys().next().value;
      if (oldest !== undefined) this.callers.delete(oldest);
    }
  }

  /** Forgets a key (its lookup found no active key). */
  forget(keyHash: string): void {
    this.callers.delete(keyHash);
  }

  /**
   * The refusal `enter` would answer for the key with this hash, from the limits its lookup
   * read less than `REMEMBERED_LOOKUP_MS` ago; null when it may go on to its lookup.
   */
  refusalBeforeLookup(keyHash: string): LimitRefusal | null {
    const remembered = this.callers.get(keyHash);
    const now = this.now();
    if (!remembered || now - remembered.at >= REMEMBERED_LOOKUP_MS) return null;
    const { caller } = remembered;
    // The remembered limits only fill a bucket this process forgot; a bucket it holds keeps the
    // limits of the latest lookup (an older one must not set them back).
    const tenant = this.holder(this.tenants, caller.tenant, caller.limits.tenant, now, false);
    const key = this.holder(this.keys, caller.keyId, caller.limits.key, now, false);
    return this.entryRefusal(caller, tenant, key, now);
  }

  private entryRefusal(
    caller: IngestCaller,
    tenant: Holder,
    key: Holder,
    now: number,
  ): LimitRefusal | null {
    for (const [scope, holder, set] of [
      ["tenant", tenant, caller.limits.tenant],
      ["key", key, caller.limits.key],
    ] as const) {
      if (holder.inProgress >= set.concurrentRequests) {
        return {
          tenant: caller.tenant,
          message: `${whoOf(caller, scope)} already has ${whole(set.concurrentRequests)} ingest requests in progress on this server, its limit of concurrent requests; nothing of this request was stored. Retry after ${CONCURRENCY_RETRY_SECONDS} s, and send fewer requests at once (wait for answers before sending more). ${ASK_ADMIN}`,
          retryAfterSeconds: CONCURRENCY_RETRY_SECONDS,
        };
      }
    }
    // The body is not read yet: the request is taken to be as large as the key's last batch.
    return this.rateRefusal(caller, tenant, key, key.lastBatch, now, true);
  }

  private rateRefusal(
    caller: IngestCaller,
    tenant: Holder,
    key: Holder,
    events: number,
    now: number,
    beforeReading: boolean,
  ): LimitRefusal | null {
    const tenantWait = tenant.bucket.waitMs(events, now);
    const keyWait = key.bucket.waitMs(events, now);
    if (tenantWait <= 0 && keyWait <= 0) return null;
    const scope = tenantWait >= keyWait ? "tenant" : "key";
    const set = caller.limits[scope];
    const wait = retryAfterSeconds(Math.max(tenantWait, keyWait));
    const what = beforeReading
      ? `this request was refused before it was read (the bucket holds fewer than the ${whole(Math.min(events, set.burst))} events of the key's last batch) and nothing of it was stored`
      : `this batch of ${whole(events)} events was refused and nothing of it was stored`;
    return {
      tenant: caller.tenant,
      message: `${whoOf(caller, scope)} is over its ingest limit of ${whole(set.eventsPerSecond)} events per second (burst ${whole(set.burst)}); ${what}. Retry after ${wait} s, and send at most ${whole(set.eventsPerSecond)} events per second on average. ${ASK_ADMIN}`,
      retryAfterSeconds: wait,
    };
  }

  private holder(
    holders: Map<string, Holder>,
    id: string,
    set: IngestLimitSet,
    now: number,
    update = true,
  ): Holder {
    const limit = { ratePerSecond: set.eventsPerSecond, burst: set.burst };
    let holder = holders.get(id);
    if (!holder) {
      holder = { bucket: new TokenBucket(limit, now), inProgress: 0, lastBatch: 1 };
      holders.set(id, holder);
    } else if (update) {
      holder.bucket.setLimit(limit, now);
    }
    return holder;
  }

  /** Forgets holders with nothing in progress and a full bucket (they start full anyway). */
  private sweep(): void {
    const now = this.now();
    if (now - this.sweptAt < 1_000) return;
    this.sweptAt = now;
    for (const holders of [this.tenants, this.keys]) {
      if (holders.size <= SWEEP_ABOVE) continue;
      for (const [id, holder] of holders) {
        if (holder.inProgress === 0 && holder.bucket.isFull(now)) holders.delete(id);
      }
    }
  }

  /** Holders remembered (for tests). */
  get size(): { tenants: number; keys: number } {
    return { tenants: this.tenants.size, keys: this.keys.size };
  }
}
