import { describe, expect, it } from "vitest";
import { ShortFirst } from "./short-first";

/** Lets every pending callback already due run. */
const flush = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("ShortFirst", () => {
  it("gives bulk work its turn at once when no short request is in flight", async () => {
    const gate = new ShortFirst(10_000);
    let turned = false;
    const turn = gate.turn().then(() => {
      turned = true;
    });
    await flush();
    await flush();
    expect(turned).toBe(true);
    await turn;
  });

  it("holds bulk turns while short requests are in flight and lets them go when the last ends", async () => {
    const gate = new ShortFirst(10_000);
    const endFirst = gate.enter();
    const endSecond = gate.enter();
    expect(gate.active).toBe(2);
    const order: string[] = [];
    const turns = [gate.turn(), gate.turn()].map((turn, i) =>
      turn.then(() => order.push(`bulk ${i}`)),
    );
    await sleep(20);
    expect(order).toEqual([]);
    expect(gate.waitingTurns).toBe(2);

    endFirst();
    await sleep(20);
    expect(order).toEqual([]);

    endSecond();
    await Promise.all(turns);
    expect(order).toEqual(["bulk 0", "bulk 1"]);
    expect(gate.active).toBe(0);
    expect(gate.waitingTurns).toBe(0);
  });

  it("never holds a bulk turn longer than its bound, however many short requests keep coming", async () => {
    const gate = new ShortFirst(30);
    const endShort = gate.enter();
    const started = performance.now();
    await gate.turn();
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(25);
    expect(gate.active).toBe(1);
    expect(gate.waitingTurns).toBe(0);
    endShort();
  });

  it("ends a short request once, however often its end is called", async () => {
    const gate = new ShortFirst(10_000);
    const endFirst = gate.enter();
    const endSecond = gate.enter();
    endFirst();
    endFirst();
    expect(gate.active).toBe(1);
    let turned = false;
    const turn = gate.turn().then(() => {
      turned = true;
    });
    await sleep(10);
    expect(turned).toBe(false);
    endSecond();
    await turn;
    expect(turned).toBe(true);
  });
});
