import { describe, expect, it } from "vitest";
import { DatabaseUnavailable } from "@/lib/db/unavailable";
import { WRITE_ATTEMPTS, withWriteRetry } from "./write-retry";

const failing = (code: string) => Object.assign(new Error(`failed with ${code}`), { code });

/** Runs a write that always fails with `code` (pausing not at all); answers its attempts and error. */
async function alwaysFailing(code: string): Promise<{ attempts: number; error: unknown }> {
  let attempts = 0;
  const error = await withWriteRetry(
    async () => {
      attempts += 1;
      throw failing(code);
    },
    async () => {},
  ).catch((thrown: unknown) => thrown);
  return { attempts, error };
}

describe("withWriteRetry", () => {
  it("retries a deadlock after a pause before each attempt, and answers the first success", async () => {
    const paused: number[] = [];
    const attempts: number[] = [];
    const result = await withWriteRetry(
      async (attempt) => {
        attempts.push(attempt);
        if (attempt < 3) throw failing("40P01");
        return "stored";
      },
      async (attempt) => {
        paused.push(attempt);
      },
    );
    expect(result).toBe("stored");
    expect(attempts).toEqual([1, 2, 3]);
    expect(paused).toEqual([2, 3]);
  });

  it(`gives up after ${WRITE_ATTEMPTS} attempts with the last conflict`, async () => {
    const { attempts, error } = await alwaysFailing("23505");
    expect((error as Error).message).toBe("failed with 23505");
    expect(attempts).toBe(WRITE_ATTEMPTS);
  });

  it("does not retry the data's own faults, and names an unreachable database", async () => {
    const { attempts, error } = await alwaysFailing("22008");
    expect((error as Error).message).toBe("failed with 22008");
    expect(attempts).toBe(1);
    const unreachable = withWriteRetry(
      async () => {
        throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
      },
      async () => {},
    );
    await expect(unreachable).rejects.toBeInstanceOf(DatabaseUnavailable);
  });
});
