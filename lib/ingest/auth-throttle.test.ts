import { describe, expect, it } from "vitest";
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
