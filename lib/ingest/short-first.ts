/**
 * Short requests ahead of bulk work on the server's one thread. An ingest request of a
 * few hundred events spends most of its life waiting: for its body, its API key lookup and the
 * half-dozen round trips of its group-commit transaction. Each time one of those answers, its
 * callback waits for the turn of the event loop in progress — and under a bulk load every
 * turn is bulk work: a 1,000-event batch being checked 5 ms at a time, a 5 MiB body parsed
 * 256 KiB at a time, a CSV download written 100 rows at a time. A request that needs a dozen
 * turns then waits behind a dozen slices of someone else's work, and behind the garbage they
 * leave.
 *
 * So bulk work takes its turns through `turn()`, which waits while a short request is in
 * flight: it resolves once none is (the last one's answer written first), and never later than
 * `maxWaitMs` after it was called, so bulk work slows down under a stream of short requests but
 * never stops. Short requests mark themselves with `enter()` for as long as they are being
 * served, and not while they wait in their tenant's line (`TenantSlots`) behind a batch of
 * their own tenant, which would otherwise be waiting for them.
 */
import { nextTurn } from "./cpu-slice";

/** Ingest bodies of at most this many bytes (as sent and as decoded) are short requests. */
export const SHORT_BODY_BYTES = 1024 * 1024;

/**
 * The longest bulk work waits for short requests before it takes one more turn anyway. A
 * 100-event batch is served in 30–60 ms on an idle server, so a turn is rarely held this long.
 */
export const BULK_MAX_WAIT_MS = 50;

export class ShortFirst {
  private inFlight = 0;
  private readonly waiting = new Set<() => void>();

  constructor(readonly maxWaitMs: number = BULK_MAX_WAIT_MS) {}

  /** Short requests being served now. */
  get active(): number {
    return this.inFlight;
  }

  /** Bulk turns waiting now. */
  get waitingTurns(): number {
    return this.waiting.size;
  }

  /** Marks one short request in flight; the returned function ends it (calling it again does nothing). */
  enter(): () => void {
    this.inFlight += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight -= 1;
      if (this.inFlight === 0) this.wakeAll();
    };
  }

  /**
   * One turn of bulk work: resolves on a later turn of the event loop, once no short request is
   * in flight or `maxWaitMs` have passed, whichever comes first.
   */
  turn(): Promise<void> {
    if (this.inFlight === 0) return nextTurn();
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        // setImmediate: callbacks already due (the short request's answer) run first.
        setImmediate(resolve);
      };
      const timer = setTimeout(wake, this.maxWaitMs);
      this.waiting.add(wake);
    });
  }

  private wakeAll(): void {
    for (const wake of [...this.waiting]) wake();
  }
}

const globalForShortFirst = globalThis as unknown as { routelensShortFirst?: ShortFirst };

/**
 * The process's one `ShortFirst`, shared by every route bundle (ingest, OpenTelemetry ingest,
 * CSV downloads), which is why it lives on `globalThis`.
 */
export function shortFirst(): ShortFirst {
  globalForShortFirst.routelensShortFirst ??= new ShortFirst();
  return globalForShortFirst.routelensShortFirst;
}
