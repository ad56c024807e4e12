import { afterEach, describe, expect, it, vi } from "vitest";
import { AuthThrottle, clientAddress } from "./auth-throttle";

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("AuthThrottle", () => {
  it("lets a burst of failures through, then asks the address to wait", () => {
    const time = clock();
    const throttle = new AuthThrottle({ burst: 3, refillPerSecond: 0.5, now: time.now });
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfterSeconds("203.0.113.7")).toBe(0);
      throttle.failed("203.0.113.7");
    }
    expect(throttle.retryAfterSeconds("203.0.113.7")).toBe(2);
    expect(throttle.retryAfterSeconds("198.51.100.2")).toBe(0);
    time.advance(1_000);
    expect(throttle.retryAfterSeconds("203.0.113.7")).toBe(1);
    time.advance(1_000);
    expect(throttle.retryAfterSeconds("203.0.113.7")).toBe(0);
  });

  it("remembers keys that authenticated until they are forgotten", () => {
    const throttle = new AuthThrottle();
    expect(throttle.isKnown("hash-a")).toBe(false);
    throttle.succeeded("hash-a");
    expect(throttle.isKnown("hash-a")).toBe(true);
    throttle.forget("hash-a");
    expect(throttle.isKnown("hash-a")).toBe(false);
  });

  it("tracks a bounded number of addresses and keys, dropping the least recent", () => {
    const throttle = new AuthThrottle({ burst: 1, maxAddresses: 100, maxKeys: 10 });
    for (let i = 0; i < 1_000; i++) throttle.failed(`10.0.${i >> 8}.${i & 255}`);
    expect(throttle.trackedAddresses).toBe(100);
    expect(throttle.retryAfterSeconds("10.0.3.231")).toBeGreaterThan(0);
    expect(throttle.retryAfterSeconds("10.0.0.0")).toBe(0);
    for (let i = 0; i < 20; i++) throttle.succeeded(`hash-${i}`);
    expect(throttle.isKnown("hash-19")).toBe(true);
    expect(throttle.isKnown("hash-0")).toBe(false);
  });
});

describe("AuthThrottle.holdRefusal", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** An address that spent its burst of one. */
  function throttled(options: { sentAtOnce?: number; holdMs?: number; maxHeld?: number } = {}) {
    const throttle = new AuthThrottle({ burst: 1, sentAtOnce: 1, ...options });
    throttle.failed("203.0.113.7");
    expect(throttle.retryAfterSeconds("203.0.113.7")).toBeGreaterThan(0);
    return throttle;
  }

  /** Whether `promise` has settled once pending callbacks ran (timers not advanced). */
  async function settled(promise: Promise<void>): Promise<boolean> {
    let done = false;
    void promise.then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    return done;
  }

  it("sends the first 429 of an address at once and holds every further one", async () => {
    vi.useFakeTimers();
    const throttle = throttled({ holdMs: 1_000 });
    expect(await settled(throttle.holdRefusal("203.0.113.7"))).toBe(true);

    const second = throttle.holdRefusal("203.0.113.7");
    const third = throttle.holdRefusal("203.0.113.7");
    expect(await settled(second)).toBe(false);
    expect(throttle.heldRefusals).toBe(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(third)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(second)).toBe(true);
    expect(await settled(third)).toBe(true);
    expect(throttle.heldRefusals).toBe(0);
  });

  it("sends the first sentAtOnce 429s of an address at once", async () => {
    vi.useFakeTimers();
    const throttle = throttled({ sentAtOnce: 3, holdMs: 1_000 });
    for (let i = 0; i < 3; i++) {
      expect(await settled(throttle.holdRefusal("203.0.113.7"))).toBe(true);
    }
    expect(await settled(throttle.holdRefusal("203.0.113.7"))).toBe(false);
  });

  it("holds nothing for an address that is not throttled, or again once it sent a 401", async () => {
    vi.useFakeTimers();
    const throttle = throttled({ holdMs: 1_000 });
    expect(await settled(throttle.holdRefusal("198.51.100.2"))).toBe(true);
    expect(await settled(throttle.holdRefusal("198.51.100.2"))).toBe(true);

    expect(await settled(throttle.holdRefusal("203.0.113.7"))).toBe(true);
    // A 401 after the bucket refilled starts a new spell: its first 429 is sent at once.
    throttle.failed("203.0.113.7");
    expect(await settled(throttle.holdRefusal("203.0.113.7"))).toBe(true);
    expect(await settled(throttle.holdRefusal("203.0.113.7"))).toBe(false);
  });

  it("holds at most maxHeld answers at once and sends the others at once", async () => {
    vi.useFakeTimers();
    const throttle = throttled({ holdMs: 1_000, maxHeld: 3 });
    await throttle.holdRefusal("203.0.113.7");
    const held = Array.from({ length: 3 }, () => throttle.holdRefusal("203.0.113.7"));
    expect(throttle.heldRefusals).toBe(3);
    expect(await settled(throttle.holdRefusal("203.0.113.7"))).toBe(true);
    expect(await settled(Promise.all(held).then(() => {}))).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(throttle.heldRefusals).toBe(0);
    // Room again: the next one is held.
    expect(await settled(throttle.holdRefusal("203.0.113.7"))).toBe(false);
  });

  it("stops holding when the client has gone", async () => {
    vi.useFakeTimers();
    const throttle = throttled({ holdMs: 60_000 });
    await throttle.holdRefusal("203.0.113.7");
    const gone = new AbortController();
    const held = throttle.holdRefusal("203.0.113.7", gone.signal);
    expect(await settled(held)).toBe(false);
    gone.abort();
    expect(await settled(held)).toBe(true);
    expect(throttle.heldRefusals).toBe(0);
  });
});

describe("clientAddress", () => {
  const headers = (xff?: string) => new Headers(xff ? { "x-forwarded-for": xff } : {});

  it("takes the address next start wrote, or the last entry without a proxy", () => {
    expect(clientAddress(headers("127.0.0.1"), 0)).toBe("127.0.0.1");
    expect(clientAddress(headers("1.2.3.4, 5.6.7.8"), 0)).toBe("5.6.7.8");
    expect(clientAddress(headers(), 0)).toBe("unknown");
  });

  it("counts trusted proxies from the right", () => {
    expect(clientAddress(headers("spoofed, 203.0.113.7"), 1)).toBe("203.0.113.7");
    expect(clientAddress(headers("spoofed, 203.0.113.7, 10.0.0.2"), 2)).toBe("203.0.113.7");
    expect(clientAddress(headers("203.0.113.7"), 2)).toBe("203.0.113.7");
  });
});
