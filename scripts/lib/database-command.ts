/**
 * The frame of a command-line script that works on the database (`keys`, `users`): the command
 * line is checked before anything is opened, the database is opened (DATABASE_URL, or the
 * development database), the work runs, and everything is closed again. An error the script
 * knows how to explain (`usageError` gives its sentence) exits 2 with that sentence; any other
 * exits 1 with its message.
 */
import { getPool } from "@/lib/db/client";
import { failUsage } from "./command-line";
import { openDevDatabase } from "./dev-database";

export function runDatabaseCommand<Command>(
  readCommand: () => Command,
  main: (command: Command) => Promise<void>,
  usageError: (error: unknown) => string | null = () => null,
  before: () => void = () => {},
): void {
  const run = async () => {
    const command = readCommand();
    before();
    const database = await openDevDatabase();
    try {
      await main(command);
    } finally {
      await getPool().end();
      await database.close();
    }
  };
  run().catch((error: unknown) => {
    const usage = usageError(error);
    if (usage) failUsage(usage);
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
