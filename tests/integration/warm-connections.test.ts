/**
 * A server opens its connections at start and warms them (lib/db/warm-connections.ts): every
 * connection asked for is opened, left open in the pool, and has planned a statement over
 * every tenant table; a database it cannot reach costs nothing but the attempt.
 */
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { TENANT_SCOPED_TABLES } from "@/lib/db/tenant-tables";
import { WARM_STATEMENT, warmConnections } from "@/lib/db/warm-connections";

const pools: pg.Pool[] = [];
const poolOf = (connectionString: string) => {
  const pool = new pg.Pool({ connectionString, max: 4, idleTimeoutMillis: 0 });
  pool.on("error", () => {});
  pools.push(pool);
  return pool;
};

afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end();
});

describe("warmConnections", () => {
  it("opens the connections asked for, plans the statement on each and keeps them open", async () => {
    const pool = poolOf(inject("databaseUrl"));
    expect(await warmConnections(pool, 4)).toBe(4);
    expect(pool.totalCount).toBe(4);
    expect(pool.idleCount).toBe(4);
    // The statement is a plan over every tenant table: none of them is missing from it.
    for (const table of TENANT_SCOPED_TABLES) expect(WARM_STATEMENT).toContain(`FROM ${table} `);
  });

  it("gives up quietly on a database it cannot reach", async () => {
    const url = new URL(inject("databaseUrl"));
    url.port = "1"; // nothing listens there
    const pool = poolOf(url.toString());
    expect(await warmConnections(pool, 2)).toBe(0);
    expect(pool.totalCount).toBe(0);
  });
});
