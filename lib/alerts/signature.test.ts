import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { nextAttemptAt, RETRY_FOR_MS } from "./backoff";
import { generateSecret, signedHeaders, verifySignature } from "./signature";

describe("webhook signature", () => {
  const secret = "whsec_example";
  const body = '{"type":"alert.firing"}';
  const at = new Date("2026-12-01T10:00:00Z");

  it("is sha256=<hex HMAC-SHA256 over '<timestamp>.<body>'>, the timestamp in Unix seconds", () => {
    const headers = signedHeaders(secret, body, at);
    expect(headers["X-Routelens-Timestamp"]).toBe("1796119200");
    const hex = createHmac("sha256", secret).update(`1796119200.${body}`).digest("hex");
    expect(headers["X-Routelens-Signature"]).toBe(`sha256=${hex}`);
  });

  it("verifies the right body and refuses a changed body, another secret or an old timestamp", () => {
    const headers = signedHeaders(secret, body, at);
    const timestamp = headers["X-Routelens-Timestamp"] as string;
    const signature = headers["X-Routelens-Signature"] as string;
    expect(verifySignature(secret, timestamp, body, signature, at)).toBe(true);
    expect(verifySignature(secret, timestamp, `${body} `, signature, at)).toBe(false);
    expect(verifySignature("whsec_other", timestamp, body, signature, at)).toBe(false);
    expect(
      verifySignature(secret, timestamp, body, signature, new Date(at.getTime() + 301_000)),
    ).toBe(false);
    expect(verifySignature(secret, "1e9", body, signature, at)).toBe(false);
  });

  it("generates distinct secrets of 32 random bytes", () => {
    const a = generateSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(generateSecret()).not.toBe(a);
  });
});

describe("delivery backoff", () => {
  const created = new Date("2026-12-01T10:00:00Z");

  it("doubles from the base gap, at most an hour apart", () => {
    expect(nextAttemptAt(1, created, created, 30_000)).toEqual(new Date("2026-12-01T10:00:30Z"));
    expect(nextAttemptAt(3, created, created, 30_000)).toEqual(new Date("2026-12-01T10:02:00Z"));
    expect(nextAttemptAt(20, created, created, 30_000)).toEqual(new Date("2026-12-01T11:00:00Z"));
  });

  it("gives up once the next attempt would fall beyond 24 hours after the delivery was created", () => {
    const late = new Date(created.getTime() + RETRY_FOR_MS - 10_000);
    expect(nextAttemptAt(30, created, late, 30_000)).toBeNull();
    expect(nextAttemptAt(1, created, late, 5_000)).toEqual(
      new Date(created.getTime() + RETRY_FOR_MS - 5_000),
    );
  });
});
