/**
 * The server end-to-end tests run against: a production build (`next start`) on a fresh
 * database on the embedded test server. Writes the database URL to .data/e2e-server.json so
 * test helpers can create keys. Stops everything on SIGTERM/SIGINT.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createTestDatabase } from "@/tests/support/test-database";
import { ensureBuild, startAppServer } from "./lib/app-server";
import { parseCommandLine, positiveWholeNumber } from "./lib/command-line";

export const E2E_STATE_FILE = ".data/e2e-server.json";

async function main() {
  const { values } = parseCommandLine(
    { port: { type: "string" } },
    "usage: tsx scripts/e2e-server.ts [--port 3100]",
  );
  const port = positiveWholeNumber("port", values.port, 3100);
  ensureBuild((line) => console.error(line));
  const database = await createTestDatabase("e2e", ".data/e2e-pg");
  mkdirSync(".data", { recursive: true });
  writeFileSync(E2E_STATE_FILE, JSON.stringify({ databaseUrl: database.url }));
  const app = await startAppServer({
    databaseUrl: database.url,
    port,
    env: { ROUTELENS_DEMO: "0" },
  });
  console.error(`e2e server on ${app.baseUrl}, database ${database.name}`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await app.stop();
    await database.drop().catch(() => {});
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  app.child.on("exit", () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
