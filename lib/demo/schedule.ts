/**
 * When demo runs happen: a daily rhythm in each tenant's local time (a morning and an
 * afternoon peak, a lunch dip, quiet nights), quieter weekends and some day-to-day variation.
 *
 * Runs are planned per UTC hour with a random generator seeded by (seed, tenant, hour), so a
 * run's start, seed and id depend only on the hour it falls in: a backfill and a later live
 * session, or two backfills over overlapping windows, plan the same runs for the same hours
 * (and the server stores the repeated ones once).
 */
import type { TenantProfile } from "./profiles";
import { hashSeed, Random } from "./random";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Relative activity at a local hour of day (0–24): night floor, 11:00 and 15:30 peaks. */
export function dailyShape(localHour: number): number {
  const peak = (centre: number, width: number) => Math.exp(-(((localHour - centre) / width) ** 2));
  return 0.06 + peak(11, 2.4) + 0.85 * peak(15.5, 2.6) + 0.15 * peak(20.5, 1.5);
}

const MEAN_DAILY_SHAPE = (() => {
  let sum = 0;
  for (let minute = 0; minute < 24 * 60; minute += 5) sum += dailyShape(minute / 60);
  return sum / ((24 * 60) / 5);
})();

/**
 * The tenant's traffic at `ms` relative to its average (a week averages 1): daily rhythm in
 * its time zone, weekend factor, and ±15% per day.
 */
export function activity(profile: TenantProfile, ms: number, seed: number): number {
  const local = ms + profile.utcOffsetHours * HOUR_MS;
  const localHour = (((local % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS;
  const localDay = Math.floor(local / DAY_MS);
  const weekday = new Date(localDay * DAY_MS).getUTCDay();
  const weekend = weekday === 0 || weekday === 6;
  const weekMean = (5 + 2 * profile.weekendActivity) / 7;
  const dayFactor =
    0.85 + 0.3 * new Random(hashSeed(seed, profile.tenantId, "day", localDay)).next();
  const week = weekend ? profile.weekendActivity : 1;
  return ((dailyShape(localHour) / MEAN_DAILY_SHAPE) * week * dayFactor) / weekMean;
}

export interface RunPlan {
  readonly profile: TenantProfile;
  /** Start of the run, ms since the epoch. */
  readonly start: number;
  /** Seeds everything about the run. */
  readonly seed: number;
}

export interface PlanOptions {
  readonly profiles: readonly TenantProfile[];
  readonly from: Date;
  readonly to: Date;
  readonly seed: number;
  /** Decisions per day across all `profiles`, shared by their `share`. */
  readonly decisionsPerDay: number;
}

/** Every run starting in [from, to), oldest first. */
export function planRuns(options: PlanOptions): RunPlan[] {
  const { profiles, seed, decisionsPerDay } = options;
  const from = options.from.getTime();
  const to = options.to.getTime();
  const totalShare = profiles.reduce((sum, p) => sum + p.share, 0);
  const plans: RunPlan[] = [];
  for (const profile of profiles) {
    const runsPerHour =
      (decisionsPerDay * (profile.share / totalShare)) / 24 / profile.meanDecisionsPerRun;
    for (let hour = Math.floor(from / HOUR_MS); hour * HOUR_MS < to; hour++) {
      const hourStart = hour * HOUR_MS;
      const random = new Random(hashSeed(seed, profile.tenantId, hour));
      const expected = runsPerHour * activity(profile, hourStart + HOUR_MS / 2, seed);
      const count = random.poisson(expected);
      for (let i = 0; i < count; i++) {
        const start = hourStart + Math.floor(random.next() * HOUR_MS);
        if (start >= from && start < to) {
          plans.push({ profile, start, seed: hashSeed(seed, profile.tenantId, hour, i) });
        }
      }
    }
  }
  return plans.sort((a, b) => a.start - b.start || a.seed - b.seed);
}
