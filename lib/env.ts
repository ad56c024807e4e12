/**
 * The environment, read and checked once. A missing or malformed variable fails at start
 * with a sentence naming the variable and the rule it broke.
 */
import { z } from "zod";

const booleanFlag = z
  .enum(["0", "1", "true", "false"], { error: "must be 0, 1, true or false" })
  .transform((value) => value === "1" || value === "true");

const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// connection URL")
    .optional(),
  PORT: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 65535")
    .max(65535, "must be between 1 and 65535")
    .default(3000),
  DATABASE_POOL_MAX: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(200, "must be at most 200")
    .default(10),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce
    .number({ error: "must be a whole number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(100, "must be at least 100 ms")
    .max(60_000, "must be at most 60000 ms")
    .default(3_000),
  ROUTELENS_DEMO: booleanFlag.default(true),
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses an environment object; throws an EnvError naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = envSchema.safeParse(cleaned);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
  throw new EnvError(`Invalid environment: ${lines.join("; ")}.`);
}

let cached: Env | undefined;

/** The process environment, validated on first use and cached. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
