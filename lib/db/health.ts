import "server-only";
import { getPool } from "./client";

/** True when PostgreSQL answers a trivial query within `timeoutMs`. Never hangs. */
export async function isDatabaseReachable(timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const probe = getPool()
    .query("SELECT 1")
    .then(() => true)
    .catch(() => false);
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
