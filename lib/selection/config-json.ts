/**
 * A routing configuration and its JSON form (`RoutingConfigJson`, lib/schemas/routing-config.ts)
 * in both directions. Pure: the JSON is expected to have passed `routingConfigJsonSchema`
 * already (this module does not validate it). The version is preserved both ways:
 * `configVersion(routingConfigFromJson(json))` is the version of the same configuration written
 * in code, whatever the order of keys and of name lists.
 */
import type {
  CatalogEntryJson,
  RoutingConfigJson,
  RoutingPolicyJson,
} from "@/lib/schemas/routing-config";
import { ToolCatalog } from "./catalog";
import type { RoutingConfig, RoutingPolicyConfig } from "./default-pipeline";
import { ContractViolationError } from "./errors";

function policyFromJson(policy: RoutingPolicyJson): RoutingPolicyConfig {
  return {
    ...(policy.maxSafetyLevel !== undefined ? { maxSafetyLevel: policy.maxSafetyLevel } : {}),
    ...(policy.budgetUsd !== undefined ? { budgetUsd: policy.budgetUsd } : {}),
    ...(policy.includeUnknownCost !== undefined
      ? { includeUnknownCost: policy.includeUnknownCost }
      : {}),
    ...(policy.availableCapabilities !== undefined
      ? { availableCapabilities: policy.availableCapabilities }
      : {}),
    ...(policy.agentVisibleOnly !== undefined ? { agentVisibleOnly: policy.agentVisibleOnly } : {}),
    ...(policy.categories !== undefined ? { categories: policy.categories } : {}),
    ...(policy.maxTools !== undefined ? { maxTools: policy.maxTools } : {}),
  };
}

/** A `RoutingConfig` (no per-turn inputs, no custom resolvers) from its JSON form. */
export function routingConfigFromJson(json: RoutingConfigJson): RoutingConfig {
  return {
    ...(json.roleTools !== undefined ? { roleTools: json.roleTools } : {}),
    ...(json.alwaysInclude !== undefined ? { alwaysInclude: json.alwaysInclude } : {}),
    ...(json.triggerKeywords !== undefined ? { triggerKeywords: json.triggerKeywords } : {}),
    ...(json.forcedChoiceStateKey !== undefined
      ? { forcedChoiceStateKey: json.forcedChoiceStateKey }
      : {}),
    ...(json.policy != null ? { policy: policyFromJson(json.policy) } : {}),
    // Catalogue entries are plain tool-shaped objects: the catalogue reads them as it reads tools.
    ...(json.catalog != null ? { catalog: new ToolCatalog(json.catalog) } : {}),
  };
}

function copyNames(names: readonly string[]): string[] {
  return [...names];
}

function copyNameMap<V extends readonly string[] | null>(
  map: Readonly<Record<string, V>>,
): Record<string, string[] | null> {
  const copy: Record<string, string[] | null> = {};
  for (const [key, names] of Object.entries(map)) copy[key] = names === null ? null : [...names];
  return copy;
}

function policyToJson(policy: RoutingPolicyConfig): RoutingPolicyJson {
  const json: { -readonly [K in keyof RoutingPolicyJson]: RoutingPolicyJson[K] } = {};
  if (policy.maxSafetyLevel !== undefined) json.maxSafetyLevel = policy.maxSafetyLevel;
  if (policy.budgetUsd !== undefined) json.budgetUsd = policy.budgetUsd;
  if (policy.includeUnknownCost !== undefined) json.includeUnknownCost = policy.includeUnknownCost;
  if (policy.availableCapabilities !== undefined) {
    json.availableCapabilities =
      policy.availableCapabilities === null ? null : copyNames(policy.availableCapabilities);
  }
  if (policy.agentVisibleOnly !== undefined) json.agentVisibleOnly = policy.agentVisibleOnly;
  if (policy.categories !== undefined) {
    json.categories = policy.categories === null ? null : copyNames(policy.categories);
  }
  if (policy.maxTools !== undefined) json.maxTools = policy.maxTools;
  return json;
}

function catalogToJson(catalog: ToolCatalog): CatalogEntryJson[] {
  return catalog.entries().map((entry) => ({
    name: entry.name,
    description: entry.description,
    visibility: entry.visibility,
    costUsd: entry.costUsd,
    safetyLevel: entry.safetyLevel,
    requiredCapability: entry.requiredCapability,
    category: entry.category,
  }));
}

/**
 * The JSON form of `config`'s static part (its `turn` is not part of a configuration). Throws
 * `ContractViolationError` for a custom palette or forced-choice resolver: code has no JSON
 * form, and leaving it out would describe a different configuration.
 */
export function routingConfigToJson(config: RoutingConfig): RoutingConfigJson {
  const custom = [
    config.paletteResolver ? "paletteResolver" : null,
    config.forcedChoiceResolver ? "forcedChoiceResolver" : null,
  ].filter((name) => name !== null);
  if (custom.length > 0) {
    throw new ContractViolationError(
      `a routing configuration with a custom ${custom.join(" and ")} has no JSON form: ` +
        "express the palette as roleTools (and the forced choice as a state stamp) instead",
    );
  }
  return {
    ...(config.roleTools !== undefined ? { roleTools: copyNameMap(config.roleTools) } : {}),
    ...(config.alwaysInclude !== undefined
      ? { alwaysInclude: copyNames(config.alwaysInclude) }
      : {}),
    ...(config.triggerKeywords !== undefined
      ? { triggerKeywords: copyNameMap(config.triggerKeywords) as Record<string, string[]> }
      : {}),
    ...(config.forcedChoiceStateKey !== undefined
      ? { forcedChoiceStateKey: config.forcedChoiceStateKey }
      : {}),
    ...(config.policy != null ? { policy: policyToJson(config.policy) } : {}),
    ...(config.catalog != null ? { catalog: catalogToJson(config.catalog) } : {}),
  };
}
