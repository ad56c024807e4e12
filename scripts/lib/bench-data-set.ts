/**
 * A benchmark's bulk-loaded data set, kept under `.data/` and reused by later runs: the mark
 * that says what was loaded and when, and the lock that keeps two runs off one data set.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import pg from "pg";
import { isAlive } from "./local-postgres";

/** Records, as the last step of a load, how many decisions of which data version it holds. */
export async function markDataSet(
  client: pg.Client,
  decisions: number,
  version: number,
): Promise<void> {
  await client.query(
    "CREATE TABLE bench_meta AS SELECT $1::int AS decisions, $2::int AS version, now() AS loaded_at",
    [decisions, version],
  );
}

/** Whether the database at `url` holds a finished load of this size and version, under 6 hours old. */
export async function isReusable(
  url: string,
  decisions: number,
  version: number,
): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ ok: boolean }>(
      `SELECT decisions = $1 AND version = $2 AND loaded_at > now() - interval '6 hours' AS ok
         FROM bench_meta`,
      [decisions, version],
    );
    return rows[0]?.ok ?? false;
  } catch {
    // Missing, half-dropped or never finished loading: load it again.
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Takes the data set's lock file, or exits when another live run holds it. Returns the
 * function that gives it back.
 */
export function takeDataSetLock(command: string, lockFile: string, dataDir: string): () => void {
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, "utf8"));
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) {
      console.error(
        `[${command}] another run (pid ${pid}) is using ${dataDir}; wait for it to finish.`,
      );
      process.exit(1);
    }
  }
  mkdirSync(".data", { recursive: true });
  writeFileSync(lockFile, String(process.pid));
  return () => rmSync(lockFile, { force: true });
}
