/**
 * Routelens selection core (SPEC §1): pure TypeScript, no I/O. Narrows the tools an agent offers
 * its model on each iteration and records why. See README.md in this folder.
 */

export { type CatalogEntry, ToolCatalog } from "./catalog";
export { routingConfigFromJson, routingConfigToJson } from "./config-json";
export {
  configVersion,
  defaultPipeline,
  type PreparedRouting,
  prepareRouting,
  type RoutingConfig,
  type RoutingPolicyConfig,
  type TurnInputs,
} from "./default-pipeline";
export { estimateDroppedTokens, estimateToolTokens } from "./dropped-tokens";
export { ContractViolationError, ForcedToolUnavailable } from "./errors";
export { isToolMessage, resolveMessages, turnHopIndex } from "./messages";
export {
  type AbstainOptions,
  type StageAction,
  StageOutcome,
  type StageRecord,
} from "./outcome";
export { paletteIdentity } from "./palette-identity";
export {
  SelectionPipeline,
  type SelectionPipelineOptions,
  type SelectionResult,
} from "./pipeline";
export {
  type RouteTurnArgs,
  type RouteTurnMeta,
  type RouteTurnResult,
  routeTurn,
  type SelectionMode,
  toWireRecord,
  toWireWarning,
} from "./route-turn";
export type { SelectionStage, StageContext } from "./stage";
export { AllowlistStage, type AllowlistStageOptions } from "./stages/allowlist";
export {
  type ForcedChoiceResolver,
  ForcedChoiceStage,
  type ForcedChoiceStageOptions,
} from "./stages/forced-choice";
export {
  DEFAULT_ALWAYS_INCLUDE,
  type IntentDomain,
  IntentRoutingStage,
  type IntentRoutingStageOptions,
  narrowToolsForIntent,
} from "./stages/intent-routing";
export { LazyRoutingStage, type LazyRoutingStageOptions } from "./stages/lazy-routing";
export {
  PolicyStage,
  type PolicyStageOptions,
  SAFETY_LEVELS,
  type SafetyLevel,
  safetyRank,
} from "./stages/policy";
export {
  RolePaletteStage,
  type RolePaletteStageOptions,
  staticRolePaletteResolver,
  type ToolPaletteResolver,
} from "./stages/role-palette";
export { filterByNames, namesOf, readToolName } from "./tools";
export type {
  IntentVerdict,
  Message,
  MessageType,
  SelectionContext,
  SelectionState,
  SelectionWarning,
  SelectionWarningCode,
  Tool,
} from "./types";
