/**
 * Sending the outbox (SPEC §9). A delivery is claimed before it is sent — its attempt count
 * goes up and its next attempt moves past the request's timeout — so two processes never send
 * the same attempt; every attempt is logged with its HTTP status, latency and error; a failed
 * one is retried with exponential backoff for up to 24 hours (`backoff.ts`), then given up.
 *
 * Requests: POST, JSON, a timeout (ROUTELENS_ALERTS_TIMEOUT_MS), redirects not followed (a 3xx
 * is a failure), http(s) URLs only. Webhooks are signed (`signature.ts`); Slack gets its
 * incoming-webhook body. Any 2xx is delivered.
 *
 * At least once: a process that dies after the receiver got the request but before the
 * attempt was recorded sends it again when the claim runs out, so receivers should dedupe on
 * the `X-Routelens-Delivery` header.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { nextAttemptAt } from "@/lib/alerts/backoff";
import { type AlertPayload, bodyFor } from "@/lib/alerts/payload";
import { signedHeaders } from "@/lib/alerts/signature";
import { getPool } from "@/lib/db/client";
import type { AlertChannelKind } from "@/lib/schemas/alerts";
import { inTransaction } from "./transaction";

export const DELIVERY_HEADER = "X-Routelens-Delivery";
const ERROR_MAX = 500;
/**
 * How long past its send timeout a claimed attempt holds its delivery. A process that dies
 * between the claim and the record leaves the delivery pending with this lease as its next
 * attempt, so another process sends it once the lease has lapsed (and not twice before).
 */
export const CLAIM_GRACE_MS = 30_000;

export interface DeliveryOptions {
  now?: () => Date;
  timeoutMs: number;
  /** First retry gap; doubles per attempt up to an hour. */
  retryBaseMs: number;
}

export interface AttemptResult {
  /** False when another process holds the delivery, or it is no longer pending. */
  attempted: boolean;
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** When the next attempt is due (the caller schedules it), or null. */
  retryAt: Date | null;
}

interface Claimed {
  id: string;
  tenant_id: string | null;
  kind: string;
  payload: AlertPayload;
  attempts: number;
  created_at: Date;
  channel_kind: AlertChannelKind;
  url: string;
  secret: string | null;
}

/** The request a channel receives for a payload: body and headers, signed for webhooks. */
export function requestFor(
  channel: { kind: AlertChannelKind; secret: string | null },
  payload: AlertPayload,
  deliveryId: string,
  at: Date,
): { body: string; headers: Record<string, string> } {
  const body = bodyFor(channel.kind, payload);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": "Routelens-Alerts/1",
    [DELIVERY_HEADER]: deliveryId,
  };
  if (channel.kind === "webhook" && channel.secret) {
    Object.assign(headers, signedHeaders(channel.secret, body, at));
  }
  return { body, headers };
}

/** Posts one request with a timeout; never throws. */
export async function post(
  url: string,
  request: { body: string; headers: Record<string, string> },
  timeoutMs: number,
): Promise<{ ok: boolean; statusCode: number | null; latencyMs: number; error: string | null }> {
  const started = performance.now();
  try {
    const protocol = new URL(url).protocol;
    if (protocol !== "http:" && protocol !== "https:")
      throw new Error("only http(s) URLs are sent to");
    const response = await fetch(url, {
      method: "POST",
      headers: request.headers,
      body: request.body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The answer's body is not needed; read it so the connection is released.
    await response.arrayBuffer().catch(() => undefined);
    const latencyMs = Math.round(performance.now() - started);
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      statusCode: response.status,
      latencyMs,
      error: ok
        ? null
        : `answered ${response.status}${response.status >= 300 && response.status < 400 ? " (redirects are not followed)" : ""}`,
    };
  } catch (error) {
    const latencyMs = Math.round(performance.now() - started);
    const name = error instanceof Error ? error.name : "";
    const cause =
      error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    const message =
      name === "TimeoutError"
        ? `no answer within ${timeoutMs} ms`
        : `${error instanceof Error ? error.message : String(error)}${cause}`;
    return { ok: false, statusCode: null, latencyMs, error: message.slice(0, ERROR_MAX) };
  }
}

/**
 * One attempt at a pending delivery whose attempt is due: claimed, sent, logged. Test
 * deliveries get one attempt only.
 */
export async function attemptDelivery(
  id: string,
  options: DeliveryOptions,
): Promise<AttemptResult> {
  const now = options.now ?? (() => new Date());
  const pool = getPool();
  const claimedAt = now();
  const lease = new Date(claimedAt.getTime() + options.timeoutMs + CLAIM_GRACE_MS);
  const { rows } = await pool.query<Claimed>(
    `WITH claimed AS (
       UPDATE alert_deliveries SET attempts = attempts + 1, next_attempt_at = $3
        WHERE id = $1 AND status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= $2)
       RETURNING id, tenant_id, kind, payload, attempts, created_at, channel_id)
     SELECT claimed.id, claimed.tenant_id, claimed.kind, claimed.payload, claimed.attempts,
            claimed.created_at, c.kind AS channel_kind, c.url, c.secret
       FROM claimed JOIN alert_channels c ON c.id = claimed.channel_id`,
    [id, claimedAt, lease],
  );
  const delivery = rows[0];
  if (!delivery) {
    return {
      attempted: false,
      ok: false,
      statusCode: null,
      latencyMs: 0,
      error: null,
      retryAt: null,
    };
  }
  const sentAt = now();
  const result = await post(
    delivery.url,
    requestFor(
      { kind: delivery.channel_kind, secret: delivery.secret },
      delivery.payload,
      delivery.id,
      sentAt,
    ),
    options.timeoutMs,
  );
  const finishedAt = now();
  const retryAt =
    result.ok || delivery.kind === "test"
      ? null
      : nextAttemptAt(delivery.attempts, delivery.created_at, finishedAt, options.retryBaseMs);
  const status = result.ok ? "delivered" : retryAt ? "pending" : "failed";
  await inTransaction(async (client) => {
    await client.query(
      `INSERT INTO alert_delivery_attempts (delivery_id, tenant_id, attempt, at, status_code, latency_ms, error, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (delivery_id, attempt) DO NOTHING`,
      [
        delivery.id,
        delivery.tenant_id,
        delivery.attempts,
        sentAt,
        result.statusCode,
        result.latencyMs,
        result.error,
        retryAt,
      ],
    );
    await client.query(
      `UPDATE alert_deliveries SET status = $2, next_attempt_at = $3, delivered_at = $4 WHERE id = $1`,
      [delivery.id, status, retryAt, result.ok ? finishedAt : null],
    );
  });
  return { attempted: true, ...result, retryAt };
}

/** Pending deliveries whose attempt is due and not held by a sender: for the sweep. */
export async function dueDeliveries(now: Date, limit = 500): Promise<string[]> {
  const { rows } = await getPool().query<{ id: string }>(
    `SELECT id FROM alert_deliveries
      WHERE status = 'pending' AND next_attempt_at <= $1
      ORDER BY next_attempt_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((row) => row.id);
}

/**
 * "Send test": a test message to one channel of a rule, sent at once (one attempt, logged
 * like any other) so the page can show what the receiver answered. It has no next attempt,
 * so the sweep of due deliveries never takes it from this call.
 */
export async function sendTestMessage(
  channelId: string,
  payload: AlertPayload,
  options: DeliveryOptions,
): Promise<AttemptResult & { deliveryId: string }> {
  const deliveryId = randomUUID();
  const now = (options.now ?? (() => new Date()))();
  const { rowCount } = await getPool().query(
    `INSERT INTO alert_deliveries (id, rule_id, tenant_id, channel_id, event_id, kind, payload, next_attempt_at, created_at)
     SELECT $1, c.rule_id, c.tenant_id, c.id, NULL, 'test', $3, NULL, $4 FROM alert_channels c WHERE c.id = $2`,
    [deliveryId, channelId, JSON.stringify(payload), now],
  );
  if (rowCount === 0) throw new Error(`channel ${channelId} does not exist`);
  return { deliveryId, ...(await attemptDelivery(deliveryId, options)) };
}
