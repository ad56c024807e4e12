import { readFile } from "node:fs/promises";
import type { AppServer } from "@/scripts/lib/app-server";

/** The OS threads of a server's processes (Linux). */
export async function threadsOf(server: AppServer): Promise<number> {
  let threads = 0;
  for (const pid of server.pids()) {
    const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
    threads += Number(status.match(/^Threads:\s+(\d+)/m)?.[1] ?? 0);
  }
  return threads;
}
