import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DownloadSlots, isRelease, type ReleaseSlot, type SlotRefusal } from "./download-slots";

function granted(result: ReleaseSlot | SlotRefusal): ReleaseSlot {
  if (!isRelease(result)) throw new Error(`expected a slot, got ${JSON.stringify(result)}`);
  return result;
}

describe("DownloadSlots", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("gives free slots at once and refuses past the slots and the line", async () => {
    const slots = new DownloadSlots(2, 1, 5_000);
    granted(await slots.acquire());
    granted(await slots.acquire());
    void slots.acquire();
    expect(slots.status()).toEqual({ streaming: 2, waiting: 1 });
    expect(await slots.acquire()).toEqual({ streaming: 2, waiting: 1 });
    expect(slots.status()).toEqual({ streaming: 2, waiting: 1 });
  });

  it("serves the line in order as slots are released, and a release counts once", async () => {
    const slots = new DownloadSlots(1, 3, 5_000);
    const first = granted(await slots.acquire());
    const order: string[] = [];
    const second = slots.acquire().then((result) => {
      order.push("second");
      return granted(result);
    });
    const third = slots.acquire().then((result) => {
      order.push("third");
      return granted(result);
    });
    first();
    first();
    const releaseSecond = await second;
    expect(order).toEqual(["second"]);
    expect(slots.status()).toEqual({ streaming: 1, waiting: 1 });
    releaseSecond();
    (await third)();
    expect(order).toEqual(["second", "third"]);
    expect(slots.status()).toEqual({ streaming: 0, waiting: 0 });
  });

  it("refuses a download that waited too long and leaves the line", async () => {
    const slots = new DownloadSlots(1, 3, 5_000);
    const first = granted(await slots.acquire());
    const late = slots.acquire();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(slots.status().waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await late).toEqual({ streaming: 1, waiting: 0 });
    first();
    expect(slots.status()).toEqual({ streaming: 0, waiting: 0 });
  });

  it("takes a download out of the line when its client goes away", async () => {
    const slots = new DownloadSlots(1, 3, 5_000);
    const first = granted(await slots.acquire());
    const abort = new AbortController();
    const gone = slots.acquire(abort.signal);
    const next = slots.acquire();
    abort.abort();
    expect(isRelease(await gone)).toBe(false);
    first();
    granted(await next)();
    expect(slots.status()).toEqual({ streaming: 0, waiting: 0 });
  });

  it("lets no newcomer pass a download already waiting", async () => {
    const slots = new DownloadSlots(1, 3, 5_000);
    const first = granted(await slots.acquire());
    const waiting = slots.acquire();
    first();
    const newcomer = slots.acquire();
    granted(await waiting)();
    granted(await newcomer)();
    expect(slots.status()).toEqual({ streaming: 0, waiting: 0 });
  });
});
