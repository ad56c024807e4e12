/**
 * The demo tenants' routing configurations as data: what their operators have stored, as
 * `RoutingConfigJson`, with the time each version took effect. Built from the same profile
 * data the demo agent runs (lib/demo/agent.ts builds its pipelines through
 * `demoRoutingConfig` too), so each version here is the `config_version` the demo's events
 * carry while it is in force.
 */
import type { RoutingConfigJson } from "@/lib/schemas/routing-config";
import {
  configVersion,
  type RoutingConfig,
  routingConfigToJson,
  ToolCatalog,
} from "@/lib/selection";
import type { StoryWindow } from "./agent";
import { DEMO_PROFILES, type DemoRouting, type DemoTool, type TenantProfile } from "./profiles";

/** Tool name → trigger keywords: each tool's own, plus those the configuration adds. */
export function triggerKeywords(
  tools: readonly DemoTool[],
  routing: DemoRouting,
): Record<string, string[]> {
  const keywords: Record<string, string[]> = {};
  for (const tool of tools) {
    const words = [...(tool.keywords ?? []), ...(routing.extraKeywords?.[tool.name] ?? [])];
    if (words.length > 0) keywords[tool.name] = words;
  }
  return keywords;
}

/** The stored (static) routing configuration of `profile` under `routing`. */
export function demoRoutingConfig(
  profile: TenantProfile,
  routing: DemoRouting,
  catalog: ToolCatalog = new ToolCatalog(profile.tools),
): RoutingConfig {
  return {
    roleTools: routing.roleTools,
    alwaysInclude: routing.alwaysInclude,
    triggerKeywords: triggerKeywords(profile.tools, routing),
    policy: routing.policy ?? null,
    catalog,
  };
}

/**
 * The first whole millisecond at which the demo agent (`DemoTenant.versionAt`) is at position
 * `at` of the window or later, so a stored version takes effect exactly when the events switch.
 */
function firstMsAt(at: number, from: number, span: number): number {
  let ms = Math.ceil(from + at * span);
  while ((ms - from) / span < at) ms += 1;
  while ((ms - 1 - from) / span >= at) ms -= 1;
  return ms;
}

/** One version of a demo tenant's configuration, as its operators stored it. */
export interface DemoConfigVersion {
  readonly tenantId: string;
  readonly json: RoutingConfigJson;
  readonly configVersion: string;
  /** When it took effect: the story window's start for the first version. */
  readonly effectiveAt: Date;
  /** What changed, in the operators' words. */
  readonly note: string;
}

/**
 * Every demo tenant's configuration versions within `story`, per tenant in the order they took
 * effect (the support tenant changes its configuration inside the window; the others keep
 * one). Changes that only switch modes are not configuration versions and are left out.
 */
export function demoRoutingConfigs(
  story: StoryWindow,
  profiles: readonly TenantProfile[] = DEMO_PROFILES,
): DemoConfigVersion[] {
  const from = story.from.getTime();
  const span = Math.max(1, story.to.getTime() - from);
  return profiles.flatMap((profile) => {
    const catalog = new ToolCatalog(profile.tools);
    const version = (routing: DemoRouting, effectiveAt: number, note: string) => {
      const config = demoRoutingConfig(profile, routing, catalog);
      return {
        tenantId: profile.tenantId,
        json: routingConfigToJson(config),
        configVersion: configVersion(config),
        effectiveAt: new Date(effectiveAt),
        note,
      };
    };
    const changes = [...profile.changes].sort((a, b) => a.at - b.at);
    return [
      version(profile.routing, from, "Initial configuration"),
      ...changes.flatMap((change) =>
        change.routing
          ? [version(change.routing, firstMsAt(change.at, from, span), change.description)]
          : [],
      ),
    ];
  });
}
