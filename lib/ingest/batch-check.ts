/**
 * The CPU work of an ingest request between its body and its store: the `{batch: [...]}`
 * envelope parsed, then each event checked and turned into the row it is stored as. Pure, and
 * the same wherever it runs: in the checking thread (`check-thread.ts`, the server's default) or
 * in the request's own (`job-checker.ts`).
 */
import { inSlices } from "./cpu-slice";
import { checkEvent, type EventError, toDecisionRow, toOutcomeRow } from "./events";
import { listKey } from "./list-key";
import { parseEnvelope, SLICED_PARSE_ABOVE_CHARS, utf8Text } from "./request";
import type { StoreInput } from "./store-transaction";

/** An event that passed its checks: its place in the batch and what the store writes. */
export interface AcceptedEvent {
  index: number;
  item: StoreInput;
}

export interface CheckedBatch {
  /** The refused events, in batch order. */
  errors: EventError[];
  accepted: AcceptedEvent[];
}

/**
 * The events of a `{batch: [...]}` body, unchecked. Throws `RequestRejected` (400 or 413) for
 * a body that is not such an envelope; a long batch is parsed in slices, `turn` between them.
 */
export function parseBatch(body: Uint8Array, turn: () => Promise<void>): Promise<unknown[]> {
  return parseEnvelope(utf8Text(body), SLICED_PARSE_ABOVE_CHARS, turn);
}

/**
 * Checks every event of `batch` for `tenant` (the API key's) and builds the rows of the good
 * ones, yielding `turn` between slices of `CPU_SLICE_MS`. Decisions offering the same tool list
 * share one array of its names: the store's per-list steps find it by identity, and a batch sent
 * to another thread carries each list once.
 */
export async function checkBatch(
  batch: readonly unknown[],
  tenant: string,
  turn: () => Promise<void>,
): Promise<CheckedBatch> {
  const errors: EventError[] = [];
  const accepted: AcceptedEvent[] = [];
  const lists = new Map<string, string[]>();
  await inSlices(batch, turn, (raw, index) => {
    const checked = checkEvent(raw, index, tenant);
    if (!checked.ok) {
      errors.push(checked.error);
      return;
    }
    const { event } = checked;
    if (event.type === "tool_routing_decision") {
      const row = toDecisionRow(tenant, event);
      const key = listKey(row.offered);
      const shared = lists.get(key);
      if (shared) row.offered = shared;
      else lists.set(key, row.offered);
      accepted.push({ index, item: { kind: "decision", row } });
    } else {
      accepted.push({ index, item: { kind: "outcome", row: toOutcomeRow(tenant, event) } });
    }
  });
  return { errors, accepted };
}
