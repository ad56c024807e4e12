/**
 * CPU work in slices: a request's parsing and checking (events, spans) runs for at most
 * `CPU_SLICE_MS` at a time and then yields a turn of its thread's event loop, so that no other
 * request's work, database reply or health check waits behind one large batch.
 */

/**
 * Longest synchronous slice of a request's checking before it yields a turn, in ms. Some items
 * cost far more than others (a refused event with 1,000-item lists), so slices are timed
 * rather than counted.
 */
export const CPU_SLICE_MS = 5;

/** The next turn of the event loop: whatever is waiting (I/O, timers, messages) runs first. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Calls `each` for every item in turn, yielding `turn` whenever the calls since the last turn
 * have run for `CPU_SLICE_MS`.
 */
export async function inSlices<Item>(
  items: Iterable<Item>,
  turn: () => Promise<void>,
  each: (item: Item, index: number) => void,
): Promise<void> {
  let sliceStart = performance.now();
  let index = 0;
  for (const item of items) {
    if (performance.now() - sliceStart >= CPU_SLICE_MS) {
      await turn();
      sliceStart = performance.now();
    }
    each(item, index++);
  }
}
