/**
 * The default pipeline, the version hash of the configuration it is built from, and the
 * prepared form that builds the static part once.
 *
 * A `RoutingConfig` holds the static configuration (what an operator changes, and what
 * `configVersion` hashes) and, under `turn`, the per-turn inputs (the intent verdict, the names
 * lazy routing resolved), which change every turn and are never part of the version.
 * `prepareRouting(config)` builds the static stages and the version once; its
 * `pipeline(turn)` then costs about a microsecond per turn.
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
  /** The most tools the policy lets through (a whole number ≥ 1); see `PolicyStage`. */
  readonly maxTools?: number | null;
}

/** What changes every turn. Not part of the configuration version. */
export interface TurnInputs {
  /** The intent classifier's verdict for this turn; none means intent routing abstains. */
  readonly verdict?: IntentVerdict | null;
  /** The names lazy routing resolved for this turn; none means it abstains. */
  readonly allowedNames?: readonly string[] | null;
}

export interface RoutingConfig {
  /**
   * Role → tool names, read by the default palette resolver. A role mapped to null, or not
   * mapped, abstains; a role mapped to [] abstains with an `empty_palette` warning.
   */
  readonly roleTools?: Readonly<Record<string, readonly string[] | null>>;
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

/** The map with every name list sorted; a key mapped to null means the same as no key. */
function sortedMap(
  map: Readonly<Record<string, readonly string[] | null>> | undefined,
): Record<string, string[]> {
  const sorted: Record<string, string[]> = {};
  for (const [key, names] of Object.entries(map ?? {})) {
    if (names != null) sorted[key] = [...new Set(names)].sort();
  }
  return sorted;
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
      // Only when set, so versions of configurations that predate the cap did not move.
      ...(policy.maxTools != null ? { maxTools: policy.maxTools } : {}),
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
 * A routing configuration prepared once: its static stages (forced choice, role palette,
 * policy, allowlist), its trigger-keyword table and its version are built here, so that a
 * pipeline per turn only adds the two per-turn stages (intent routing with the turn's verdict,
 * lazy routing with the turn's names).
 */
export interface PreparedRouting {
  /** `configVersion(config)`, computed once. */
  readonly configVersion: string;
  /** The configuration it was prepared from (its `turn` is not used). */
  readonly config: RoutingConfig;
  /**
   * The default pipeline for one turn's inputs: intent → lazy → forced choice → role palette →
   * policy → allowlist. Without `turn`, intent and lazy routing abstain.
   */
  pipeline(turn?: TurnInputs): SelectionPipeline;
}

/**
 * Prepares `config` once per configuration (not per turn). Throws `ContractViolationError`
 * for an invalid policy, as `PolicyStage` does. Its `turn`, if any, is ignored: pass the
 * turn's inputs to `pipeline(turn)`.
 */
export function prepareRouting(config: RoutingConfig): PreparedRouting {
  const version = configVersion(config);
  const alwaysInclude = config.alwaysInclude ?? DEFAULT_ALWAYS_INCLUDE;
  const catalog = config.catalog ?? null;
  const triggerKeywords: ReadonlyMap<string, readonly string[]> = new Map(
    Object.entries(config.triggerKeywords ?? {}),
  );
  const staticStages: readonly SelectionStage[] = [
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
  return {
    configVersion: version,
    config,
    pipeline(turn: TurnInputs = {}): SelectionPipeline {
      return new SelectionPipeline(
        [
          new IntentRoutingStage({
            verdict: turn.verdict ?? null,
            triggerKeywords,
            alwaysInclude,
          }),
          new LazyRoutingStage({ allowedNames: turn.allowedNames ?? null }),
          ...staticStages,
        ],
        { configVersion: version },
      );
    },
  };
}

/**
 * The default stage order: intent → lazy → forced choice → role palette → policy → allowlist,
 * for `config` and its `turn` inputs. It prepares the whole configuration (version hash
 * included) on every call; an agent routing many turns with one configuration calls
 * `prepareRouting(config)` once and `pipeline(turn)` per turn instead.
 */
export function defaultPipeline(config: RoutingConfig = {}): SelectionPipeline {
  return prepareRouting(config).pipeline(config.turn);
}
