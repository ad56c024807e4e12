/**
 * What the ingest paths (`store.ts` for `/api/ingest`, `lib/otlp/store.ts` for OTLP) do when a
 * write transaction fails: retry a conflict with a concurrent transaction, tell an unavailable
 * database apart, and recognise PostgreSQL refusing the data itself (which the callers then
 * pin on the one event or span that caused it).
 */
import { DatabaseUnavailable, isUnavailable } from "@/lib/db/unavailable";

/**
 * PostgreSQL refused the data itself: a data exception (22…, e.g. a value out of range), an
 * integrity constraint (23…), a program limit (54…, e.g. a row too large) or an error raised by
 * a trigger or function (P0…). Anything else is not the data's fault.
 */
const REFUSAL_CLASSES = ["22", "23", "54", "P0"];

export function isRefusal(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof DatabaseUnavailable) return false;
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === "string" && code.length === 5 && REFUSAL_CLASSES.includes(code.slice(0, 2))
  );
}

// Deadlock, serialisation failure, and a unique violation: an id a concurrent transaction
// stored first, which the retry's look-up of stored ids then sees.
const RETRYABLE = new Set(["40P01", "40001", "23505"]);
export const WRITE_ATTEMPTS = 6;

/**
 * The pause before attempt `attempt` (2, 3, …): random, and longer after each conflict. Two
 * transactions that deadlocked — concurrent batches at the same join keys, each holding a lock
 * the other waits for (lib/ingest/store-transaction.ts) — would, retried at once, meet again
 * in the same order; a random pause lets one of them go first.
 */
export const conflictPause = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * 2 ** (attempt - 2)));

/**
 * Runs `write` (attempt 1, 2, …) until it succeeds, retrying conflicts after `pause` up to
 * `WRITE_ATTEMPTS` attempts in all; an unavailable database is thrown as `DatabaseUnavailable`,
 * anything else as it is.
 */
export async function withWriteRetry<T>(
  write: (attempt: number) => Promise<T>,
  pause: (attempt: number) => Promise<void> = conflictPause,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(attempt);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code && RETRYABLE.has(code) && attempt < WRITE_ATTEMPTS) {
        await pause(attempt + 1);
        continue;
      }
      if (isUnavailable(error)) throw new DatabaseUnavailable((error as Error).message);
      throw error;
    }
  }
}
