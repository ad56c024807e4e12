/**
 * A backtest's configs: the stored JSON form checked against the routing config JSON schema
 * and read into the `RoutingConfig` the selection core takes, with its version. Pure.
 */
import { routingConfigJsonSchema } from "@/lib/schemas/routing-config";
import { configVersion, type RoutingConfig, routingConfigFromJson } from "@/lib/selection";

export type ReadConfigResult =
  | { ok: true; config: RoutingConfig; version: string }
  | { ok: false; error: string };

/** Reads a config's JSON form; a refusal names the field and the rule. */
export function readBacktestConfig(json: unknown): ReadConfigResult {
  const parsed = routingConfigJsonSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".") ?? "";
    return { ok: false, error: `${path ? `${path}: ` : ""}${issue?.message ?? "not a config"}` };
  }
  const config = routingConfigFromJson(parsed.data);
  return { ok: true, config, version: configVersion(config) };
}
