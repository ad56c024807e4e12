/**
 * A token bucket for events per second with a burst, on an injected clock (ms).
 *
 * The bucket holds at most `burst` tokens and gains `ratePerSecond` a second. A batch of n
 * events costs n tokens. It is admitted when the bucket holds at least min(n, burst) tokens,
 * and then all n are taken: a batch larger than the burst is admissible from a full bucket and
 * leaves it in debt (below zero), which the refill pays back before the next batch. So over
 * any long stretch the events admitted stay within `ratePerSecond`, whatever the batch sizes,
 * and no batch size is refused for ever.
 */
export interface BucketLimit {
  /** Tokens (events) gained per second. */
  ratePerSecond: number;
  /** Tokens the bucket holds when full. */
  burst: number;
}

/** The answer to `take`: taken, or how long until the bucket holds enough. */
export type TakeResult = { ok: true } | { ok: false; waitMs: number };

/** Shortfalls up to this many tokens are floating-point rounding of the refills, not a wait. */
const ROUNDING_TOKENS = 1e-6;

export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private limit: BucketLimit,
    now: number,
  ) {
    this.tokens = limit.burst;
    this.updatedAt = now;
  }

  /**
   * Changes the limit (an admin changed it): the bucket starts again full at the new burst, so a
   * raised limit is not held back by a debt run up under the old one.
   */
  setLimit(limit: BucketLimit, now: number): void {
    if (limit.ratePerSecond === this.limit.ratePerSecond && limit.burst === this.limit.burst) {
      return;
    }
    this.limit = limit;
    this.tokens = limit.burst;
    this.updatedAt = Math.max(this.updatedAt, now);
  }

  /** Tokens held at `now` (negative while in debt). */
  level(now: number): number {
    this.refill(now);
    return this.tokens;
  }

  /** True when the bucket is full at `now` (it can be forgotten). */
  isFull(now: number): boolean {
    return this.level(now) >= this.limit.burst;
  }

  /**
   * Ms until the bucket holds `cost` tokens' worth of admission, min(cost, burst); 0 when it
   * already does.
   */
  waitMs(cost: number, now: number): number {
    const needed = Math.min(cost, this.limit.burst);
    const missing = needed - this.level(now);
    // Refills add fractions of a token: a shortfall within rounding error is none.
    if (missing <= ROUNDING_TOKENS) return 0;
    return (missing / this.limit.ratePerSecond) * 1000;
  }

  /** Takes `cost` tokens when admissible (see the class comment), else says how long to wait. */
  take(cost: number, now: number): TakeResult {
    const waitMs = this.waitMs(cost, now);
    if (waitMs > 0) return { ok: false, waitMs };
    this.tokens -= cost;
    return { ok: true };
  }

  /** Gives back `tokens` taken earlier (a reservation not used), never beyond the burst. */
  give(tokens: number, now: number): void {
    this.refill(now);
    this.tokens = Math.min(this.limit.burst, this.tokens + tokens);
  }

  private refill(now: number): void {
    const elapsed = now - this.updatedAt;
    if (elapsed > 0) {
      this.tokens = Math.min(
        this.limit.burst,
        this.tokens + (elapsed / 1000) * this.limit.ratePerSecond,
      );
    }
    this.updatedAt = Math.max(this.updatedAt, now);
  }
}

/** Retry-After in whole seconds for a wait of `waitMs`: rounded up, at least 1. */
export function retryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}
