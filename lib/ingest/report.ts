/**
 * The body of a 200/207 ingest answer, bounded whatever the batch: one success per stored
 * event, the first errors in full, and a summary of the rest (`elided_errors`: their indexes
 * and counts per rule). Pure: no I/O.
 *
 * Without a bound, a 15 kB gzipped batch of 1,000 events with 1,000 wrong items each answered
 * with 118 MB of errors, built in seconds. Now the errors and their summary fit in
 * `RESPONSE_BYTES` next to the successes; the successes themselves echo ids the request sent
 * (at most 1,000, each at most 128 characters), so only a batch of stored events with long
 * ids answers with more.
 */
import type { ElidedErrors, IngestResponseBody, IngestSuccess } from "@/lib/schemas/ingest";
import type { EventError } from "./events";

/** Target size of an answer, in bytes of JSON: small enough to build and send in a blink. */
export const RESPONSE_BYTES = 64 * 1024;
/** Errors listed in full: enough to see every kind of mistake in a batch, few enough to read. */
export const ERRORS_IN_FULL = 30;
/** Rules counted one by one in the summary; the rest are added up as `(other)`. */
export const RULE_GROUPS = 20;
/**
 * Room kept for `elided_errors`: 1,000 indexes (≤ 4 kB) and `RULE_GROUPS` groups whose path
 * and rule are each at most `GROUP_TEXT_JSON` characters of JSON (≤ 11 kB).
 */
const SUMMARY_RESERVE = 16 * 1024;
const MESSAGE_JSON = 1_200;
const GROUP_TEXT_JSON = 240;

/** Characters the code unit at `i` takes inside a JSON string. */
function jsonWidth(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20)
    return code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 2 : 6;
  if (code >= 0xd800 && code <= 0xdfff) {
    // A lone surrogate is escaped as \uXXXX; a pair is written as it is.
    const pairsNext = code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const pairsPrevious = code >= 0xdc00 && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800;
    return pairsNext || pairsPrevious ? 1 : 6;
  }
  return 1;
}

/**
 * `text`, cut (with an ellipsis) so that its JSON string, quotes included, takes at most
 * `max` characters. One pass, no allocation until the cut: error text is attacker-shaped.
 */
export function boundJsonText(text: string, max: number): string {
  if (text.length * 6 + 2 <= max) return text;
  let width = 2;
  let fits = 0; // code units that fit with room left for the ellipsis
  for (let i = 0; i < text.length; i++) {
    width += jsonWidth(text, i);
    if (width + 1 <= max) fits = i + 1;
    if (width > max) {
      // Do not split a surrogate pair.
      const end = (text.charCodeAt(fits - 1) & 0xfc00) === 0xd800 ? fits - 1 : fits;
      return `${text.slice(0, end)}…`;
    }
  }
  return text;
}

const jsonSize = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** `batch[3].trace[1].kept[7]` → `batch[*].trace[*].kept[*]`. */
const genericPath = (path: string) => path.replace(/\[\d+\]/g, "[*]");

function summarise(elided: EventError[]): ElidedErrors {
  const groups = new Map<string, ElidedErrors["by_rule"][number]>();
  for (const error of elided) {
    const seen = new Set<string>();
    for (const problem of error.problems) {
      const path = genericPath(problem.path);
      const key = `${error.status}\u0000${path}\u0000${problem.rule}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const group = groups.get(key);
      if (group) group.events += 1;
      else {
        groups.set(key, {
          status: error.status,
          path: boundJsonText(path, GROUP_TEXT_JSON),
          rule: boundJsonText(problem.rule, GROUP_TEXT_JSON),
          events: 1,
        });
      }
    }
  }
  const sorted = [...groups.values()].sort((a, b) => b.events - a.events);
  const byRule = sorted.slice(0, RULE_GROUPS);
  const rest = sorted.slice(RULE_GROUPS);
  if (rest.length > 0) {
    byRule[RULE_GROUPS - 1] = {
      status: 400,
      path: "(other)",
      rule: `${rest.length + 1} other rules`,
      events: [...rest, byRule[RULE_GROUPS - 1]].reduce((n, g) => n + (g?.events ?? 0), 0),
    };
  }
  return {
    count: elided.length,
    indexes: elided.map((error) => error.index),
    by_rule: byRule,
  };
}

/** The answer to a batch: `errors` must be in batch order. */
export function ingestResponseBody(
  successes: IngestSuccess[],
  errors: readonly EventError[],
): IngestResponseBody {
  const budget = RESPONSE_BYTES - SUMMARY_RESERVE - jsonSize(successes);
  const listed: IngestResponseBody["errors"] = [];
  let used = 0;
  for (const error of errors) {
    if (listed.length >= ERRORS_IN_FULL) break;
    const entry = {
      id: error.id,
      index: error.index,
      status: error.status,
      message: boundJsonText(error.message, MESSAGE_JSON),
    };
    const size = jsonSize(entry) + 1;
    // At least one error in full, even next to a long list of successes.
    if (listed.length > 0 && used + size > budget) break;
    listed.push(entry);
    used += size;
  }
  if (listed.length === errors.length) return { successes, errors: listed };
  return { successes, errors: listed, elided_errors: summarise(errors.slice(listed.length)) };
}
