/**
 * A cap on CSV downloads streaming at once in one process, with a short first-in-first-out
 * wait for a free slot. Writing CSV is synchronous CPU work (a 20,000-row run is about 1 s of
 * it); every download in flight puts one such step in front of each other request of the
 * process, so the cap bounds how long ingest and health checks wait behind downloads.
 */

/** Gives a slot back; calling it again does nothing. */
export type ReleaseSlot = () => void;

/** Why a download did not get a slot. */
export interface SlotRefusal {
  /** Downloads streaming when it was refused. */
  streaming: number;
  /** Downloads waiting for a slot when it was refused. */
  waiting: number;
}

interface Waiter {
  grant: (release: ReleaseSlot) => void;
  refuse: () => void;
}

export class DownloadSlots {
  private streaming = 0;
  private readonly waiters: Waiter[] = [];

  constructor(
    /** Downloads that may stream at once. */
    readonly slots: number,
    /** Downloads that may wait for a slot; one more is refused at once. */
    readonly maxWaiting: number,
    /** How long a download waits for a slot before it is refused. */
    readonly maxWaitMs: number,
  ) {}

  /** Downloads streaming now and waiting now. */
  status(): SlotRefusal {
    return { streaming: this.streaming, waiting: this.waiters.length };
  }

  /**
   * A slot, at once or after waiting in line (at most `maxWaitMs`); a refusal when the line is
   * full, the wait runs out, or `signal` aborts (the client went away) while waiting.
   */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot | SlotRefusal> {
    if (this.streaming < this.slots && this.waiters.length === 0) {
      return Promise.resolve(this.take());
    }
    if (this.waiters.length >= this.maxWaiting || signal?.aborted) {
      return Promise.resolve(this.status());
    }
    return new Promise((resolve) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", refuse);
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
      };
      const refuse = () => {
        leave();
        resolve(this.status());
      };
      const waiter: Waiter = {
        grant: (release) => {
          leave();
          resolve(release);
        },
        refuse,
      };
      const timer = setTimeout(refuse, this.maxWaitMs);
      signal?.addEventListener("abort", refuse, { once: true });
      this.waiters.push(waiter);
    });
  }

  private take(): ReleaseSlot {
    this.streaming++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.streaming--;
      const next = this.waiters[0];
      if (next) next.grant(this.take());
    };
  }
}

/** Whether `acquire` gave a slot. */
export function isRelease(result: ReleaseSlot | SlotRefusal): result is ReleaseSlot {
  return typeof result === "function";
}
