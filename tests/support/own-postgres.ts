/**
 * An embedded PostgreSQL of a test's own, for tests that stop it under a running server. A
 * server left running on the same data directory by an earlier run is replaced, so that
 * `stop()` and `restart()` act on a server this test started.
 */
import { type LocalPostgres, startLocalPostgres } from "@/scripts/lib/local-postgres";

export interface OwnPostgres {
  current(): LocalPostgres;
  /** Starts it again on the same port after `current().stop()`. */
  restart(): Promise<void>;
}

export async function startOwnPostgres(dataDir: string): Promise<OwnPostgres> {
  let server = await startLocalPostgres({ dataDir, port: 0 });
  if (server.reused) {
    await server.stop();
    server = await startLocalPostgres({ dataDir, port: 0 });
  }
  const port = server.port;
  return {
    current: () => server,
    restart: async () => {
      server = await startLocalPostgres({ dataDir, port });
    },
  };
}
