/**
 * CPU time of processes on this machine, read from /proc, for the benchmarks that report what
 * the server and PostgreSQL spent (Linux only).
 */
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessInfo {
  pid: number;
  ppid: number;
  cmdline: string;
}

/** CPU seconds (user + system) used so far by one process; 0 once it has ended. */
export function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds (user + system) used so far by the processes that match, with what their ended
 * children used (a PostgreSQL backend that closed is counted in its postmaster's).
 */
export function cpuSeconds(match: (process: ProcessInfo) => boolean): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\u0000", " ");
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      if (!match({ pid, ppid: Number(fields[1]), cmdline })) continue;
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / 100;
}

/**
 * The pid of the PostgreSQL postmaster of `dataDir` (an absolute path): its backends are its
 * children. Other PostgreSQL servers on the machine (test databases of other checkouts) are
 * not counted.
 */
export function postmasterOf(dataDir: string): number | null {
  // The postmaster writes its pid on the first line of postmaster.pid.
  try {
    const pid = Number(readFileSync(`${dataDir}/postmaster.pid`, "utf8").split("\n")[0]);
    if (Number.isInteger(pid) && pid > 0) return pid;
  } catch {
    // not running, or not yet written: look for it by its command line
  }
  let found: number | null = null;
  cpuSeconds(({ pid, cmdline }) => {
    if (cmdline.includes(`-D ${dataDir}`)) found = pid;
    return false;
  });
  return found;
}

/** Matches a postmaster and its backends. */
export function isPostgresOf(postmaster: number | null): (process: ProcessInfo) => boolean {
  return ({ pid, ppid }) => postmaster !== null && (pid === postmaster || ppid === postmaster);
}
