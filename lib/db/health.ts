import "server-only";
import { getHealthPool } from "./client";

/**
 * `probe` run at most once at a time: a call made while a run is in flight shares its answer.
 * Health checks arriving faster than one round trip (a load balancer, a monitoring probe, a
 * slow machine) then never line up on the one health connection behind each other.
 */
export function sharedWhileInFlight<T>(probe: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  return () => {
    running ??= probe().finally(() => {
      running = null;
    });
    return running;
  };
}

const selectOne = sharedWhileInFlight(() =>
  getHealthPool()
    .query("SELECT 1")
    .then(
      () => true,
      () => false,
    ),
);

/**
 * True when PostgreSQL answers a trivial query within `timeoutMs`. Never hangs. Runs on the
 * health check's own connection, so a shared pool busy with other requests does not delay it.
 */
export async function isDatabaseReachable(timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([selectOne(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
