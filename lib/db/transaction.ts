/**
 * A transaction on a connection of `pool`. While a connection is checked out the pool does not
 * listen for its errors, and an unheard 'error' (PostgreSQL restarted or stopped
 * mid-transaction) would end the process; here it is heard, the transaction fails, and the
 * broken connection is discarded instead of returned to the pool.
 */
import type pg from "pg";

export async function inTransactionOn<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let failed = false;
  const onError = () => {
    failed = true;
  };
  client.on("error", onError);
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    failed = true;
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.removeListener("error", onError);
    client.release(failed);
  }
}
