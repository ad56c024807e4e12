/**
 * The default pipeline and the version hash of the configuration it is built from.
 *
 * A `RoutingConfig` holds the static configuration (what an operator changes, and what
 * `configVersion` hashes) and, under `turn`, the per-turn inputs (the intent verdict, the names
 * lazy routing resolved), which change every turn and are never part of the version.
 */
import type { ToolCatalog } from "./catalog";
import { canonicalJson, fnv1a64Hex } from "./hash";
import { SelectionPipeline } from "./pipeline";
import type { SelectionStage } from "./stage";
import { AllowlistStage } from "./stages/allowlist";
import { type ForcedChoiceResolver, ForcedChoiceStage } from "./stages/forced-choice";
import { DEFAULT_ALWAYS_INCLUDE, IntentRoutingStage } from "./stages/intent-routing";
import { LazyRoutingStage } from "./stages/lazy-routing";
import { PolicyStage, type SafetyLevel } from "./stages/policy";
import {
  RolePaletteStage,
  staticRolePaletteResolver,
  type ToolPaletteResolver,
} from "./stages/role-palette";
import type { IntentVerdict } from "./types";

/** Policy ceilings, as `PolicyStage` takes them (the catalogue is `RoutingConfig.catalog`). */
export interface RoutingPolicyConfig {
  readonly maxSafetyLevel?: SafetyLevel | number | null;
  readonly budgetUsd?: number | null;
  readonly includeUnknownCost?: boolean;
  readonly availableCapabilities?: readonly string[] | null;
  readonly agentVisibleOnly?: boolean;
  readonly categories?: readonly string[] | null;
}

/** What changes every turn. Not part of the configuration version. */
export interface TurnInputs {
  /** The intent classifier's verdict for this turn; none means intent routing abstains. */
  readonly verdict?: IntentVerdict | null;
  /** The names lazy routing resolved for this turn; none means it abstains. */
  readonly allowedNames?: readonly string[] | null;
}

export interface RoutingConfig {
  /** Role → tool names, read by the default palette resolver. An unmapped role abstains. */
  readonly roleTools?: Readonly<Record<string, readonly string[]>>;
  /** A custom palette resolver, used instead of `roleTools`. */
  readonly paletteResolver?: ToolPaletteResolver | null;
  /** Names kept by intent routing and re-added by the allowlist. Default ["hydrate_context"]. */
  readonly alwaysInclude?: readonly string[];
  /** Tool name → trigger keywords, for intent routing. */
  readonly triggerKeywords?: Readonly<Record<string, readonly string[]>>;
  /** Decides forced tool choices when the state carries no stamp. */
  readonly forcedChoiceResolver?: ForcedChoiceResolver | null;
  /** The state key of an explicit forced-choice stamp. Default "forced_tool_choice". */
  readonly forcedChoiceStateKey?: string;
  /** Policy ceilings; none means the policy stage abstains. */
  readonly policy?: RoutingPolicyConfig | null;
  /** Tool metadata for the policy and allowlist; when absent, read from the offered tools. */
  readonly catalog?: ToolCatalog | null;
  /** Per-turn inputs. */
  readonly turn?: TurnInputs;
}

function sortedUnique(names: readonly string[] | null | undefined): string[] | null {
  return names == null ? null : [...new Set(names)].sort();
}

function sortedMap(
  map: Readonly<Record<string, readonly string[]>> | undefined,
): Record<string, string[] | null> {
  return Object.fromEntries(
    Object.entries(map ?? {}).map(([key, names]) => [key, sortedUnique(names)]),
  );
}

/**
 * The static part of `config` as plain data, with defaults filled in and every name list
 * sorted: all of them are sets, so their order carries no meaning.
 */
function describeConfig(config: RoutingConfig): unknown {
  const policy = config.policy ?? {};
  return {
    format: 1,
    roleTools: sortedMap(config.roleTools),
    paletteResolver: config.paletteResolver ? "custom" : "static",
    alwaysInclude: sortedUnique(config.alwaysInclude ?? DEFAULT_ALWAYS_INCLUDE),
    triggerKeywords: sortedMap(config.triggerKeywords),
    forcedChoice: {
      resolver: config.forcedChoiceResolver ? "custom" : null,
      stateKey: config.forcedChoiceStateKey ?? "forced_tool_choice",
    },
    policy: {
      maxSafetyLevel: policy.maxSafetyLevel ?? null,
      budgetUsd: policy.budgetUsd ?? null,
      includeUnknownCost: policy.includeUnknownCost ?? true,
      availableCapabilities: sortedUnique(policy.availableCapabilities),
      agentVisibleOnly: policy.agentVisibleOnly ?? false,
      categories: sortedUnique(policy.categories),
    },
    catalog: config.catalog
      ? config.catalog.entries().sort((a, b) => (a.name < b.name ? -1 : 1))
      : null,
  };
}

/**
 * A stable version of the static routing configuration: "cfg_" + 16 hex digits of FNV-1a 64
 * over its canonical JSON. Key order and the order of name lists do not matter; `turn` inputs
 * and the code of custom resolvers are not included (only whether one is set).
 */
export function configVersion(config: RoutingConfig): string {
  return `cfg_${fnv1a64Hex(canonicalJson(describeConfig(config)))}`;
}

/**
 * The default stage order: intent → lazy → forced choice → role palette → policy → allowlist.
 * Build one per turn (stages are cheap): the static configuration stays the same, `turn` changes.
 * The pipeline carries `configVersion(config)`, which `routeTurn` puts on every event.
 */
export function defaultPipeline(config: RoutingConfig = {}): SelectionPipeline {
  const alwaysInclude = config.alwaysInclude ?? DEFAULT_ALWAYS_INCLUDE;
  const catalog = config.catalog ?? null;
  const stages: SelectionStage[] = [
    new IntentRoutingStage({
      verdict: config.turn?.verdict ?? null,
      triggerKeywords: config.triggerKeywords ?? null,
      alwaysInclude,
    }),
    new LazyRoutingStage({ allowedNames: config.turn?.allowedNames ?? null }),
    new ForcedChoiceStage({
      resolver: config.forcedChoiceResolver ?? null,
      stateKey: config.forcedChoiceStateKey,
    }),
    new RolePaletteStage({
      resolver: config.paletteResolver ?? staticRolePaletteResolver(config.roleTools ?? {}),
    }),
    new PolicyStage({ catalog, ...config.policy }),
    new AllowlistStage({ alwaysInclude, catalog }),
  ];
  return new SelectionPipeline(stages, { configVersion: configVersion(config) });
}
