import { describe, expect, it } from "vitest";
import { BusyHolds } from "./busy-holds";

describe("BusyHolds", () => {
  it("sends a tenant's first refusal at once and holds further ones within the hold time", async () => {
    let clock = 0;
    const holds = new BusyHolds(40, 10, () => clock);
    const first = performance.now();
    await holds.hold("a");
    expect(performance.now() - first).toBeLessThan(30);
    clock = 10;
    const second = performance.now();
    const held = holds.hold("a");
    expect(holds.heldAnswers).toBe(1);
    // Another tenant's first refusal is not held behind it.
    await holds.hold("b");
    expect(holds.heldAnswers).toBe(1);
    await held;
    expect(performance.now() - second).toBeGreaterThanOrEqual(35);
    expect(holds.heldAnswers).toBe(0);
    // Past the hold time since the last refusal, the next one is sent at once again.
    clock = 100;
    const later = performance.now();
    await holds.hold("a");
    expect(performance.now() - later).toBeLessThan(30);
  });

  it("holds at most maxHeld answers and lets one go when its client disconnects", async () => {
    const clock = 0;
    const holds = new BusyHolds(10_000, 2, () => clock);
    await holds.hold("a");
    const gone = new AbortController();
    const first = holds.hold("a", gone.signal);
    const alsoGone = new AbortController();
    const second = holds.hold("a", alsoGone.signal);
    expect(holds.heldAnswers).toBe(2);
    const started = performance.now();
    await holds.hold("a");
    expect(performance.now() - started).toBeLessThan(30);
    gone.abort();
    await first;
    expect(holds.heldAnswers).toBe(1);
    alsoGone.abort();
    await second;
    expect(holds.heldAnswers).toBe(0);
  });
});
