import { describe, expect, it } from "vitest";
import { retryAfterSeconds, TokenBucket } from "./token-bucket";

describe("TokenBucket", () => {
  it("starts full and admits its burst at once, then nothing more", () => {
    const bucket = new TokenBucket({ ratePerSecond: 100, burst: 500 }, 0);
    expect(bucket.take(300, 0)).toEqual({ ok: true });
    expect(bucket.take(200, 0)).toEqual({ ok: true });
    expect(bucket.level(0)).toBe(0);
    expect(bucket.take(1, 0)).toEqual({ ok: false, waitMs: 10 });
  });

  it("refills at its rate, never beyond the burst", () => {
    const bucket = new TokenBucket({ ratePerSecond: 100, burst: 500 }, 0);
    bucket.take(500, 0);
    expect(bucket.level(1_000)).toBe(100);
    expect(bucket.level(2_500)).toBe(250);
    expect(bucket.level(60_000)).toBe(500);
    expect(bucket.isFull(60_000)).toBe(true);
  });

  it("says how long until a batch fits, and takes nothing meanwhile", () => {
    const bucket = new TokenBucket({ ratePerSecond: 200, burst: 1_000 }, 0);
    bucket.take(1_000, 0);
    // 500 tokens at 200/s: 2.5 s.
    expect(bucket.take(500, 0)).toEqual({ ok: false, waitMs: 2_500 });
    expect(bucket.level(0)).toBe(0);
    expect(bucket.take(500, 2_499)).toMatchObject({ ok: false });
    expect(bucket.take(500, 2_500)).toEqual({ ok: true });
    expect(bucket.level(2_500)).toBe(0);
  });

  it("admits a batch above the burst from a full bucket and leaves it in debt", () => {
    const bucket = new TokenBucket({ ratePerSecond: 100, burst: 200 }, 0);
    expect(bucket.take(500, 0)).toEqual({ ok: true });
    expect(bucket.level(0)).toBe(-300);
    // The next batch of any size waits until the debt is repaid and its own tokens are in.
    expect(bucket.waitMs(1, 0)).toBe(3_010);
    expect(bucket.waitMs(500, 0)).toBe(5_000);
    // A batch above the burst needs a full bucket (200 tokens), not 500.
    expect(bucket.take(500, 4_999)).toMatchObject({ ok: false });
    expect(bucket.take(500, 5_000)).toEqual({ ok: true });
    expect(bucket.level(5_000)).toBe(-300);
  });

  it("keeps the events admitted within the rate over a long stretch, whatever the batch size", () => {
    const bucket = new TokenBucket({ ratePerSecond: 1_000, burst: 2_000 }, 0);
    let admitted = 0;
    // A client retrying every 10 ms with batches of 3,000 (above the burst) for 60 s.
    for (let now = 0; now <= 60_000; now += 10) {
      if (bucket.take(3_000, now).ok) admitted += 3_000;
    }
    expect(admitted).toBeLessThanOrEqual(2_000 + 1_000 * 60 + 3_000);
    expect(admitted).toBeGreaterThanOrEqual(1_000 * 60 - 3_000);
  });

  it("starts again full when its limit changes, debt forgiven", () => {
    const bucket = new TokenBucket({ ratePerSecond: 100, burst: 1_000 }, 0);
    bucket.take(3_000, 0);
    bucket.setLimit({ ratePerSecond: 100, burst: 1_000 }, 0);
    expect(bucket.level(0)).toBe(-2_000);
    bucket.setLimit({ ratePerSecond: 10, burst: 300 }, 0);
    expect(bucket.level(0)).toBe(300);
    bucket.take(300, 0);
    expect(bucket.waitMs(10, 0)).toBe(1_000);
  });
});

describe("retryAfterSeconds", () => {
  it("rounds a wait up to whole seconds, at least 1", () => {
    expect(retryAfterSeconds(0)).toBe(1);
    expect(retryAfterSeconds(10)).toBe(1);
    expect(retryAfterSeconds(1_000)).toBe(1);
    expect(retryAfterSeconds(1_001)).toBe(2);
    expect(retryAfterSeconds(2_500)).toBe(3);
  });
});
