import { describe, expect, it } from "vitest";
import { TenantSlots } from "./tenant-slots";

/** Lets every pending promise callback run. */
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("TenantSlots", () => {
  it("lets a tenant's requests past the bound wait in line, first come first served", async () => {
    const slots = new TenantSlots(2);
    const first = await slots.acquire("a");
    const second = await slots.acquire("a");
    const order: number[] = [];
    const inOrder = (n: number) => (release: () => void) => {
      order.push(n);
      return release;
    };
    const third = slots.acquire("a").then(inOrder(3));
    const fourth = slots.acquire("a").then(inOrder(4));
    await flush();
    expect(order).toEqual([]);
    expect(slots.activeFor("a")).toBe(2);
    expect(slots.waitingFor("a")).toBe(2);

    second();
    await flush();
    expect(order).toEqual([3]);
    expect(slots.activeFor("a")).toBe(2);
    first();
    await flush();
    expect(order).toEqual([3, 4]);
    expect(slots.waitingFor("a")).toBe(0);

    (await third)();
    (await fourth)();
    expect(slots.activeFor("a")).toBe(0);
  });

  it("keeps each tenant's line apart", async () => {
    const slots = new TenantSlots(1);
    const a = await slots.acquire("a");
    let bHas = false;
    const b = slots.acquire("b").then((release) => {
      bHas = true;
      return release;
    });
    await flush();
    expect(bHas).toBe(true);
    expect(slots.activeFor("a")).toBe(1);
    expect(slots.activeFor("b")).toBe(1);
    a();
    (await b)();
    expect(slots.activeFor("a")).toBe(0);
    expect(slots.activeFor("b")).toBe(0);
  });

  it("gives a slot back once however often it is released", async () => {
    const slots = new TenantSlots(1);
    const release = await slots.acquire("a");
    let waiterHas = false;
    const waiter = slots.acquire("a").then((r) => {
      waiterHas = true;
      return r;
    });
    release();
    release();
    await flush();
    expect(waiterHas).toBe(true);
    expect(slots.activeFor("a")).toBe(1);
    let thirdHas = false;
    void slots.acquire("a").then(() => {
      thirdHas = true;
    });
    await flush();
    expect(thirdHas).toBe(false);
    (await waiter)();
    await flush();
    expect(thirdHas).toBe(true);
  });
});
