/** Small helpers shared by the benchmark scripts. */

/** The nearest-rank percentile `p` (0–100) of `values`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** The ingest load process prints this line when its warm-up is over and the timed run begins. */
export const TIMED_RUN_STARTS = "timed run starts";

/** The hostile-load probe process prints this line once it is warm and ready to measure. */
export const PROBE_READY = "probe ready";
