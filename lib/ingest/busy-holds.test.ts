import { describe, expect, it } from "vitest";
import { BusyHolds } from "./busy-holds";

describe("BusyHolds", () => {
  it("sends a tenant's first refusal at once and holds further ones within the hold time", async () => {
    let clock = 0;
    const holds = new BusyHolds(
      40,
      10,
      () => clock,
      () => 1,
    );
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
    const holds = new BusyHolds(
      10_000,
      2,
      () => clock,
      () => 1,
    );
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

  it("holds each answer half to one and a half times the hold time, so that held answers spread out", async () => {
    const clock = 0;
    const spreads = [0.5, 1.5];
    const holds = new BusyHolds(
      40,
      10,
      () => clock,
      () => spreads.shift() ?? 1,
    );
    await holds.hold("a");
    const started = performance.now();
    const waited: number[] = [];
    await Promise.all(
      [holds.hold("a"), holds.hold("a")].map((held) =>
        held.then(() => waited.push(performance.now() - started)),
      ),
    );
    expect(waited[0]).toBeGreaterThanOrEqual(15);
    expect(waited[0]).toBeLessThan(45);
    expect(waited[1]).toBeGreaterThanOrEqual(55);
  });

  it("lets answers held together go apart by default", async () => {
    const holds = new BusyHolds(100, 100, () => 0);
    await holds.hold("a");
    const started = performance.now();
    const waited = await Promise.all(
      Array.from({ length: 20 }, () => holds.hold("a").then(() => performance.now() - started)),
    );
    expect(Math.min(...waited)).toBeGreaterThanOrEqual(45);
    // Twenty holds all within 20 % of the hold time: about one chance in a hundred million.
    expect(Math.min(...waited)).toBeLessThan(80);
    expect(Math.max(...waited)).toBeGreaterThan(120);
    expect(Math.max(...waited)).toBeLessThan(250);
  });
});
