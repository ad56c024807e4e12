/**
 * Throttling of failed API-key attempts per client address. Pure bookkeeping: no I/O.
 *
 * Each address has a bucket of `AUTH_FAILURE_BURST` attempts that refills at
 * `AUTH_FAILURE_REFILL_PER_SECOND`; every 401 takes one. An address whose bucket is empty is
 * answered 429 with Retry-After before its key is even looked up, so guessing keys costs the
 * database nothing — except for keys this process has recently seen succeed: a working agent
 * behind the same address (a shared NAT, a proxy) keeps working. A valid key that this
 * process has not seen yet waits like the others until the bucket refills.
 *
 * An address that keeps sending after `REFUSALS_SENT_AT_ONCE` 429s (a client ignoring
 * Retry-After; the first few may have been on their way already) has each further 429 held
 * for `REFUSAL_HOLD_MS` before it is sent. Holding is a timer and costs no CPU, so such a
 * client can no longer make the server answer it at full speed: each of its connections gets
 * one answer a second. At most `MAX_HELD_REFUSALS` answers are held at once per process;
 * beyond that they are sent at once.
 *
 * Memory is bounded: at most `TRACKED_ADDRESSES` buckets and `REMEMBERED_KEYS` key hashes,
 * the least recently used forgotten first (a forgotten bucket starts full again).
 *
 * Per process: with `WEB_CONCURRENCY=N` (scripts/start.mjs) an address has N buckets, one in
 * each process its connections reach; guessing an API key (192 random bits) stays hopeless at N times
 * the rate.
 */

/** Wrong keys an address may send in a burst: more than any misconfigured agent needs to notice. */
export const AUTH_FAILURE_BURST = 20;
/**
 * Attempts regained per second once the burst is spent: guessing slows to one every 10 s,
 * and an agent with a wrong key has long since seen its 401s.
 */
export const AUTH_FAILURE_REFILL_PER_SECOND = 0.1;
/** Addresses tracked at once (a bucket is ~100 bytes, so ~1 MB at most). */
export const TRACKED_ADDRESSES = 10_000;
/** Hashes of keys that recently authenticated, let through a throttled address. */
export const REMEMBERED_KEYS = 10_000;
/** 429s an address gets at once before further ones are held (requests already sent). */
export const REFUSALS_SENT_AT_ONCE = 10;
/** How long each further 429 of an address that has not waited is held. */
export const REFUSAL_HOLD_MS = 1_000;
/** 429 answers held at once per process (each an open request, a few kB). */
export const MAX_HELD_REFUSALS = 500;
/** Longest address kept as a bucket's name (X-Forwarded-For is whatever a client sends). */
const ADDRESS_MAX = 100;

interface Bucket {
  tokens: number;
  at: number;
  /** 429s sent to this address since its last 401. */
  refused?: number;
}

export interface AuthThrottleOptions {
  burst?: number;
  refillPerSecond?: number;
  maxAddresses?: number;
  maxKeys?: number;
  sentAtOnce?: number;
  holdMs?: number;
  maxHeld?: number;
  now?: () => number;
}

/** Moves `key` to the most recent end of `map` and drops the oldest entries beyond `max`. */
function touch<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) break;
    map.delete(oldest);
  }
}

/** Resolves after `ms`, or as soon as `signal` aborts (the client went away). */
export function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

export class AuthThrottle {
  private readonly buckets = new Map<string, Bucket>();
  private readonly knownKeys = new Map<string, true>();
  private readonly burst: number;
  private readonly refillPerSecond: number;
  private readonly maxAddresses: number;
  private readonly maxKeys: number;
  private readonly sentAtOnce: number;
  private readonly holdMs: number;
  private readonly maxHeld: number;
  private readonly now: () => number;
  private held = 0;

  constructor(options: AuthThrottleOptions = {}) {
    this.burst = options.burst ?? AUTH_FAILURE_BURST;
    this.refillPerSecond = options.refillPerSecond ?? AUTH_FAILURE_REFILL_PER_SECOND;
    this.maxAddresses = options.maxAddresses ?? TRACKED_ADDRESSES;
    this.maxKeys = options.maxKeys ?? REMEMBERED_KEYS;
    this.sentAtOnce = options.sentAtOnce ?? REFUSALS_SENT_AT_ONCE;
    this.holdMs = options.holdMs ?? REFUSAL_HOLD_MS;
    this.maxHeld = options.maxHeld ?? MAX_HELD_REFUSALS;
    this.now = options.now ?? Date.now;
  }

  /** Addresses currently tracked (for tests of the memory bound). */
  get trackedAddresses(): number {
    return this.buckets.size;
  }

  /** 429 answers being held now (for tests of the bound). */
  get heldRefusals(): number {
    return this.held;
  }

  private tokens(address: string): number {
    const bucket = this.buckets.get(address.slice(0, ADDRESS_MAX));
    if (!bucket) return this.burst;
    const elapsed = Math.max(0, this.now() - bucket.at) / 1000;
    return Math.min(this.burst, bucket.tokens + elapsed * this.refillPerSecond);
  }

  /** Whole seconds until `address` may try an unknown key again; 0 when it may now. */
  retryAfterSeconds(address: string): number {
    const tokens = this.tokens(address);
    if (tokens >= 1) return 0;
    return Math.max(1, Math.ceil((1 - tokens) / this.refillPerSecond));
  }

  /**
   * Records a 429 for `address` and waits before it is sent: not at all for the first
   * `sentAtOnce` since the address's last 401, `holdMs` for every further one (less if `signal`
   * aborts first, the client having gone), not at all when `maxHeld` answers are already held.
   */
  async holdRefusal(address: string, signal?: AbortSignal): Promise<void> {
    const bucket = this.buckets.get(address.slice(0, ADDRESS_MAX));
    if (!bucket) return;
    bucket.refused = (bucket.refused ?? 0) + 1;
    if (bucket.refused <= this.sentAtOnce) return;
    if (this.held >= this.maxHeld) return;
    this.held++;
    try {
      await wait(this.holdMs, signal);
    } finally {
      this.held--;
    }
  }

  /** Records a 401 for `address`. */
  failed(address: string): void {
    const name = address.slice(0, ADDRESS_MAX);
    const tokens = Math.max(0, this.tokens(name) - 1);
    touch(this.buckets, name, { tokens, at: this.now() }, this.maxAddresses);
  }

  /** Records a key (by its hash) that authenticated. */
  succeeded(keyHash: string): void {
    touch(this.knownKeys, keyHash, true, this.maxKeys);
  }

  /** Forgets a key that no longer authenticates (revoked). */
  forget(keyHash: string): void {
    this.knownKeys.delete(keyHash);
  }

  isKnown(keyHash: string): boolean {
    return this.knownKeys.has(keyHash);
  }
}

/**
 * The client's address as `next start` passes it on: Next.js sets `X-Forwarded-For` to the
 * socket's address only when the request has no such header (`??=` in its base server), so
 * a client that connects directly can write the header itself. With `trustedProxies` proxies
 * in front that each append the address they saw, the client is the entry that many places
 * from the right; directly (0), the last entry is taken, which the client may have chosen.
 */
export function clientAddress(headers: Headers, trustedProxies: number): string {
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length === 0) return "unknown";
  const position = Math.max(0, entries.length - Math.max(1, trustedProxies));
  return entries[position] ?? "unknown";
}
