/** A point estimate with its confidence interval. */
export interface Interval {
  estimate: number;
  lower: number;
  upper: number;
}

/** True when the interval lies entirely above or entirely below zero. */
export function excludesZero(interval: Pick<Interval, "lower" | "upper">): boolean {
  return interval.lower > 0 || interval.upper < 0;
}
