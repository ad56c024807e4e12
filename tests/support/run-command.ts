/**
 * Runs a command to its end and collects its output. Asynchronously: a synchronous spawn would
 * stall the test process for the seconds the command takes, and fetch would then reuse a
 * keep-alive connection the server has closed meanwhile ("other side closed").
 */
import { spawn } from "node:child_process";

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCommand(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
