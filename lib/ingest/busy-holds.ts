/**
 * Pacing of the 503s a tenant gets when its requests would go past the parse budget
 * (`ParseBudget`), and, in an instance of its own, of the 429s it gets beyond its ingest
 * limits (`IngestLimiter`). Such a 503 is cheap — the body was not inflated — but not free: each
 * request still goes through the server's HTTP parsing, routing and key lookup, a few
 * milliseconds of the one thread every request shares. A client that resends at once,
 * ignoring `Retry-After`, with 24 requests in flight got about 180 answers a second and kept
 * that thread busy for everyone else. So a tenant's first refusal is sent at once, and every
 * further one within `BUSY_HOLD_MS` of the tenant's previous refusal is held for about
 * `BUSY_HOLD_MS` before it is sent: a timer, no CPU, so each connection of such a client gets
 * about one answer a second. About: each hold is half to one and a half times as long, at
 * random. Connections refused together would otherwise be answered together a second later,
 * resend together and be refused together again, every second: a convoy that handed the
 * thread two dozen requests at once, and a health check arriving behind them waited for all
 * of them (docs/RELIABILITY.md, "6 December 2026, later"). At most `MAX_HELD_BUSY` answers are held at once per process
 * (beyond that sent at once), and a held answer is let go when its client disconnects.
 * Pure bookkeeping: no I/O.
 */
import { wait } from "./auth-throttle";

/** How long a tenant's further refusals are held; equal to the 503's Retry-After. */
export const BUSY_HOLD_MS = 1_000;
/** Busy answers held at once per process (each an open request, a few kB). */
export const MAX_HELD_BUSY = 500;
/** Tenants remembered at once, the least recently refused forgotten first. */
const TRACKED_TENANTS = 10_000;

export class BusyHolds {
  private readonly lastRefused = new Map<string, number>();
  private held = 0;

  constructor(
    private readonly holdMs = BUSY_HOLD_MS,
    private readonly maxHeld = MAX_HELD_BUSY,
    private readonly now: () => number = () => performance.now(),
    /** A held answer waits `holdMs` times this: 0.5 to 1.5 at random, 1 on average. */
    private readonly spread: () => number = () => 0.5 + Math.random(),
  ) {}

  /** Busy answers being held now. */
  get heldAnswers(): number {
    return this.held;
  }

  /**
   * Resolves when the refusal of a request of `tenant` may be sent: at once for the tenant's
   * first refusal in `holdMs`, after about `holdMs` (or when `signal` aborts) for further ones.
   */
  async hold(tenant: string, signal?: AbortSignal): Promise<void> {
    const now = this.now();
    const last = this.lastRefused.get(tenant);
    this.lastRefused.delete(tenant);
    this.lastRefused.set(tenant, now);
    if (this.lastRefused.size > TRACKED_TENANTS) {
      const oldest = this.lastRefused.keys().next().value;
      if (oldest !== undefined) this.lastRefused.delete(oldest);
    }
    if (last === undefined || now - last >= this.holdMs) return;
    if (this.held >= this.maxHeld) return;
    this.held++;
    try {
      await wait(this.holdMs * this.spread(), signal);
    } finally {
      this.held--;
    }
  }
}
