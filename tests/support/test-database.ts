/**
 * A fresh, throwaway database for one test run: on the embedded test server (.data/test-pg),
 * or on DATABASE_URL when — and only when — it is a local test database. Anything else is
 * refused, so tests can never touch a developer's or a production database.
 */
import { randomBytes } from "node:crypto";
import { migrate } from "@/lib/db/migrate";
import {
  dropDatabase,
  ensureDatabase,
  type LocalPostgres,
  startLocalPostgres,
} from "@/scripts/lib/local-postgres";

export interface TestDatabase {
  url: string;
  name: string;
  server: LocalPostgres | null;
  drop(): Promise<void>;
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/** Throws unless `url` points at a database on this machine whose name says it is for tests. */
export function assertLocalTestDatabase(url: string): URL {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
  if (!LOCAL_HOSTS.has(parsed.hostname) || !/test/i.test(database)) {
    throw new Error(
      `Refusing to run tests against DATABASE_URL (host "${parsed.hostname}", database "${database}"): tests only use a local test database (host localhost, database name containing "test"). Unset DATABASE_URL to use the embedded test server.`,
    );
  }
  return parsed;
}

export async function createTestDatabase(
  label: string,
  dataDir = ".data/test-pg",
): Promise<TestDatabase> {
  const name = `routelens_test_${label}_${Date.now()}_${randomBytes(3).toString("hex")}`;
  let server: LocalPostgres | null = null;
  let adminUrl: string;
  let url: string;
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) {
    const parsed = assertLocalTestDatabase(fromEnv);
    adminUrl = fromEnv;
    parsed.pathname = `/${name}`;
    url = parsed.toString();
  } else {
    server = await startLocalPostgres({ dataDir, port: 0 });
    adminUrl = server.adminUrl;
    url = server.urlFor(name);
  }
  await ensureDatabase(adminUrl, name);
  await migrate(url);
  return {
    url,
    name,
    server,
    drop: async () => {
      await dropDatabase(adminUrl, name);
      if (server && !server.reused) await server.stop();
    },
  };
}
