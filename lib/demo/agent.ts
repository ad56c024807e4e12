/**
 * A simulated agent and model for one demo tenant. Every model iteration goes through the
 * real selection core (`prepareRouting` once per configuration version, then its `pipeline`
 * per turn, and `routeTurn`) in the tenant's mode for that role at
 * that moment; the simulated model then calls tools the way the scenario planned, within what
 * it was offered:
 *
 * - observe: the model sees every tool, so it calls what it planned — when the narrowing had
 *   dropped that tool, the outcome is a harmful drop;
 * - enforce: a planned tool that was narrowed away is replaced by a similar visible one
 *   sometimes; otherwise the model calls nothing and the turn ends (a zero-call outcome);
 * - a forced tool is always called on the turn's first iteration, even where a role palette
 *   excludes it (the pipeline reinstates it).
 *
 * Pure apart from the clock values it is given: the same profile, window and run seed give the
 * same events.
 */
import type { ToolCallOutcome, ToolRoutingDecision } from "@/lib/schemas/events";
import {
  configVersion,
  type IntentVerdict,
  type Message,
  namesOf,
  type PreparedRouting,
  prepareRouting,
  type RoutingConfig,
  routeTurn,
  type SelectionPipeline,
  staticRolePaletteResolver,
  ToolCatalog,
  type ToolPaletteResolver,
} from "@/lib/selection";
import { outcomeFor } from "@/lib/telemetry/events";
import type {
  DemoMode,
  DemoRole,
  DemoRouting,
  DemoScenario,
  DemoStep,
  TenantProfile,
} from "./profiles";
import { Random } from "./random";
import { demoRoutingConfig } from "./routing-configs";
import type { RunPlan } from "./schedule";

/** The window the tenant's configuration changes are placed in (`DemoChange.at`). */
export interface StoryWindow {
  readonly from: Date;
  readonly to: Date;
}

/** One simulated run: its events in time order (each decision followed by its outcome). */
export interface DemoRun {
  readonly tenantId: string;
  readonly runId: string;
  readonly start: number;
  readonly events: (ToolRoutingDecision | ToolCallOutcome)[];
  readonly decisions: number;
}

const MAX_ITERATIONS_PER_TURN = 12;
const SUBSTITUTE_PROBABILITY = 0.35;
const TOOL_ERROR_PROBABILITY = 0.02;
const MISCLASSIFIED_AMBIGUOUS = 0.05;
const TOOL_ERRORS = [
  "upstream timeout after 30 s",
  "rate limited by the upstream API (429)",
  "invalid arguments: missing required field",
  "permission denied for this account",
];

/** A tool whose keywords occur in the request (at a word start, case-insensitive). */
function keywordMatcher(keywords: Readonly<Record<string, readonly string[]>>) {
  const patterns = Object.entries(keywords)
    .filter(([, words]) => words.length > 0)
    .map(([name, words]) => {
      const alternatives = words.map((w) => w.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
      return [name, new RegExp(`(^|[^a-z0-9])(${alternatives.join("|")})`, "i")] as const;
    });
  return (query: string) => patterns.filter(([, re]) => re.test(query)).map(([name]) => name);
}

/**
 * The tenant's palette resolver: its role → tools map, except in workspaces where a role was
 * never configured, where it answers [] (the stage then abstains with an empty-palette warning).
 */
function workspacePaletteResolver(
  profile: TenantProfile,
  routing: DemoRouting,
): ToolPaletteResolver {
  const byRole = staticRolePaletteResolver(routing.roleTools);
  const unconfigured = new Map(
    profile.workspaces.map((w) => [w.name, new Set<string>(w.unconfiguredRoles ?? [])] as const),
  );
  return {
    resolve(state, role, allTools) {
      const workspace = typeof state.workspace === "string" ? state.workspace : "";
      if (unconfigured.get(workspace)?.has(role)) return [];
      return byRole.resolve(state, role, allTools);
    },
  };
}

/**
 * One version of the tenant's routing configuration, prepared once. The events carry the
 * version of the stored configuration (`demoRoutingConfig`, which `demoRoutingConfigs` lists
 * as data). The workspace gating of the palette resolver is not part of it: it stands for a
 * deployment whose palette lookup lacks some workspaces, which a stored configuration cannot
 * say and backtests replay from the recorded trace.
 */
class RoutingVersion {
  /** The stored configuration (no workspace gating), and its version. */
  readonly config: RoutingConfig;
  readonly configVersion: string;
  readonly routing: PreparedRouting;
  readonly match: (query: string) => string[];
  private readonly matches = new Map<string, string[]>();

  constructor(profile: TenantProfile, routing: DemoRouting, catalog: ToolCatalog) {
    const stored = demoRoutingConfig(profile, routing, catalog);
    this.config = stored;
    this.configVersion = configVersion(stored);
    this.match = keywordMatcher(stored.triggerKeywords ?? {});
    this.routing = prepareRouting({
      ...stored,
      paletteResolver: workspacePaletteResolver(profile, routing),
    });
  }

  matchedTools(query: string): string[] {
    let matched = this.matches.get(query);
    if (!matched) {
      matched = this.match(query);
      this.matches.set(query, matched);
    }
    return matched;
  }

  /** The default pipeline for one turn's inputs. */
  pipelineFor(verdict: IntentVerdict, procedure: readonly string[] | undefined): SelectionPipeline {
    return this.routing.pipeline({ verdict, allowedNames: procedure ?? null });
  }
}

/** A demo tenant inside a story window: its configuration and modes at any moment. */
export class DemoTenant {
  readonly profile: TenantProfile;
  private readonly from: number;
  private readonly span: number;
  private readonly versions: { at: number; version: RoutingVersion }[];
  private readonly modeChanges: { at: number; role: DemoRole; mode: DemoMode }[];
  private readonly categories: Map<string, string>;
  private readonly alwaysInclude: Set<string>;

  constructor(profile: TenantProfile, story: StoryWindow) {
    this.profile = profile;
    this.from = story.from.getTime();
    this.span = Math.max(1, story.to.getTime() - this.from);
    const catalog = new ToolCatalog(profile.tools);
    this.versions = [
      {
        at: Number.NEGATIVE_INFINITY,
        version: new RoutingVersion(profile, profile.routing, catalog),
      },
    ];
    this.modeChanges = [];
    for (const change of [...profile.changes].sort((a, b) => a.at - b.at)) {
      if (change.routing) {
        this.versions.push({
          at: change.at,
          version: new RoutingVersion(profile, change.routing, catalog),
        });
      }
      for (const [role, mode] of Object.entries(change.modes ?? {})) {
        this.modeChanges.push({ at: change.at, role: role as DemoRole, mode: mode as DemoMode });
      }
    }
    this.categories = new Map(profile.tools.map((tool) => [tool.name, tool.category]));
    this.alwaysInclude = new Set(profile.routing.alwaysInclude);
  }

  /** Position of `ms` in the story window: 0 at its start, 1 at its end. */
  private position(ms: number): number {
    return (ms - this.from) / this.span;
  }

  versionAt(ms: number): RoutingVersion {
    const at = this.position(ms);
    let current = this.versions[0]?.version as RoutingVersion;
    for (const entry of this.versions) if (entry.at <= at) current = entry.version;
    return current;
  }

  /** The `config_version` of the configuration in force at `ms`. */
  configVersionAt(ms: number): string {
    return this.versionAt(ms).configVersion;
  }

  modeAt(role: DemoRole, ms: number): DemoMode {
    const at = this.position(ms);
    let mode = this.profile.modes[role];
    for (const change of this.modeChanges)
      if (change.role === role && change.at <= at) mode = change.mode;
    return mode;
  }

  /**
   * What an enforce-mode model does when the tool it wanted is not offered: sometimes it
   * settles for a similar visible tool, otherwise it calls nothing.
   */
  substitute(wanted: string, visible: readonly string[], random: Random): string | null {
    const category = this.categories.get(wanted);
    const similar = visible.filter(
      (name) =>
        name !== wanted && !this.alwaysInclude.has(name) && this.categories.get(name) === category,
    );
    return similar.length > 0 && random.chance(SUBSTITUTE_PROBABILITY)
      ? random.pick(similar)
      : null;
  }

  /** Simulates one run (several turns, several model iterations each). */
  async simulateRun(plan: Pick<RunPlan, "start" | "seed">): Promise<DemoRun> {
    const profile = this.profile;
    const random = new Random(plan.seed);
    const runId = `${profile.key}-${random.id(12)}`;
    const model = random.weighted(profile.models, (m) => m.weight).name;
    const workspace = random.weighted(profile.workspaces, (w) => w.weight).name;
    const turns = 1 + pickIndex(profile.turnWeights, random);
    const openers = profile.scenarios.filter((s) => !s.followUpOnly);
    const messages: Message[] = [];
    const events: (ToolRoutingDecision | ToolCallOutcome)[] = [];
    let clock = plan.start;
    let iteration = 0;

    for (let turn = 0; turn < turns; turn++) {
      const scenario = random.weighted(turn === 0 ? openers : profile.scenarios, (s) => s.weight);
      const query = random.pick(scenario.queries);
      const version = this.versionAt(clock);
      const verdict = classify(scenario, version.matchedTools(query), random);
      const pipeline = version.pipelineFor(verdict, scenario.procedure);
      messages.push({ type: "human", content: query });
      const state: Record<string, unknown> = { messages, workspace };
      if (scenario.forced) state.forced_tool_choice = scenario.forced;

      const steps = expandSteps(scenario.steps, random);
      let step = 0;
      for (let hop = 0; step < steps.length && hop < MAX_ITERATIONS_PER_TURN; hop++) {
        const planned = steps[step] as { role: DemoRole; calls: readonly string[] };
        const mode = this.modeAt(planned.role, clock);
        const { tools, forcedChoice, event } = await routeTurn({
          mode,
          pipeline,
          tools: profile.tools,
          context: { state, role: planned.role, query },
          meta: {
            runId,
            iteration,
            role: planned.role,
            model,
            agent: profile.agent,
            eventId: `${runId}.${iteration}.d`,
            timestamp: new Date(clock),
            intent: verdict,
            configVersion: version.configVersion,
          },
        });
        if (!event) throw new Error("routeTurn returned no event outside off mode");

        const visible = namesOf(tools);
        let called: string[];
        let gaveUp = false;
        if (forcedChoice !== null) {
          called = [forcedChoice];
        } else {
          called = [];
          for (const wanted of planned.calls) {
            const name = visible.includes(wanted)
              ? wanted
              : this.substitute(wanted, visible, random);
            if (name !== null && !called.includes(name)) called.push(name);
          }
          gaveUp = planned.calls.length > 0 && called.length === 0;
          step++;
        }

        const thinking = clamp(random.logNormal(1_600, 0.5), 300, 20_000);
        const failed = called.length > 0 && random.chance(TOOL_ERROR_PROBABILITY);
        events.push(
          event,
          outcomeFor(event, called, {
            event_id: `${runId}.${iteration}.o`,
            timestamp: new Date(clock + Math.round(thinking)).toISOString(),
            ...(failed ? { error: `${random.pick(called)}: ${random.pick(TOOL_ERRORS)}` } : {}),
          }),
        );
        messages.push({ type: "ai" });
        for (const name of called) messages.push({ type: "tool", name });
        const toolTime = called.length > 0 ? clamp(random.logNormal(500, 0.9), 50, 30_000) : 0;
        clock += Math.round(thinking + toolTime);
        iteration++;
        if (gaveUp) break;
      }
      clock += Math.round(clamp(random.logNormal(35_000, 0.7), 4_000, 600_000));
    }
    return {
      tenantId: profile.tenantId,
      runId,
      start: plan.start,
      events,
      decisions: iteration,
    };
  }
}

/** The classifier's verdict: usually the scenario's, sometimes unsure. */
function classify(scenario: DemoScenario, matched: string[], random: Random): IntentVerdict {
  const label =
    scenario.intent === "action" && random.chance(MISCLASSIFIED_AMBIGUOUS)
      ? "ambiguous"
      : scenario.intent;
  return { label, matchedToolKeywords: label === "action" ? matched : [] };
}

/** The steps that happen this time, with alternatives chosen. */
function expandSteps(
  steps: readonly DemoStep[],
  random: Random,
): { role: DemoRole; calls: readonly string[] }[] {
  return steps
    .filter((step) => step.p === undefined || random.chance(step.p))
    .map((step) => ({ role: step.role, calls: step.oneOf ? random.pick(step.oneOf) : step.calls }));
}

function pickIndex(weights: readonly number[], random: Random): number {
  return random.weighted(
    weights.map((weight, index) => ({ weight, index })),
    (w) => w.weight,
  ).index;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
