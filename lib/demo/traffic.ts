/**
 * Demo traffic: plans runs over a time range for the chosen tenants and simulates them
 * through the selection core. Used by `npm run simulate` (over HTTP, through the telemetry
 * client) and by the demo loader of `npm run dev`.
 */
import { type DemoRun, DemoTenant, type StoryWindow } from "./agent";
import type { TenantProfile } from "./profiles";
import { planRuns, type RunPlan } from "./schedule";

export type { DemoRun, StoryWindow } from "./agent";
export type { RunPlan } from "./schedule";

/** Decisions per day across all demo tenants by default: a week is about 110,000. */
export const DEFAULT_DECISIONS_PER_DAY = 16_000;
export const DEFAULT_SEED = 7;

export interface DemoTrafficOptions {
  readonly profiles: readonly TenantProfile[];
  /** Where configuration changes and the observe → enforce switch happen. */
  readonly story: StoryWindow;
  readonly seed?: number;
  readonly decisionsPerDay?: number;
}

export class DemoTraffic {
  readonly profiles: readonly TenantProfile[];
  readonly seed: number;
  readonly decisionsPerDay: number;
  private readonly tenants: Map<string, DemoTenant>;

  constructor(options: DemoTrafficOptions) {
    if (options.profiles.length === 0)
      throw new RangeError("DemoTraffic needs at least one profile");
    this.profiles = options.profiles;
    this.seed = options.seed ?? DEFAULT_SEED;
    this.decisionsPerDay = options.decisionsPerDay ?? DEFAULT_DECISIONS_PER_DAY;
    this.tenants = new Map(
      options.profiles.map((profile) => [profile.tenantId, new DemoTenant(profile, options.story)]),
    );
  }

  tenant(tenantId: string): DemoTenant {
    const tenant = this.tenants.get(tenantId);
    if (!tenant) throw new RangeError(`not a demo tenant of this traffic: ${tenantId}`);
    return tenant;
  }

  /** Runs starting in [from, to), oldest first. */
  plan(from: Date, to: Date): RunPlan[] {
    return planRuns({
      profiles: this.profiles,
      from,
      to,
      seed: this.seed,
      decisionsPerDay: this.decisionsPerDay,
    });
  }

  /** Roughly how many decisions `plans` will produce (for progress estimates). */
  estimateDecisions(plans: readonly RunPlan[]): number {
    return plans.reduce((sum, plan) => sum + plan.profile.meanDecisionsPerRun, 0);
  }

  /**
   * Simulates one planned run. With `notAfter`, events later than it are left out (a run
   * still going on at that moment).
   */
  async simulate(plan: RunPlan, { notAfter }: { notAfter?: number } = {}): Promise<DemoRun> {
    const run = await this.tenant(plan.profile.tenantId).simulateRun(plan);
    if (notAfter === undefined) return run;
    const events = run.events.filter((event) => Date.parse(event.timestamp) <= notAfter);
    if (events.length === run.events.length) return run;
    return {
      ...run,
      events,
      decisions: events.filter((event) => event.type === "tool_routing_decision").length,
    };
  }
}
