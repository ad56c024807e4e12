/**
 * The command line of `npm run simulate`, parsed and checked in one place. Every mistake is a
 * `UsageError` whose message names the argument at fault.
 */
import { parseArgs } from "node:util";
import { parseDuration } from "@/lib/db/prune";
import { selectProfiles, type TenantProfile } from "./profiles";
import { DEFAULT_DECISIONS_PER_DAY, DEFAULT_SEED } from "./traffic";

export const SIMULATE_USAGE = `usage: npm run simulate -- (--backfill <span> | --live | both) [options]

  --backfill <span>    write this much history ending now, as fast as the server takes it
                       (e.g. 7d, 36h, 90m, 2w)
  --live               keep sending traffic in real time until Ctrl-C
  --endpoint <url>     the Routelens server (default http://localhost:3000, or ROUTELENS_ENDPOINT)
  --key <key>          an API key (or ROUTELENS_API_KEY); all traffic goes to its tenant
  --keys-file <path>   JSON {"<tenant>": "<key>"} with a key per demo tenant
                       (default .data/demo-keys.json, written by npm run dev)
  --tenants <list>     demo tenants: pricing,support,analytics or all (default all)
  --seed <n>           random seed; the same seed gives the same traffic (default ${DEFAULT_SEED})
  --per-day <n>        decisions per day across the tenants (default ${DEFAULT_DECISIONS_PER_DAY})
  --concurrency <n>    requests in flight (default 4)
  --help               show this`;

export class UsageError extends Error {
  override name = "UsageError";
}

export interface SimulateOptions {
  readonly help: boolean;
  /** History to write, in ms, or null for none. */
  readonly backfillMs: number | null;
  readonly live: boolean;
  readonly endpoint: string;
  /** One key for all traffic (from --key or ROUTELENS_API_KEY), or null. */
  readonly key: string | null;
  /** Where per-tenant keys are read from when there is no single key. */
  readonly keysFile: string;
  /** Whether --keys-file was given (so a missing file is an error, not a hint). */
  readonly keysFileGiven: boolean;
  readonly profiles: readonly TenantProfile[];
  readonly seed: number;
  readonly decisionsPerDay: number;
  readonly concurrency: number;
}

export const DEFAULT_KEYS_FILE = ".data/demo-keys.json";

function wholeNumber(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got "${text}")`);
  }
  return value;
}

export function parseSimulateArgs(
  argv: readonly string[],
  environment: Readonly<Record<string, string | undefined>> = {},
): SimulateOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        backfill: { type: "string" },
        live: { type: "boolean" },
        endpoint: { type: "string" },
        key: { type: "string" },
        "keys-file": { type: "string" },
        tenants: { type: "string" },
        seed: { type: "string" },
        "per-day": { type: "string" },
        concurrency: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.replace(/\. To specify a positional argument.*$/s, ""));
  }
  const text = (name: string) => values[name] as string | undefined;

  const help = values.help === true;
  const live = values.live === true;
  let backfillMs: number | null = null;
  const backfill = text("backfill");
  if (backfill !== undefined) {
    backfillMs = parseDuration(backfill);
    if (backfillMs === null) {
      throw new UsageError(`--backfill must be a span like 7d, 36h, 90m or 2w (got "${backfill}")`);
    }
    if (backfillMs > 90 * 86_400_000) throw new UsageError("--backfill is at most 90d");
  }
  if (!help && backfillMs === null && !live) {
    throw new UsageError("choose --backfill <span>, --live, or both");
  }

  // An empty variable counts as unset.
  const endpoint = text("endpoint") ?? (environment.ROUTELENS_ENDPOINT || "http://localhost:3000");
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new UsageError(`--endpoint must be an http(s) URL (got "${endpoint}")`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`--endpoint must be an http(s) URL (got "${endpoint}")`);
  }

  const key = text("key") ?? (environment.ROUTELENS_API_KEY || null);
  if (key !== null && key.trim().length === 0) throw new UsageError("--key must not be empty");

  let profiles: TenantProfile[];
  try {
    profiles = selectProfiles(text("tenants") ?? "all");
  } catch (error) {
    throw new UsageError(`--tenants: ${error instanceof Error ? error.message : String(error)}`);
  }

  return {
    help,
    backfillMs,
    live,
    endpoint: url.toString().replace(/\/$/, ""),
    key: key?.trim() ?? null,
    keysFile: text("keys-file") ?? DEFAULT_KEYS_FILE,
    keysFileGiven: text("keys-file") !== undefined,
    profiles,
    seed:
      text("seed") === undefined
        ? DEFAULT_SEED
        : wholeNumber("seed", text("seed") ?? "", 0, 2 ** 32 - 1),
    decisionsPerDay:
      text("per-day") === undefined
        ? DEFAULT_DECISIONS_PER_DAY
        : wholeNumber("per-day", text("per-day") ?? "", 1, 10_000_000),
    concurrency:
      text("concurrency") === undefined
        ? 4
        : wholeNumber("concurrency", text("concurrency") ?? "", 1, 32),
  };
}

/** Reads a keys file's content: `{"<tenant id>": "<key>"}`. Throws a sentence on a bad file. */
export function parseKeysFile(content: string, path: string): Record<string, string> {
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    throw new UsageError(`${path} is not valid JSON`);
  }
  const keys =
    json && typeof json === "object" && "keys" in json ? (json as { keys: unknown }).keys : json;
  if (!keys || typeof keys !== "object" || Array.isArray(keys)) {
    throw new UsageError(`${path} must hold {"<tenant>": "<key>", …}`);
  }
  const out: Record<string, string> = {};
  for (const [tenant, value] of Object.entries(keys)) {
    if (typeof value === "string" && value.length > 0) out[tenant] = value;
  }
  return out;
}
