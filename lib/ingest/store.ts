/**
 * Storing accepted events (the entry point): concurrent requests are grouped (group commit) —
 * while a transaction runs, new requests queue, and the next transaction takes as many of them
 * as fit — and each group is written by one transaction (`store-transaction.ts`), so a success
 * is only ever reported after commit. Up to WRITERS transactions run at once (PostgreSQL then
 * uses more than one core), and one more for tenants that are not writing already, so that one
 * tenant's flood does not make the others wait for its transactions (`write-lanes.ts`).
 *
 * A deadlock, a serialisation failure or a unique violation (an event id a concurrent
 * transaction stored first) is retried. A group that fails for any other reason but an
 * unavailable database fails no request on account of another: each request is written alone,
 * then each event of a request that still fails, and only the events PostgreSQL refuses on their
 * own are reported (as refused).
 */
import { DatabaseUnavailable } from "@/lib/db/unavailable";
import { type StoreInput, type TransactionStatus, writeTransaction } from "./store-transaction";
import { WriteLanes } from "./write-lanes";
import { isRefusal, withWriteRetry } from "./write-retry";

export type { StoreInput } from "./store-transaction";

/**
 * `created`: stored now. `duplicate`: this tenant already had the event id; nothing stored.
 * `refused`: PostgreSQL would not store this event (a value validation let through); nothing
 * of it was stored, and `refused` holds PostgreSQL's reason.
 */
export type StoreStatus = TransactionStatus | { refused: string };

interface Pending {
  tenant: string;
  items: StoreInput[];
  resolve: (statuses: StoreStatus[]) => void;
  reject: (error: unknown) => void;
}

const WRITERS = 2;
const MAX_EVENTS_PER_TRANSACTION = 2_000;
/** The telemetry client's default batch: a lone tenant's batch up to this size is express. */
const EXPRESS_MAX_EVENTS = 500;

const globalForWriter = globalThis as unknown as { routelensWriteLanes?: WriteLanes<Pending> };

function lanes(): WriteLanes<Pending> {
  globalForWriter.routelensWriteLanes ??= new WriteLanes(writeGroup, {
    writers: WRITERS,
    maxEventsPerGroup: MAX_EVENTS_PER_TRANSACTION,
    expressMaxEvents: EXPRESS_MAX_EVENTS,
  });
  return globalForWriter.routelensWriteLanes;
}

/** Stores `tenant`'s items; resolves with one status per item once they are committed. */
export function storeEvents(tenant: string, items: StoreInput[]): Promise<StoreStatus[]> {
  if (items.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    lanes().submit({ tenant, items, resolve, reject });
  });
}

/**
 * Writes a group in one transaction. If that fails for any reason but an unavailable database,
 * no request fails on account of another: each request is written alone, and a request that
 * PostgreSQL still refuses is written an event at a time (`writeIsolated`).
 */
async function writeGroup(group: Pending[]): Promise<void> {
  let statuses: StoreStatus[];
  try {
    statuses = await writeWithRetry(group.flatMap((p) => p.items));
  } catch (error) {
    if (error instanceof DatabaseUnavailable) {
      for (const pending of group) pending.reject(error);
    } else if (group.length === 1) {
      // The request was alone already: go straight to its events.
      const [pending] = group as [Pending];
      await settle(pending, () => writeEachAlone(pending.items, error));
    } else {
      for (const pending of group) await settle(pending, () => writeIsolated(pending.items));
    }
    return;
  }
  let offset = 0;
  for (const pending of group) {
    pending.resolve(statuses.slice(offset, offset + pending.items.length));
    offset += pending.items.length;
  }
}

async function settle(pending: Pending, write: () => Promise<StoreStatus[]>): Promise<void> {
  try {
    pending.resolve(await write());
  } catch (error) {
    pending.reject(error);
  }
}

/** Writes `items` in one transaction; if PostgreSQL refuses it, each item in a transaction of its own. */
async function writeIsolated(items: StoreInput[]): Promise<StoreStatus[]> {
  try {
    return await writeWithRetry(items);
  } catch (error) {
    return writeEachAlone(items, error);
  }
}

/**
 * After `items` together failed with `error`: one transaction per item, in order (so the first
 * of two events with one id is the one stored). An item PostgreSQL refuses on its own is
 * reported as refused; its neighbours are stored exactly once.
 */
async function writeEachAlone(items: StoreInput[], error: unknown): Promise<StoreStatus[]> {
  if (!isRefusal(error)) throw error;
  if (items.length === 1) return [{ refused: refusalReason(error) }];
  const statuses: StoreStatus[] = [];
  for (const item of items) {
    try {
      statuses.push(...(await writeWithRetry([item])));
    } catch (itemError) {
      if (!isRefusal(itemError)) throw itemError;
      statuses.push({ refused: refusalReason(itemError) });
    }
  }
  return statuses;
}

function refusalReason(error: unknown): string {
  const { message, detail } = error as { message: string; detail?: string };
  return detail ? `${message} (${detail})` : message;
}

function writeWithRetry(items: StoreInput[]): Promise<TransactionStatus[]> {
  return withWriteRetry(() => writeTransaction(items));
}
