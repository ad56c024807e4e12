/**
 * Helpers for end-to-end specs: keys are created the way a user creates them (the keys CLI,
 * against the e2e database) and events are sent through the real ingest API.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import pg from "pg";

export const baseURL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100)}`;

export function e2eDatabaseUrl(): string {
  const state = JSON.parse(readFileSync(".data/e2e-server.json", "utf8")) as {
    databaseUrl: string;
  };
  return state.databaseUrl;
}

/** Runs `npm run keys -- create <tenant>` and returns the key it prints on its last line. */
export async function createKey(tenant: string): Promise<string> {
  const output = execFileSync("npx", ["--no-install", "tsx", "scripts/keys.ts", "create", tenant], {
    env: { ...process.env, DATABASE_URL: e2eDatabaseUrl() },
    encoding: "utf8",
  });
  const key = output.trim().split("\n").at(-1);
  if (!key?.startsWith("rl_")) throw new Error(`keys create printed no key:\n${output}`);
  return key;
}

export async function sendBatch(key: string, events: unknown[]): Promise<Response> {
  const response = await fetch(`${baseURL}/api/ingest`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ batch: events }),
  });
  if (response.status !== 200) {
    throw new Error(`ingest answered ${response.status}: ${await response.text()}`);
  }
  return response;
}

/** How many decisions the e2e database holds, read with SQL (not through the app). */
export async function countStoredDecisions(): Promise<number> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM decisions",
    );
    return rows[0]?.count ?? 0;
  } finally {
    await client.end();
  }
}
