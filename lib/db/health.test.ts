import { describe, expect, it } from "vitest";
import { sharedWhileInFlight } from "./health";

describe("sharedWhileInFlight", () => {
  it("runs the probe once for calls made while it is in flight, and again after", async () => {
    let runs = 0;
    let finish: (value: number) => void = () => {};
    const probe = sharedWhileInFlight(() => {
      runs++;
      return new Promise<number>((resolve) => {
        finish = resolve;
      });
    });
    const first = probe();
    const second = probe();
    expect(runs).toBe(1);
    finish(7);
    expect(await Promise.all([first, second])).toEqual([7, 7]);

    const third = probe();
    expect(runs).toBe(2);
    finish(8);
    expect(await third).toBe(8);
  });

  it("starts afresh after a run that failed", async () => {
    let runs = 0;
    const probe = sharedWhileInFlight(async () => {
      runs++;
      if (runs === 1) throw new Error("gone");
      return "ok";
    });
    await expect(probe()).rejects.toThrow("gone");
    expect(await probe()).toBe("ok");
    expect(runs).toBe(2);
  });
});
