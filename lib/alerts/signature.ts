/**
 * Webhook signatures (SPEC §9): `X-Routelens-Signature: sha256=<hex>` is the HMAC-SHA256, keyed
 * with the channel's secret, of `<timestamp>.<body>`, where `<timestamp>` is the
 * `X-Routelens-Timestamp` header (Unix seconds) and `<body>` the exact bytes of the request body.
 * A receiver recomputes it and compares in constant time, and refuses old timestamps (replays).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const TIMESTAMP_HEADER = "X-Routelens-Timestamp";
export const SIGNATURE_HEADER = "X-Routelens-Signature";

/** A new signing secret: 32 random bytes, shown once when the channel is created. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

export function signatureOf(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** The headers of a signed request sent at `at`. */
export function signedHeaders(secret: string, body: string, at: Date): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return {
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: signatureOf(secret, timestamp, body),
  };
}

/**
 * What a receiver does: true when `signature` is the body's and `timestamp` lies within
 * `toleranceSeconds` of `now`.
 */
export function verifySignature(
  secret: string,
  timestamp: string,
  body: string,
  signature: string,
  now: Date = new Date(),
  toleranceSeconds = 300,
): boolean {
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || Math.abs(now.getTime() / 1000 - seconds) > toleranceSeconds) {
    return false;
  }
  const expected = Buffer.from(signatureOf(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
