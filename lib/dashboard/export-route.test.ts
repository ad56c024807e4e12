import { afterEach, describe, expect, it, vi } from "vitest";
import type { CsvColumn } from "./csv";
import { streamChunks } from "./export-route";
import { csvChunks } from "./export-rows";

const columns: readonly CsvColumn<{ n: number }>[] = [{ header: "n", value: (row) => row.n }];

async function* batchesOf(...batches: { n: number }[][]) {
  for (const batch of batches) yield batch;
}

afterEach(() => vi.useRealTimers());

describe("streamChunks", () => {
  it("writes the header and every batch, then calls done once", async () => {
    const done = vi.fn();
    const body = streamChunks(
      csvChunks(columns, batchesOf([{ n: 1 }, { n: 2 }], [{ n: 3 }])),
      done,
    );
    expect(await new Response(body).text()).toBe("n\r\n1\r\n2\r\n3\r\n");
    expect(done).toHaveBeenCalledTimes(1);
  });

  it("calls done once when the client cancels", async () => {
    const done = vi.fn();
    const reader = streamChunks(
      csvChunks(columns, batchesOf([{ n: 1 }], [{ n: 2 }])),
      done,
    ).getReader();
    await reader.read();
    await reader.cancel();
    expect(done).toHaveBeenCalledTimes(1);
  });

  it("calls done once when reading the rows fails", async () => {
    const done = vi.fn();
    async function* failing() {
      yield [{ n: 1 }];
      throw new Error("connection lost");
    }
    const body = streamChunks(csvChunks(columns, failing()), done);
    await expect(new Response(body).text()).rejects.toThrow("connection lost");
    expect(done).toHaveBeenCalledTimes(1);
  });

  it("ends a download nobody reads after the stall time, and calls done once", async () => {
    vi.useFakeTimers();
    const done = vi.fn();
    const reader = streamChunks(csvChunks(columns, batchesOf([{ n: 1 }])), done, 1_000).getReader();
    await vi.advanceTimersByTimeAsync(999);
    expect(done).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toHaveBeenCalledTimes(1);
    await expect(reader.read()).rejects.toThrow("stalled");
    expect(done).toHaveBeenCalledTimes(1);
  });
});
