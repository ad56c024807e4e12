/**
 * `npm run demo:reset` — deletes the demo tenants and everything they hold (decisions,
 * outcomes, runs, rollups, tool rollups, keys) from the development database (or
 * DATABASE_URL), and the demo keys file. Tenants that are not demo tenants are untouched.
 * The next `npm run dev` on an empty database loads the demo again (unless ROUTELENS_DEMO=0).
 */
import { rmSync } from "node:fs";
import { getPool } from "@/lib/db/client";
import { DEFAULT_KEYS_FILE } from "@/lib/demo/simulate-options";
import { parseCommandLine } from "./lib/command-line";
import { deleteDemoData } from "./lib/demo-loader";
import { openDevDatabase } from "./lib/dev-database";

async function main() {
  parseCommandLine({}, "usage: npm run demo:reset   (takes no arguments)");
  const database = await openDevDatabase();
  try {
    const result = await deleteDemoData(getPool());
    rmSync(DEFAULT_KEYS_FILE, { force: true });
    if (result.tenants.length === 0) {
      console.log("No demo tenants; nothing to delete.");
      return;
    }
    const n = (value: number) => value.toLocaleString("en-US");
    console.log(
      `Deleted demo tenants ${result.tenants.join(", ")}: ${n(result.decisions)} decisions, ${n(result.outcomes)} outcomes, ${n(result.runs)} runs, ${n(result.rollupRows)} rollup rows, ${n(result.keys)} keys.`,
    );
  } finally {
    await getPool().end();
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
