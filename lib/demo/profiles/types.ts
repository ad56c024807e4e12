/**
 * The shape of a demo tenant: its tools, its routing configuration (and how that changes
 * over the demo window), and what its users ask. Plain data; `lib/demo/agent.ts` turns it
 * into real selection-core configurations.
 */
import type { RoutingPolicyConfig, SafetyLevel } from "@/lib/selection";

export const DEMO_ROLES = ["action", "reasoning", "reflection"] as const;
export type DemoRole = (typeof DEMO_ROLES)[number];
export type DemoMode = "observe" | "enforce";

/** A tool as the demo agent registers it: the selection core reads these fields. */
export interface DemoTool {
  readonly name: string;
  readonly description: string;
  readonly category: string;
  readonly safetyLevel?: SafetyLevel;
  readonly costUsd?: number;
  readonly requiredCapability?: string;
  /** Words in a request that make the intent classifier match this tool (trigger keywords). */
  readonly keywords?: readonly string[];
}

/** One model iteration the agent plans within a turn. */
export interface DemoStep {
  readonly role: DemoRole;
  /** The tools the model means to call; empty means it answers (or reflects) without one. */
  readonly calls: readonly string[];
  /** Probability that this step happens at all. Default 1. */
  readonly p?: number;
  /** Alternatives: when given, one of these call lists replaces `calls`, chosen uniformly. */
  readonly oneOf?: readonly (readonly string[])[];
}

/** Something users ask, and how the agent goes about it. */
export interface DemoScenario {
  readonly name: string;
  /** Relative frequency. */
  readonly weight: number;
  /** How users phrase it; the classifier matches tools whose keywords occur in the text. */
  readonly queries: readonly string[];
  /** The classifier's verdict for this kind of request. */
  readonly intent: "action" | "knowledge" | "ambiguous";
  readonly steps: readonly DemoStep[];
  /** A tool the agent forces on the turn's first model call (a policy check, say). */
  readonly forced?: string;
  /** The tool names a procedure router resolves for the turn (lazy routing). */
  readonly procedure?: readonly string[];
  /** Only asked as a follow-up, never to open a run. */
  readonly followUpOnly?: boolean;
}

/** The static routing configuration of one tenant at one point in time. */
export interface DemoRouting {
  readonly roleTools: Readonly<Record<DemoRole, readonly string[]>>;
  readonly alwaysInclude: readonly string[];
  /** Trigger keywords added by configuration, on top of each tool's own. */
  readonly extraKeywords?: Readonly<Record<string, readonly string[]>>;
  readonly policy?: RoutingPolicyConfig;
}

/** A change the tenant's operators make inside the demo window. */
export interface DemoChange {
  /** Where in the demo window it takes effect: 0 is the start, 1 the end. */
  readonly at: number;
  readonly description: string;
  /** The routing configuration from then on. */
  readonly routing?: DemoRouting;
  /** Roles whose mode changes from then on. */
  readonly modes?: Partial<Record<DemoRole, DemoMode>>;
}

/** A workspace (brand, region, team) runs come from. */
export interface DemoWorkspace {
  readonly name: string;
  readonly weight: number;
  /** Roles whose palette resolver has no entry for this workspace, and so answers []. */
  readonly unconfiguredRoles?: readonly DemoRole[];
}

export interface TenantProfile {
  /** Short name used by `--tenants`, e.g. "support". */
  readonly key: string;
  readonly tenantId: string;
  readonly domain: string;
  readonly agent: string;
  readonly models: readonly { readonly name: string; readonly weight: number }[];
  readonly tools: readonly DemoTool[];
  readonly routing: DemoRouting;
  readonly modes: Readonly<Record<DemoRole, DemoMode>>;
  readonly changes: readonly DemoChange[];
  readonly scenarios: readonly DemoScenario[];
  readonly workspaces: readonly DemoWorkspace[];
  /** Share of all demo decisions this tenant produces. */
  readonly share: number;
  /** Where its users are: local time is UTC plus this many hours. */
  readonly utcOffsetHours: number;
  /** Weekend traffic relative to a weekday. */
  readonly weekendActivity: number;
  /** Turns (user messages) per run, as relative weights for 1, 2, 3, … turns. */
  readonly turnWeights: readonly number[];
  /** Typical model iterations per run, used to turn decisions per day into runs per hour. */
  readonly meanDecisionsPerRun: number;
}
