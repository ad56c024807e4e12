/**
 * Retries of a delivery: exponential backoff from `baseMs` (doubling, at most an hour apart)
 * for up to 24 hours after the delivery was created; after that it is given up as failed.
 */
export const RETRY_FOR_MS = 24 * 60 * 60 * 1000;
export const RETRY_MAX_GAP_MS = 60 * 60 * 1000;

/** When the attempt after attempt `attempt` (1-based) is due, or null when none is left. */
export function nextAttemptAt(
  attempt: number,
  createdAt: Date,
  now: Date,
  baseMs: number,
): Date | null {
  const gap = Math.min(baseMs * 2 ** Math.min(attempt - 1, 30), RETRY_MAX_GAP_MS);
  const at = now.getTime() + gap;
  return at <= createdAt.getTime() + RETRY_FOR_MS ? new Date(at) : null;
}
