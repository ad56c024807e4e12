import "server-only";
import { getHealthPool } from "./client";

/**
 * True when PostgreSQL answers a trivial query within `timeoutMs`. Never hangs. Runs on the
 * health check's own connection, so a shared pool busy with other requests does not delay it.
 */
export async function isDatabaseReachable(timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const probe = getHealthPool()
    .query("SELECT 1")
    .then(() => true)
    .catch(() => false);
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
