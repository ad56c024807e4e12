/**
 * The one-line curl shown beside a key just created on the settings page: the overview's first
 * event, posted with that key.
 */
import { buildFirstEvent } from "./first-event";

/** `curl` posting the first-event example to `origin` with `key`, on one line. */
export function buildKeyCurlLine(origin: string, key: string, now: Date): string {
  const body = JSON.stringify({ batch: [buildFirstEvent(now)] });
  return `curl -X POST ${origin}/api/ingest -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" -d '${body}'`;
}
