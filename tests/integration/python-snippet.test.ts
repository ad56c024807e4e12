/**
 * The "send your first event" page works as written: its Python snippet (examples/send_event.py,
 * standard library only) and its curl command both store events on the test server.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import pg from "pg";
import { beforeAll, describe, expect, inject, it, type TestContext } from "vitest";
import { DECISIONS_WITH_OUTCOMES } from "@/lib/ingest/decision-outcomes";
import { createApiKey } from "@/lib/keys";

const DOC = readFileSync("docs/send-your-first-event.md", "utf8");
const SNIPPET = readFileSync("examples/send_event.py", "utf8");

function available(command: string): boolean {
  return spawnSync(command, ["--version"], { stdio: "ignore" }).status === 0;
}

/**
 * Skips the test when `command` is missing, except in CI (CI=true), where a missing command
 * fails it: CI installs python3 and curl (.ci/run), so a skip there would hide a lost check.
 */
function requireCommand(context: TestContext, command: string): void {
  if (available(command)) return;
  if (process.env.CI === "true" || process.env.CI === "1") {
    throw new Error(
      `${command} is not installed, and CI must run this test: .ci/run installs python3 and curl from Debian's packages`,
    );
  }
  context.skip(`${command} is not installed on this machine (CI installs it and runs this test)`);
}

function codeBlock(language: string, startsWith: string): string {
  const blocks = [...DOC.matchAll(/```(\w+)\n([\s\S]*?)```/g)];
  const block = blocks.find(
    ([, lang, body]) => lang === language && body?.trimStart().startsWith(startsWith),
  );
  if (!block?.[2]) throw new Error(`no ${language} block starting with ${startsWith} in the doc`);
  return block[2];
}

async function storedFor(tenant: string) {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  try {
    const { rows } = await client.query<{ decisions: number; joined: number; harmful: number }>(
      `SELECT count(*)::int AS decisions, sum(has_outcome::int)::int AS joined,
              sum(cardinality(harmful_tools))::int AS harmful
         FROM ${DECISIONS_WITH_OUTCOMES} AS decisions WHERE tenant_id = $1`,
      [tenant],
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

describe("send your first event", () => {
  const baseUrl = inject("baseUrl");

  it("the doc shows examples/send_event.py exactly, and it is at most 20 lines of code", () => {
    expect(codeBlock("python", '"""Send one')).toBe(SNIPPET);
    const docstringEnd = SNIPPET.indexOf('"""', 3) + 3;
    const code = SNIPPET.slice(docstringEnd)
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.trim().startsWith("#"));
    expect(code.length).toBeLessThanOrEqual(20);
    expect(SNIPPET).not.toMatch(/^\s*(import|from)\s+(requests|httpx|aiohttp)/m);
  });

  describe("the Python snippet", () => {
    let key: string;
    beforeAll(async () => {
      key = (await createApiKey("python-snippet")).key;
    });

    it("stores a decision and its outcome (a harmful drop)", async (context) => {
      requireCommand(context, "python3");
      const result = spawnSync("python3", ["examples/send_event.py"], {
        env: { ...process.env, ROUTELENS_URL: baseUrl, ROUTELENS_API_KEY: key },
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(
        /^200 \{"successes":\[\{"id":"[^"]+","status":201\},\{"id":"[^"]+","status":201\}\],"errors":\[\]\}/,
      );
      expect(await storedFor("python-snippet")).toEqual({ decisions: 1, joined: 1, harmful: 1 });
    });

    it("exits non-zero with the server's reason on a wrong key", async (context) => {
      requireCommand(context, "python3");
      const result = spawnSync("python3", ["examples/send_event.py"], {
        env: { ...process.env, ROUTELENS_URL: baseUrl, ROUTELENS_API_KEY: "rl_wrong" },
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/^401 \{"error":"Unknown or revoked API key\."\}/);
    });
  });

  it("the curl command stores its decision", async (context) => {
    requireCommand(context, "curl");
    requireCommand(context, "bash");
    const { key } = await createApiKey("curl-snippet");
    const command = codeBlock("sh", "curl ").replaceAll("http://localhost:3000", baseUrl);
    const result = spawnSync("bash", ["-c", command], {
      env: { ...process.env, ROUTELENS_API_KEY: key },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ successes: [{ status: 201 }], errors: [] });
    expect((await storedFor("curl-snippet"))?.decisions).toBe(1);
  });
});
