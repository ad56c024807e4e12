/** A transaction on a connection of the shared pool (`inTransactionOn`, lib/db/transaction.ts). */
import "server-only";
import type pg from "pg";
import { getPool } from "@/lib/db/client";
import { inTransactionOn } from "@/lib/db/transaction";

export function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inTransactionOn(getPool(), work);
}
