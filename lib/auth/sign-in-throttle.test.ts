import { describe, expect, it } from "vitest";
import { ACCOUNT_BURST, ADDRESS_BURST, SignInThrottle } from "./sign-in-throttle";

function clock(start = 0) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("SignInThrottle", () => {
  it("lets an account fail its burst, then asks it to wait from any address", () => {
    const time = clock();
    const throttle = new SignInThrottle(time.now);
    for (let i = 0; i < ACCOUNT_BURST; i += 1) {
      expect(throttle.retryAfterSeconds(`10.0.0.${i}`, "a@example.test")).toBe(0);
      throttle.failed(`10.0.0.${i}`, "a@example.test");
    }
    expect(throttle.retryAfterSeconds("10.0.1.1", "A@Example.test")).toBe(60);
    // Another account from a fresh address is not affected.
    expect(throttle.retryAfterSeconds("10.0.1.1", "b@example.test")).toBe(0);
    time.advance(60_000);
    expect(throttle.retryAfterSeconds("10.0.1.1", "a@example.test")).toBe(0);
  });

  it("lets an address fail its burst across accounts, then asks it to wait", () => {
    const throttle = new SignInThrottle(clock().now);
    for (let i = 0; i < ADDRESS_BURST; i += 1) throttle.failed("10.0.0.1", `u${i}@example.test`);
    expect(throttle.retryAfterSeconds("10.0.0.1", "new@example.test")).toBe(30);
    expect(throttle.retryAfterSeconds("10.0.0.2", "new@example.test")).toBe(0);
  });
});
