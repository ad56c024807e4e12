/**
 * A backtest's configs: the stored JSON form read into the `RoutingConfig` the selection core
 * takes, with its version. Pure.
 */
import { configVersion, type RoutingConfig, ToolCatalog } from "@/lib/selection";

export type ReadConfigResult =
  | { ok: true; config: RoutingConfig; version: string }
  | { ok: false; error: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function names(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || value.some((name) => typeof name !== "string")) {
    throw new TypeError(`${field} must be a list of tool names`);
  }
  return value as string[];
}

function nameMap(value: unknown, field: string): Record<string, string[]> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw new TypeError(`${field} must be an object of name lists`);
  const map: Record<string, string[]> = {};
  for (const [key, list] of Object.entries(value)) {
    if (list !== null) map[key] = names(list, `${field}.${key}`);
  }
  return map;
}

/** Reads a config's JSON form; refusals name the field. */
export function readBacktestConfig(json: unknown): ReadConfigResult {
  try {
    if (!isRecord(json)) throw new TypeError("config must be a JSON object");
    const config: RoutingConfig = {
      ...(json.roleTools !== undefined ? { roleTools: nameMap(json.roleTools, "roleTools") } : {}),
      ...(json.alwaysInclude !== undefined
        ? { alwaysInclude: names(json.alwaysInclude, "alwaysInclude") }
        : {}),
      ...(json.triggerKeywords !== undefined
        ? { triggerKeywords: nameMap(json.triggerKeywords, "triggerKeywords") }
        : {}),
      ...(json.policy !== undefined && json.policy !== null
        ? { policy: json.policy as RoutingConfig["policy"] }
        : {}),
      ...(Array.isArray(json.catalog) ? { catalog: new ToolCatalog(json.catalog) } : {}),
    };
    return { ok: true, config, version: configVersion(config) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
