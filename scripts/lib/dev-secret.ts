/**
 * `npm run dev` signs sessions with a secret kept in `.data/auth-secret` (made on first run),
 * so signing in survives restarts without anything to configure. ROUTELENS_AUTH_SECRET wins
 * when set.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const DEV_SECRET_FILE = ".data/auth-secret";

export function ensureDevSecret(file = DEV_SECRET_FILE): string {
  const fromEnv = process.env.ROUTELENS_AUTH_SECRET;
  if (fromEnv) return fromEnv;
  let secret = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
  if (secret.length < 32) {
    secret = randomBytes(32).toString("base64url");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  }
  process.env.ROUTELENS_AUTH_SECRET = secret;
  return secret;
}
